"""ScholarlyHttp against the fake server's faults: retries, Retry-After, timeouts, cache, offline."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from relatex.retrieval.online.crossref import CrossrefClient
from relatex.retrieval.online.http import OnlineStatus, ScholarlyHttp, SourceError, SourceUnavailable
from relatex.retrieval.online.openalex import OpenAlexClient
from tests.fakes import make_fast_http, scholarly_server_factory_fixture, scholarly_server_fixture  # noqa: F401
from tests.fakes.scholarly_server import MALFORMED_JSON, Reply, ScholarlyServer

BERT_PATH = "/crossref/works/10.18653/v1/n19-1423"


def _crossref(server: ScholarlyServer, http: ScholarlyHttp) -> CrossrefClient:
    return CrossrefClient(http, base_url=server.base_url("crossref"))


def test_429_then_200_honours_retry_after(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    sleeps: list[float] = []
    http = make_fast_http(tmp_path, sleep=lambda s: (sleeps.append(s), time.sleep(min(s, 0.05))))
    scholarly_server.add_faults(BERT_PATH, [Reply(429, headers={"Retry-After": "2"})])
    record = _crossref(scholarly_server, http).work("10.18653/v1/N19-1423")
    assert record is not None and record.year == 2019
    assert scholarly_server.count(BERT_PATH) == 2
    assert sleeps == [2.0]  # exactly the server's Retry-After, no jitter


def test_retry_after_beyond_deadline_gives_up_without_waiting(
    scholarly_server: ScholarlyServer, tmp_path: Path
) -> None:
    http = make_fast_http(tmp_path, deadline=3.0)
    scholarly_server.add_faults(BERT_PATH, [Reply(429, headers={"Retry-After": "120"})])
    started = time.monotonic()
    with pytest.raises(SourceUnavailable, match="asked to wait"):
        _crossref(scholarly_server, http).work("10.18653/v1/N19-1423")
    assert time.monotonic() - started < 1.0
    assert scholarly_server.count(BERT_PATH) == 1


def test_5xx_retried_then_succeeds(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path, max_retries=3)
    scholarly_server.add_faults(BERT_PATH, [Reply(503), Reply(500)])
    assert _crossref(scholarly_server, http).work("10.18653/v1/N19-1423") is not None
    assert scholarly_server.count(BERT_PATH) == 3


def test_5xx_gives_up_after_max_retries(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path, max_retries=2)
    scholarly_server.add_faults(BERT_PATH, [Reply(503)] * 10)
    with pytest.raises(SourceUnavailable, match="failed after 3 attempts"):
        _crossref(scholarly_server, http).work("10.18653/v1/N19-1423")
    assert scholarly_server.count(BERT_PATH) == 3
    # the host is now known to be failing: the next call fails fast without a request
    with pytest.raises(SourceUnavailable):
        _crossref(scholarly_server, http).work("10.1109/cvpr.2016.90")
    assert scholarly_server.count() == 3


def test_timeout_is_unavailable_quickly(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path, timeout=0.3, max_retries=5, deadline=1.0)
    scholarly_server.add_faults(BERT_PATH, [Reply(delay=5.0)] * 10)
    started = time.monotonic()
    with pytest.raises(SourceUnavailable):
        _crossref(scholarly_server, http).work("10.18653/v1/N19-1423")
    assert time.monotonic() - started < 2.0


def test_malformed_json_is_source_error_and_not_cached(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path / "cache")
    scholarly_server.add_faults(BERT_PATH, [MALFORMED_JSON])
    client = _crossref(scholarly_server, http)
    with pytest.raises(SourceError, match="malformed"):
        client.work("10.18653/v1/N19-1423")
    assert client.work("10.18653/v1/N19-1423") is not None  # the bad body was not cached
    assert scholarly_server.count(BERT_PATH) == 2


def test_unexpected_json_shape_is_source_error(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path)
    scholarly_server.add_faults(BERT_PATH, [Reply(200, body=json.dumps({"status": "ok"}))])
    with pytest.raises(SourceError):
        _crossref(scholarly_server, http).work("10.18653/v1/N19-1423")


def test_truncated_body_is_retried(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path)
    scholarly_server.add_faults(BERT_PATH, [Reply(truncate=True)])
    assert _crossref(scholarly_server, http).work("10.18653/v1/N19-1423") is not None
    assert scholarly_server.count(BERT_PATH) == 2


def test_client_error_is_source_error(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    http = make_fast_http(tmp_path)
    scholarly_server.add_faults(BERT_PATH, [Reply(400, body='{"message": "bad filter"}')])
    with pytest.raises(SourceError) as caught:
        _crossref(scholarly_server, http).work("10.18653/v1/N19-1423")
    assert caught.value.status == 400
    assert scholarly_server.count(BERT_PATH) == 1


def test_cache_hit_avoids_second_request(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = make_fast_http(cache)
    client = OpenAlexClient(first, base_url=scholarly_server.base_url("openalex"))
    one = client.work("W2963341956")
    again = OpenAlexClient(make_fast_http(cache), base_url=scholarly_server.base_url("openalex")).work("W2963341956")
    assert one == again
    assert scholarly_server.count("/openalex/works/W2963341956") == 1
    files = list(cache.glob("127.0.0.1_*/*.json"))
    assert len(files) == 1
    stored = json.loads(files[0].read_text(encoding="utf-8"))
    assert stored["url"].endswith("/openalex/works/W2963341956") and stored["fetched_at"] > 0


def test_expired_cache_is_refetched(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    make_fast_http(cache).get_json(scholarly_server.base_url("openalex") + "/works/W2963341956")
    make_fast_http(cache, cache_ttl=0.0).get_json(scholarly_server.base_url("openalex") + "/works/W2963341956")
    assert scholarly_server.count("/openalex/works/W2963341956") == 2


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_connection_refused_is_unavailable_immediately(tmp_path: Path) -> None:
    http = make_fast_http(tmp_path, max_retries=5)
    client = CrossrefClient(http, base_url=f"http://127.0.0.1:{_closed_port()}/crossref")
    started = time.monotonic()
    with pytest.raises(SourceUnavailable, match="cannot connect"):
        client.work("10.18653/v1/N19-1423")
    assert time.monotonic() - started < 1.0
    assert http.requests_sent == 1


def test_offline_notice_only_once() -> None:
    notices: list[str] = []
    status = OnlineStatus(notify=notices.append)
    assert status.report("crossref", "cannot connect") is True
    assert status.report("crossref", "cannot connect again") is False
    assert status.report("dblp", "timed out") is True
    assert notices == [
        "relatex: crossref is offline (cannot connect); continuing without it",
        "relatex: dblp is offline (timed out); continuing without it",
    ]
    assert status.is_offline("crossref") and not status.is_offline("arxiv")


def test_rate_limit_spaces_requests(scholarly_server: ScholarlyServer, tmp_path: Path) -> None:
    sleeps: list[float] = []
    http = make_fast_http(None, rate_per_second=10.0, sleep=lambda s: (sleeps.append(s), time.sleep(s)))
    url = scholarly_server.base_url("openalex") + "/works/W2963341956"
    for _ in range(3):
        http.get_json(url)
    assert len(sleeps) == 2 and all(0.0 < s <= 0.1 for s in sleeps)


def test_server_factory_serves_added_routes(
    scholarly_server_factory: Callable[..., ScholarlyServer], tmp_path: Path
) -> None:
    server = scholarly_server_factory(None)
    server.add_route("/dblp/search/publ/api", file="dblp/search_tnt.json", query={"q": "~tagger"})
    http = make_fast_http(tmp_path)
    data = http.get_json(server.base_url("dblp") + "/search/publ/api", {"q": "statistical tagger", "format": "json"})
    assert data["result"]["hits"]["@total"] == "1"
    assert http.get_json(server.base_url("dblp") + "/search/publ/api", {"q": "tagger"})["result"]
    with pytest.raises(SourceError):  # nothing recorded for this path: 404
        http.get_json(server.base_url("crossref") + "/works/10.1/none")
