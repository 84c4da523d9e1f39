"""Polite HTTP for scholarly APIs: on-disk cache, per-host rate limits, bounded retries.

Every online source (OpenAlex, Semantic Scholar, Crossref, arXiv, DBLP) goes through
:class:`ScholarlyHttp`. Nothing here ever hangs: each request has a timeout and each call an
overall deadline. Failures are two exceptions only: :class:`SourceUnavailable` (offline,
unreachable, rate limited or failing server: callers say so once and continue without it)
and :class:`SourceError` (the source answered, but with a client error or a malformed body).
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import logging
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

log = logging.getLogger(__name__)

DEFAULT_USER_AGENT = "relatex/0.1"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


class SourceUnavailable(Exception):
    """The source cannot be used now (no network, refused, timeouts, rate limit, 5xx)."""

    def __init__(self, message: str, host: str = "") -> None:
        super().__init__(message)
        self.host = host


class SourceError(Exception):
    """The source answered but the answer is unusable (4xx, malformed body)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class SourceNotFound(SourceError):
    """The source does not know the requested item (HTTP 404)."""


def user_agent(mailto: str = "") -> str:
    """The User-Agent relatex sends; with a mailto it joins the OpenAlex/Crossref polite pool."""
    return f"{DEFAULT_USER_AGENT} (mailto:{mailto})" if mailto else DEFAULT_USER_AGENT


@dataclass
class OnlineStatus:
    """Remembers which sources are offline and reports each one once, not on every request."""

    notify: Callable[[str], None] | None = None
    offline: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def report(self, source: str, reason: str) -> bool:
        """Record that ``source`` is unavailable; True (and one notice) the first time only."""
        with self._lock:
            if source in self.offline:
                return False
            self.offline[source] = reason
        message = f"relatex: {source} is offline ({reason}); continuing without it"
        if self.notify is not None:
            self.notify(message)
        else:
            log.warning("%s", message)
        return True

    def is_offline(self, source: str) -> bool:
        return source in self.offline

    def messages(self) -> list[str]:
        return [f"{source}: {reason}" for source, reason in sorted(self.offline.items())]


