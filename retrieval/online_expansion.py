"""Citation neighbours from OpenAlex and the Semantic Scholar Graph API.

:class:`OnlineExpander` is a citation source for :func:`relatex.retrieval.expansion.expand`:
for a paper it asks OpenAlex (``referenced_works``, ``cites:`` filter) and falls back to
Semantic Scholar (``/references``, ``/citations``). Everything goes through
:class:`ScholarlyHttp` (on-disk cache, polite rate limits, retries with backoff, timeouts).
A source that is offline is reported once and not asked again; an overall time budget
bounds the whole expansion, so it never hangs. Papers seen for the first time are added to
the knowledge base when the expansion finishes (:meth:`OnlineExpander.finish`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from relatex.config.settings import Settings
from relatex.retrieval.online.http import (
    OnlineStatus,
    ScholarlyHttp,
    SourceError,
    SourceUnavailable,
    user_agent,
)
from relatex.retrieval.online.openalex import OPENALEX_URL, OpenAlexClient
from relatex.retrieval.online.semantic_scholar import S2_URL, SemanticScholarClient
from relatex.retrieval.records import PaperRecord

log = logging.getLogger(__name__)


def online_identifier(record: PaperRecord) -> str | None:
    """The identifier the online APIs understand: DOI, arXiv id, OpenAlex or S2 id."""
    if record.doi:
        return f"doi:{record.doi}"
    if record.arxiv_id:
        return f"arxiv:{record.arxiv_id}"
    source, _, local = record.id.partition(":")
    if source == "openalex" and local:
        return local.upper() if local.lower().startswith("w") else None
    if source in {"s2", "semantic_scholar"} and local:
        return f"s2:{local}"
    return None


class OnlineExpander:
    """References and citations of papers from OpenAlex, then Semantic Scholar.

    ``budget_s`` bounds the total time spent online from :meth:`begin`; ``cited_by_limit``
    the citing papers fetched per paper. ``notify`` receives the one-line notices (offline
    source, budget exhausted); by default they are logged.
    """

    name = "online"
    cheap = False

    def __init__(
        self,
        openalex: OpenAlexClient | None,
        semantic_scholar: SemanticScholarClient | None,
        kb: Any = None,
        *,
        cited_by_limit: int = 25,
        budget_s: float = 20.0,
        notify: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clients: list[tuple[str, Any]] = []
        if openalex is not None:
            self.clients.append(("openalex", openalex))
        if semantic_scholar is not None:
            self.clients.append(("semantic_scholar", semantic_scholar))
        self.kb = kb
        self.cited_by_limit = cited_by_limit
        self.budget_s = budget_s
        self.notify = notify
        self.clock = clock
        self.deadline: float | None = None
        self.status_tracker = self._shared_status()
        self._http_deadlines = {
            id(c.http): c.http.deadline for _, c in self.clients if isinstance(getattr(c, "http", None), ScholarlyHttp)
        }
        self.calls = 0
        self.errors: dict[str, int] = {}
        self.budget_exhausted = False
        self._new: dict[str, PaperRecord] = {}
        self._notices: list[str] = []

    @classmethod
    def create(
        cls,
        cache_dir: Path | None,
        kb: Any = None,
        *,
        timeout: float = 10.0,
        mailto: str = "",
        openalex_url: str = OPENALEX_URL,
        s2_url: str = S2_URL,
        budget_s: float = 20.0,
        max_retries: int = 2,
        rate_per_second: float = 5.0,
        notify: Callable[[str], None] | None = None,
    ) -> OnlineExpander:
        """An expander with its own :class:`ScholarlyHttp` (shared by both clients)."""
        status = OnlineStatus(notify=notify)
        http = ScholarlyHttp(cache_dir, timeout=timeout, max_retries=max_retries, rate_per_second=rate_per_second,
                             user_agent=user_agent(mailto), status=status)
        return cls(OpenAlexClient(http, base_url=openalex_url, mailto=mailto),
                   SemanticScholarClient(http, base_url=s2_url), kb, budget_s=budget_s, notify=notify)

    def _shared_status(self) -> OnlineStatus:
        for _, client in self.clients:
            http = getattr(client, "http", None)
            if isinstance(http, ScholarlyHttp):
                return http.status
        return OnlineStatus(notify=self.notify)

    def _say(self, message: str) -> None:
        if message in self._notices:
            return
        self._notices.append(message)
        if self.notify is not None:
            self.notify(message)
        else:
            log.warning("%s", message)

    def begin(self, budget_s: float | None = None) -> None:
        """Start the time budget (``budget_s`` seconds from now)."""
        if budget_s is not None:
            self.budget_s = budget_s
        self.deadline = self.clock() + self.budget_s
        self.budget_exhausted = False

    def _remaining(self) -> float:
        if self.deadline is None:
            self.begin()
        assert self.deadline is not None
        return self.deadline - self.clock()

    def _call(self, method: str, record: PaperRecord, **kwargs: Any) -> list[PaperRecord]:
        identifier = online_identifier(record)
        if identifier is None:
            return []
        for name, client in self.clients:
            if self.status_tracker.is_offline(name):
                continue
            remaining = self._remaining()
            if remaining <= 0:
                if not self.budget_exhausted:
                    self.budget_exhausted = True
                    self._say(f"relatex: online expansion stopped after {self.budget_s:.0f} s; "
                              "continuing with the papers found so far")
                return []
            http = getattr(client, "http", None)
            if isinstance(http, ScholarlyHttp):
                http.deadline = max(0.1, min(self._http_deadlines.get(id(http), http.deadline), remaining))
            fn = getattr(client, method if name == "openalex" or method != "cited_by" else "citations")
            self.calls += 1
            try:
                found: list[PaperRecord] = fn(identifier, **kwargs)
            except SourceUnavailable as exc:
                self.status_tracker.report(name, str(exc) or "unreachable")
                continue
            except SourceError as exc:
                self.errors[name] = self.errors.get(name, 0) + 1
                if self.errors[name] == 1:
                    self._say(f"relatex: {name} gave an unusable answer ({exc}); trying the next source")
                continue
            except ValueError:
                continue
            if found:
                self._remember(found)
                return [r for r in found if r.id != record.id]
        return []

    def _remember(self, records: list[PaperRecord]) -> None:
        for record in records:
            if record.id in self._new:
                continue
            if self.kb is not None and self.kb.get(record.id) is not None:
                continue
            self._new[record.id] = record

    def references(self, record: PaperRecord) -> list[PaperRecord]:
        """Papers ``record`` cites, from the first source that knows it."""
        return self._call("references", record)

    def cited_by(self, record: PaperRecord) -> list[PaperRecord]:
        """Papers citing ``record`` (up to ``cited_by_limit``)."""
        if self.cited_by_limit <= 0:
            return []
        return self._call("cited_by", record, limit=self.cited_by_limit)

    @property
    def new_records(self) -> list[PaperRecord]:
        return list(self._new.values())

    def finish(self) -> int:
        """Add the newly seen papers to the knowledge base; returns how many were added."""
        if self.kb is None or not self._new:
            return 0
        records = list(self._new.values())
        try:
            self.kb.add_records(records)
        except Exception as exc:  # the selection stays valid without persisting them
            log.warning("relatex: could not add %d online papers to the knowledge base: %s", len(records), exc)
            return 0
        self._new.clear()
        return len(records)

    def status(self) -> dict[str, Any]:
        """Calls made, sources offline, notices given (for the selection's stats)."""
        return {
            "calls": self.calls,
            "new_papers": len(self._new),
            "offline": self.status_tracker.messages(),
            "budget_exhausted": self.budget_exhausted,
            "notices": list(self._notices),
        }


def expander_from_settings(settings: Settings, kb: Any = None, *, budget_s: float = 20.0,
                           notify: Callable[[str], None] | None = None) -> OnlineExpander | None:
    """The expander the settings ask for (``settings.online``), or None when online use is off."""
    online = settings.online
    if not online.enabled:
        return None
    return OnlineExpander.create(online.resolved_cache_dir() / "http", kb, timeout=online.timeout,
                                 mailto=online.mailto, budget_s=budget_s, notify=notify)
