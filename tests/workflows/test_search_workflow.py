"""The search use case (``relatex search``) and the knowledge-base part of completion."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.workflows.failures import BAD_REQUEST, NO_KNOWLEDGE_BASE, UseCaseFailed
from relatex.workflows.search import SearchRequest, paper_suggestions, search
from tests.workflows.kb_fixture import build_demo_kb, fake_engines, settings_for


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    kb = build_demo_kb(tmp_path_factory.mktemp("search") / "default")
    yield kb
    kb.close()


@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_search_ranks_k_papers(kb: KnowledgeBase, mode: str) -> None:
    result = search(SearchRequest("citation recommendation", k=3, mode=mode), fake_engines(kb))
    assert 0 < len(result.hits) <= 3 and not result.reranked
    assert [h.score for h in result.hits] == sorted((h.score for h in result.hits), reverse=True)


def test_excluded_records_are_left_out(kb: KnowledgeBase) -> None:
    first = search(SearchRequest("citation recommendation", k=1), fake_engines(kb)).hits[0].record.id
    again = search(SearchRequest("citation recommendation", k=5, exclude=(first,)), fake_engines(kb))
    assert first not in {h.record.id for h in again.hits}


def test_reranking_without_the_model_keeps_the_order_and_says_so(kb: KnowledgeBase) -> None:
    plain = search(SearchRequest("citation recommendation", k=3), fake_engines(kb))
    result = search(SearchRequest("citation recommendation", k=3, rerank=True), fake_engines(kb))
    assert not result.reranked and result.notes  # hashing vectors: the citation model cannot serve
    assert [h.record.id for h in result.hits] == [h.record.id for h in plain.hits]


def test_bad_requests_and_no_knowledge_base(kb: KnowledgeBase, tmp_path: Path) -> None:
    for request in (SearchRequest("  "), SearchRequest("x", mode="fuzzy")):
        with pytest.raises(UseCaseFailed) as caught:
            search(request, fake_engines(kb))
        assert caught.value.kind == BAD_REQUEST
    with pytest.raises(UseCaseFailed) as caught:
        search(SearchRequest("x"), fake_engines(None, settings_for(tmp_path)))
    assert caught.value.kind == NO_KNOWLEDGE_BASE


def test_completion_suggestions(kb: KnowledgeBase) -> None:
    records = paper_suggestions("we recommend citations for a draft", fake_engines(kb), 4)
    assert 0 < len(records) <= 4
    assert paper_suggestions("   ", fake_engines(kb), 4) == []
    assert paper_suggestions("citations", fake_engines(None), 4) == []