class _TokenBucket:
    """A thread-safe token bucket: ``rate`` requests per second, bursts up to ``capacity``."""

    def __init__(self, rate: float, capacity: float = 1.0) -> None:
        self.rate = rate
        self.capacity = max(capacity, 1.0)
        self.tokens = self.capacity
        self.updated = time.monotonic()
        self.lock = threading.Lock()

    def delay(self) -> float:
        """Take a token; return how long the caller must wait before using it."""
        if self.rate <= 0:
            return 0.0
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
            self.updated = now
            self.tokens -= 1.0
            return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class ScholarlyHttp:
    """GET JSON or text from scholarly APIs with cache, rate limiting, retries and deadlines.

    ``cache_dir``: responses are stored as ``<cache_dir>/<host>/<sha256 of url>.json`` with
    their fetch time and reused for ``cache_ttl`` seconds (None: no cache). ``rate_per_second``
    applies per host (``host_rates`` overrides it, e.g. arXiv asks for one request per 3 s).
    Retries on 429/5xx/transport errors use exponential backoff with jitter and honour
    Retry-After, all bounded by ``deadline`` seconds per call.
    """

    def __init__(
        self,
        cache_dir: Path | None,
        timeout: float = 10.0,
        max_retries: int = 3,
        rate_per_second: float = 5.0,
        user_agent: str = DEFAULT_USER_AGENT,
        *,
        cache_ttl: float = 30 * 24 * 3600.0,
        deadline: float | None = None,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        host_rates: Mapping[str, float] | None = None,
        status: OnlineStatus | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.cache_dir = cache_dir
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.rate_per_second = rate_per_second
        self.user_agent = user_agent
        self.cache_ttl = cache_ttl
        self.deadline = deadline if deadline is not None else max(timeout * 3, timeout + 5.0)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.host_rates = dict(host_rates or {})
        self.status = status or OnlineStatus()
        self.sleep = sleep
        self._buckets: dict[str, _TokenBucket] = {}
        self._unreachable: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()
        self.requests_sent = 0
        self.cache_hits = 0
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout),
            headers={"User-Agent": user_agent},
            follow_redirects=True,
            transport=transport,
        )

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ScholarlyHttp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public API -------------------------------------------------------------------------

    def get_json(
        self, url: str, params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None
    ) -> Any:
        """GET ``url`` and parse JSON; SourceError when the body is not JSON."""
        full = self.full_url(url, params)
        text = self._get(full, headers or {}, validate=_is_json)
        try:
            return json.loads(text)
        except ValueError as exc:  # pragma: no cover - validated in _get
            raise SourceError(f"{_host(full)} returned malformed JSON: {exc}") from exc

    def get_text(
        self,
        url: str,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        validate: Callable[[str], str | None] | None = None,
    ) -> str:
        """GET ``url`` as text (e.g. Atom XML); ``validate`` returns an error message or None."""
        full = self.full_url(url, params)
        return self._get(full, headers or {}, validate=validate)

    @staticmethod
    def full_url(url: str, params: Mapping[str, Any] | None = None) -> str:
        if not params:
            return url
        clean = {k: v for k, v in params.items() if v is not None and v != ""}
        query = urlencode(sorted(clean.items()), doseq=True)
        return f"{url}{'&' if '?' in url else '?'}{query}" if query else url

    # -- internals ----------------------------------------------------------------------------

    def _cache_path(self, url: str) -> Path | None:
        if self.cache_dir is None:
            return None
        host = _host(url).replace(":", "_") or "local"
        digest = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.cache_dir / host / f"{digest}.json"

    def _read_cache(self, url: str) -> str | None:
        path = self._cache_path(url)
        if path is None or not path.is_file():
            return None
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
            if payload.get("url") != url or time.time() - float(payload["fetched_at"]) > self.cache_ttl:
                return None
            body = payload["body"]
            return body if isinstance(body, str) else None
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _write_cache(self, url: str, body: str) -> None:
        path = self._cache_path(url)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            payload = json.dumps({"url": url, "fetched_at": time.time(), "body": body}, ensure_ascii=False)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
            os.replace(tmp, path)
        except OSError as exc:
            log.debug("cannot write cache %s: %s", path, exc)

    def _wait_for_rate(self, host: str) -> None:
        with self._lock:
            bucket = self._buckets.get(host)
            if bucket is None:
                bucket = _TokenBucket(self.host_rates.get(host, self.rate_per_second))
                self._buckets[host] = bucket
        pause = bucket.delay()
        if pause > 0:
            self.sleep(pause)

    def _check_reachable(self, host: str) -> None:
        """Fail fast for a host that just proved unreachable (for ``deadline`` seconds)."""
        with self._lock:
            marked = self._unreachable.get(host)
        if marked and time.monotonic() - marked[0] < self.deadline:
            raise SourceUnavailable(marked[1], host)

    def _mark_unreachable(self, host: str, reason: str) -> SourceUnavailable:
        with self._lock:
            self._unreachable[host] = (time.monotonic(), reason)
        return SourceUnavailable(reason, host)

    def _get(self, url: str, headers: Mapping[str, str], validate: Callable[[str], str | None] | None) -> str:
        cached = self._read_cache(url)
        if cached is not None:
            self.cache_hits += 1
            return cached
        host = _host(url)
        self._check_reachable(host)
        started = time.monotonic()
        attempt = 0
        last_problem = "no answer"
        while True:
            self._wait_for_rate(host)
            remaining = self.deadline - (time.monotonic() - started)
            if remaining <= 0:
                raise self._mark_unreachable(host, f"no answer within {self.deadline:g}s ({last_problem})")
            timeout = httpx.Timeout(min(self.timeout, remaining))
            retry_after: float | None = None
            try:
                self.requests_sent += 1
                response = self._client.get(url, headers=dict(headers), timeout=timeout)
                body = response.text
            except httpx.ConnectError as exc:
                raise self._mark_unreachable(host, f"cannot connect to {host}: {exc}") from exc
            except httpx.TimeoutException:
                last_problem = f"timed out after {min(self.timeout, remaining):g}s"
            except (httpx.TransportError, UnicodeDecodeError) as exc:
                last_problem = f"broken response: {exc.__class__.__name__}"
            else:
                if response.status_code in RETRY_STATUSES:
                    last_problem = f"HTTP {response.status_code}"
                    retry_after = _retry_after(response.headers.get("Retry-After"))
                elif response.status_code == 404:
                    raise SourceNotFound(f"{host}: not found ({url})", 404)
                elif response.status_code >= 400:
                    raise SourceError(f"{host} answered HTTP {response.status_code} for {url}", response.status_code)
                else:
                    problem = validate(body) if validate else None
                    if problem:
                        raise SourceError(f"{host} returned a malformed body: {problem}")
                    self._write_cache(url, body)
                    return body
            attempt += 1
            if attempt > self.max_retries:
                raise self._mark_unreachable(host, f"{host} failed after {attempt} attempts ({last_problem})")
            if retry_after is not None:
                wait = retry_after  # honoured exactly: retrying earlier would be impolite
            else:
                wait = min(self.backoff * (2 ** (attempt - 1)), self.max_backoff) * random.uniform(0.5, 1.0)
            remaining = self.deadline - (time.monotonic() - started)
            if wait >= remaining or wait > self.max_backoff:
                raise self._mark_unreachable(
                    host, f"{host} asked to wait {wait:.1f}s, beyond the {self.deadline:g}s deadline ({last_problem})"
                )
            log.debug("retrying %s in %.2fs (%s)", url, wait, last_problem)
            self.sleep(wait)


def _host(url: str) -> str:
    parts = urlsplit(url)
    return parts.netloc or parts.path.split("/")[0]


def _is_json(text: str) -> str | None:
    try:
        json.loads(text)
    except ValueError as exc:
        return f"not JSON ({exc})"
    return None
