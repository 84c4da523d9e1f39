"""A local scholarly API server for tests: recorded responses plus injectable faults.

It serves the files of ``tests/fixtures/online/`` as OpenAlex (``/openalex``), Semantic Scholar
(``/s2/graph/v1``), Crossref (``/crossref``), arXiv (``/arxiv/api``) and DBLP (``/dblp``) would,
on ``127.0.0.1`` and a free port. Routes come from ``routes.json`` and :meth:`add_route`.
Faults are queued per path: each request to that path takes the next :class:`Reply` (a 429
with Retry-After, a 503, a delay longer than the client's timeout, a malformed or truncated
body); once the queue is empty the recorded response is served again. Every request is logged.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "online"

API_PREFIXES = {
    "openalex": "/openalex",
    "semantic_scholar": "/s2/graph/v1",
    "crossref": "/crossref",
    "arxiv": "/arxiv/api",
    "dblp": "/dblp",
}


@dataclass(frozen=True)
class Reply:
    """One scripted answer. ``body=None`` with status 200 serves the recorded response."""

    status: int = 200
    body: str | bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (for client timeouts)
    truncate: bool = False  # announce the full length, send half the body, close


MALFORMED_JSON = Reply(200, b'{"results": [{"id": "https://openalex.org/W1", "title": ')


@dataclass(frozen=True)
class Route:
    path: str
    file: str | None = None
    body: bytes | None = None
    query: Mapping[str, str] = field(default_factory=dict)
    status: int = 200
    content_type: str = "application/json; charset=utf-8"

    def matches(self, path: str, query: Mapping[str, list[str]]) -> bool:
        if path.lower() != self.path.lower():
            return False
        for name, wanted in self.query.items():
            values = query.get(name, [])
            if wanted.startswith("~"):
                if not any(wanted[1:].lower() in v.lower() for v in values):
                    return False
            elif wanted not in values:
                return False
        return True

    def payload(self) -> bytes:
        if self.body is not None:
            return self.body
        return (FIXTURES / str(self.file)).read_bytes()


@dataclass(frozen=True)
class LoggedRequest:
    path: str
    query: Mapping[str, list[str]]
    headers: Mapping[str, str]
    at: float


class ScholarlyServer:
    """The threaded fake server. Use as a context manager or via the ``scholarly_server`` fixture."""

    def __init__(self, routes_file: Path | None = FIXTURES / "routes.json") -> None:
        self.routes: list[Route] = []
        if routes_file is not None:
            for raw in json.loads(routes_file.read_text(encoding="utf-8"))["routes"]:
                self.routes.append(
                    Route(
                        path=raw["path"],
                        file=raw.get("file"),
                        query=raw.get("query", {}),
                        status=raw.get("status", 200),
                        content_type=raw.get("content_type", "application/json; charset=utf-8"),
                    )
                )
        self.log: list[LoggedRequest] = []
        self._faults: dict[str, list[Reply]] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- control --------------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def base_url(self, api: str) -> str:
        """Base URL to give a client: ``base_url('crossref')`` -> ``http://127.0.0.1:PORT/crossref``."""
        return self.url + API_PREFIXES[api]

    def add_route(
        self,
        path: str,
        *,
        file: str | None = None,
        body: str | bytes | None = None,
        query: Mapping[str, str] | None = None,
        status: int = 200,
        content_type: str = "application/json; charset=utf-8",
    ) -> None:
        """Serve ``file`` (relative to the fixtures) or ``body`` at ``path``; newest routes win ties."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        route = Route(path, file=file, body=data, query=dict(query or {}), status=status, content_type=content_type)
        with self._lock:
            self.routes.insert(0, route)

    def add_faults(self, path: str, replies: Sequence[Reply]) -> None:
        """Queue scripted replies for the next requests to ``path`` (any query)."""
        with self._lock:
            self._faults.setdefault(path.lower(), []).extend(replies)

    def requests(self, path: str | None = None) -> list[LoggedRequest]:
        with self._lock:
            return [r for r in self.log if path is None or r.path.lower() == path.lower()]

    def count(self, path: str | None = None) -> int:
        return len(self.requests(path))

    def start(self) -> ScholarlyServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                server._handle(self)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> ScholarlyServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving ----------------------------------------------------------------------------

    def _find(self, path: str, query: Mapping[str, list[str]]) -> Route | None:
        with self._lock:
            candidates = [r for r in self.routes if r.matches(path, query)]
        if not candidates:
            return None
        best = max(len(r.query) for r in candidates)
        return next(r for r in candidates if len(r.query) == best)

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        path = unquote(parts.path)
        query = parse_qs(parts.query, keep_blank_values=True)
        with self._lock:
            self.log.append(LoggedRequest(path, query, dict(handler.headers.items()), time.monotonic()))
            queue = self._faults.get(path.lower())
            reply = queue.pop(0) if queue else None
        if reply is not None and reply.delay > 0:
            if self._stopping.wait(reply.delay):
                return
        route = self._find(path, query)
        if reply is not None and (reply.body is not None or reply.status != 200):
            status, content_type = reply.status, "application/json; charset=utf-8"
            body = reply.body.encode("utf-8") if isinstance(reply.body, str) else (reply.body or b"")
            if not body and status >= 400:
                body = json.dumps({"error": f"HTTP {status}"}).encode("utf-8")
        elif route is None:
            status, content_type = 404, "application/json; charset=utf-8"
            body = json.dumps({"error": "Not Found", "message": f"no record for {path}"}).encode("utf-8")
        else:
            status, content_type, body = route.status, route.content_type, route.payload()
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", content_type)
            handler.send_header("Content-Length", str(len(body)))
            handler.send_header("Connection", "close")
            for name, value in (reply.headers if reply is not None else {}).items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(body[: len(body) // 2] if reply is not None and reply.truncate else body)
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        handler.close_connection = True


@contextmanager
def running_server(routes_file: Path | None = FIXTURES / "routes.json") -> Iterator[ScholarlyServer]:
    server = ScholarlyServer(routes_file).start()
    try:
        yield server
    finally:
        server.stop()
