"""Online expansion against the local scholarly server: answers, faults, offline fallback, budget."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from relatex.retrieval.draft import DraftContext
from relatex.retrieval.online.http import OnlineStatus
from relatex.retrieval.online.openalex import OpenAlexClient
from relatex.retrieval.online.semantic_scholar import SemanticScholarClient
from relatex.retrieval.online_expansion import OnlineExpander, online_identifier
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.selection import SelectionParams, select_papers
from tests.fakes import make_fast_http
from tests.fakes.scholarly_server import MALFORMED_JSON, Reply, ScholarlyServer, running_server
from tests.fixtures.graph.graph_kb import build_kb


@pytest.fixture
def server() -> Iterator[ScholarlyServer]:
    with running_server() as running:
        yield running


BERT_DOI = PaperRecord(id="doi:10.18653/v1/n19-1423", title="BERT", doi="10.18653/v1/n19-1423")
BERT_ARXIV = PaperRecord(id="arxiv:1810.04805", title="BERT", arxiv_id="1810.04805")
OA_WORK = "/openalex/works/doi:10.18653/v1/n19-1423"
OA_WORK_ARXIV = "/openalex/works/doi:10.48550/arxiv.1810.04805"


def _expander(server: ScholarlyServer, tmp_path: Path, notices: list[str], **http_options: object) -> OnlineExpander:
    # One ScholarlyHttp per API, as in production where the hosts differ (an unreachable host is
    # remembered per host, and here both APIs share 127.0.0.1).
    status = OnlineStatus(notify=notices.append)
    oa_http = make_fast_http(tmp_path / "cache", status=status, **http_options)
    s2_http = make_fast_http(tmp_path / "cache", status=status, **http_options)
    return OnlineExpander(
        OpenAlexClient(oa_http, base_url=server.base_url("openalex")),
        SemanticScholarClient(s2_http, base_url=server.base_url("semantic_scholar"), api_key=""),
        kb=None,
        budget_s=10.0,
        notify=notices.append,
    )


def test_identifiers_for_online_sources() -> None:
    assert online_identifier(BERT_DOI) == "doi:10.18653/v1/n19-1423"
    assert online_identifier(BERT_ARXIV) == "arxiv:1810.04805"
    assert online_identifier(PaperRecord(id="openalex:W2963341956", title="x")) == "W2963341956"
    assert online_identifier(PaperRecord(id="acl:P02-1001", title="x")) is None


def test_references_and_citations_from_openalex(server: ScholarlyServer, tmp_path: Path) -> None:
    notices: list[str] = []
    expander = _expander(server, tmp_path, notices)
    expander.begin()
    refs = expander.references(BERT_DOI)
    assert len(refs) == 2 and all(r.source == "openalex" for r in refs)
    citers = expander.cited_by(BERT_DOI)
    assert len(citers) == 1
    assert len(expander.new_records) == 3 and notices == []
    # A second ask is answered from the on-disk cache.
    before = server.count()
    assert [r.id for r in expander.references(BERT_DOI)] == [r.id for r in refs]
    assert server.count() == before


def test_retries_after_429_with_retry_after(server: ScholarlyServer, tmp_path: Path) -> None:
    notices: list[str] = []
    expander = _expander(server, tmp_path, notices)
    server.add_faults(OA_WORK, [Reply(429, headers={"Retry-After": "0"}), Reply(503)])
    assert len(expander.references(BERT_DOI)) == 2
    assert server.count(OA_WORK) == 3 and notices == []


def test_openalex_down_falls_back_to_semantic_scholar_and_says_so_once(
    server: ScholarlyServer, tmp_path: Path
) -> None:
    notices: list[str] = []
    expander = _expander(server, tmp_path, notices, max_retries=1)
    server.add_faults(OA_WORK_ARXIV, [Reply(503)] * 4)
    refs = expander.references(BERT_ARXIV)
    assert refs and all(r.source == "semantic_scholar" for r in refs)
    citers = expander.cited_by(BERT_ARXIV)
    assert citers and citers[0].source == "semantic_scholar"
    assert len([n for n in notices if "openalex" in n]) == 1
    assert expander.status()["offline"] and expander.status()["offline"][0].startswith("openalex")


def test_malformed_json_is_skipped_not_fatal(server: ScholarlyServer, tmp_path: Path) -> None:
    notices: list[str] = []
    expander = _expander(server, tmp_path, notices, max_retries=0)
    server.add_faults(OA_WORK_ARXIV, [MALFORMED_JSON])
    refs = expander.references(BERT_ARXIV)  # OpenAlex answer unusable: Semantic Scholar answers
    assert refs and refs[0].source == "semantic_scholar"
    assert any("unusable" in n for n in notices)
    assert expander.references(BERT_ARXIV)  # OpenAlex is not marked offline for a bad body


def test_timeouts_are_bounded_by_the_budget(server: ScholarlyServer, tmp_path: Path) -> None:
    notices: list[str] = []
    expander = _expander(server, tmp_path, notices, timeout=0.3, max_retries=5, deadline=30.0)
    server.add_faults(OA_WORK, [Reply(delay=2.0)] * 10)
    server.add_faults("/s2/graph/v1/paper/DOI:10.18653/v1/n19-1423/references", [Reply(delay=2.0)] * 10)
    expander.begin(1.0)
    started = time.monotonic()
    assert expander.references(BERT_DOI) == []
    assert expander.cited_by(BERT_DOI) == []
    assert time.monotonic() - started < 3.0


def test_offline_says_so_once_and_continues(tmp_path: Path) -> None:
    notices: list[str] = []
    status = OnlineStatus(notify=notices.append)
    http = make_fast_http(tmp_path / "cache", status=status, max_retries=0)
    dead = "http://127.0.0.1:9"  # the discard port: connection refused
    expander = OnlineExpander(OpenAlexClient(http, base_url=dead), SemanticScholarClient(http, base_url=dead),
                              notify=notices.append)
    expander.begin(5.0)
    for record in (BERT_DOI, BERT_ARXIV, BERT_DOI):
        assert expander.references(record) == []
        assert expander.cited_by(record) == []
    assert len(notices) == 2  # one per source, not one per request
    assert expander.calls == 2


def test_selection_with_online_expansion_adds_new_papers_to_the_kb(server: ScholarlyServer, tmp_path: Path) -> None:
    notices: list[str] = []
    kb = build_kb(tmp_path / "kb")
    try:
        expander = OnlineExpander.create(
            tmp_path / "cache", kb, timeout=1.0, openalex_url=server.base_url("openalex"),
            s2_url=server.base_url("semantic_scholar"), budget_s=5.0, rate_per_second=100.0,
            notify=notices.append,
        )
        before = len(kb)
        draft = DraftContext(title="Pre-training deep bidirectional transformers", cited={"devlin2019": BERT_DOI})
        result = select_papers(draft, kb, SelectionParams(breadth=6, seed_hits=3), expander)
        online = result.stats["online"]
        assert online["calls"] >= 2 and online["added_to_kb"] == 3 and notices == []
        assert len(kb) == before + 3
        cited_by_bert = [v for u, v, d in result.graph.edges(data=True) if u == BERT_DOI.id and "cites" in d["kinds"]]
        assert len(cited_by_bert) == 2
    finally:
        kb.close()


def test_selection_offline_continues_with_the_local_graph(tmp_path: Path) -> None:
    notices: list[str] = []
    kb = build_kb(tmp_path / "kb")
    try:
        expander = OnlineExpander.create(tmp_path / "cache", kb, timeout=0.5, openalex_url="http://127.0.0.1:9",
                                         s2_url="http://127.0.0.1:9", budget_s=3.0, notify=notices.append)
        cited = kb.get("doi:10.1000/cr.3")
        assert cited is not None
        draft = DraftContext(title="Citation graph recommendation", cited={"gori2006": cited})
        started = time.monotonic()
        result = select_papers(draft, kb, SelectionParams(breadth=5), expander)
        assert time.monotonic() - started < 5.0
        assert len([p for p in result.papers if p.draft_key is None]) == 5 and len(notices) == 2
        assert result.stats["online"]["added_to_kb"] == 0
    finally:
        kb.close()


def test_expander_from_settings_follows_online_enabled(tmp_path: Path) -> None:
    from relatex.config.settings import load_settings
    from relatex.retrieval.online_expansion import expander_from_settings

    off, _ = load_settings({"online": {"enabled": False}})
    on, _ = load_settings({"online": {"enabled": True, "cacheDir": str(tmp_path), "timeout": 2}})
    assert expander_from_settings(off) is None
    expander = expander_from_settings(on, budget_s=3.0)
    assert isinstance(expander, OnlineExpander) and expander.budget_s == 3.0
    assert [name for name, _ in expander.clients] == ["openalex", "semantic_scholar"]
