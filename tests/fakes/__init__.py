"""Test doubles shared by every area's tests.

Use the local scholarly API server in a test module with::

    from tests.fakes import fast_http_fixture, scholarly_server_fixture  # noqa: F401

    def test_x(scholarly_server, fast_http):
        client = CrossrefClient(fast_http, base_url=scholarly_server.base_url("crossref"))

The fixtures are registered as ``scholarly_server``, ``scholarly_server_factory`` (start more
servers, e.g. with other routes) and ``fast_http``; importing the ``*_fixture`` names keeps
linters from reporting the parameters as redefinitions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fakes.scholarly_server import FIXTURES, MALFORMED_JSON, Reply, ScholarlyServer, running_server

__all__ = [
    "FIXTURES",
    "MALFORMED_JSON",
    "Reply",
    "ScholarlyServer",
    "fast_http",
    "fast_http_fixture",
    "make_fast_http",
    "running_server",
    "scholarly_server",
    "scholarly_server_factory",
    "scholarly_server_factory_fixture",
    "scholarly_server_fixture",
]


@pytest.fixture(name="scholarly_server")
def scholarly_server_fixture() -> Iterator[ScholarlyServer]:
    """A started fake server with the recorded routes; stopped after the test."""
    with running_server() as server:
        yield server


@pytest.fixture(name="scholarly_server_factory")
def scholarly_server_factory_fixture() -> Iterator[Callable[..., ScholarlyServer]]:
    """Start extra fake servers, e.g. with another routes file (``None``: no recorded routes,
    only those added with ``add_route``); all are stopped after the test."""
    started: list[ScholarlyServer] = []

    def start(routes_file: Path | None = FIXTURES / "routes.json") -> ScholarlyServer:
        server = ScholarlyServer(routes_file).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def make_fast_http(cache_dir: Path | None = None, **overrides: object):  # type: ignore[no-untyped-def]
    """A ScholarlyHttp tuned for tests: short timeouts and backoff, no rate limit."""
    from relatex.retrieval.online.http import ScholarlyHttp

    options: dict[str, object] = {
        "timeout": 1.0,
        "max_retries": 2,
        "rate_per_second": 0.0,
        "user_agent": "relatex-tests/0.1 (mailto:tests@example.org)",
        "backoff": 0.01,
        "deadline": 4.0,
    }
    options.update(overrides)
    return ScholarlyHttp(cache_dir, **options)  # type: ignore[arg-type]


@pytest.fixture(name="fast_http")
def fast_http_fixture(tmp_path: Path) -> Iterator[object]:
    """A test ScholarlyHttp caching under the test's tmp_path."""
    http = make_fast_http(tmp_path / "http-cache")
    yield http
    http.close()


# Older spelling: ``from tests.fakes import scholarly_server``.
scholarly_server = scholarly_server_fixture
scholarly_server_factory = scholarly_server_factory_fixture
fast_http = fast_http_fixture
