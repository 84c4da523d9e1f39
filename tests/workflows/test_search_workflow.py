"""The search use case (``relatex search``) and the knowledge-base part of completion."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from relatex.analysis.claims.claim_support import SUPPORTED, SupportVerdict
from relatex.config.settings import Settings
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.workflows.engines import EngineOverrides, Engines
from relatex.workflows.failures import BAD_REQUEST, NO_KNOWLEDGE_BASE, UseCaseFailed
from relatex.workflows.search import SearchRequest, paper_suggestions, search, supporting_papers
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


class TitleJudge:
    """Supports a claim when the candidate's title shares a word of four letters or more with it."""

    judge_id = "fake/title"

    def judge(self, claim: str, evidence: object) -> SupportVerdict:
        title = " ".join(item.sentence for item in evidence if item.source == "title").lower()  # type: ignore[attr-defined]
        shared = {w for w in claim.lower().split() if len(w) >= 4 and w in title}
        label = SUPPORTED if shared else "not_addressed"
        return SupportVerdict(label, min(1.0, 0.2 * len(shared)), None, None, self.judge_id)


def test_supporting_papers_are_judged_and_ranked(kb: KnowledgeBase) -> None:
    engines = Engines(Settings(), EngineOverrides(knowledge_base=kb, judge=TitleJudge(), authorities=[]))
    claim = "citation recommendation for scientific writing"
    found = supporting_papers(claim, engines, (), 10)
    assert found and all(verdict.label == SUPPORTED for _, verdict in found)
    assert [v.score for _, v in found] == sorted((v.score for _, v in found), reverse=True)
    cited = found[0][0].id
    assert cited not in {r.id for r, _ in supporting_papers(claim, engines, {cited}, 10)}
    assert supporting_papers("   ", engines, (), 10) == []
    assert supporting_papers(claim, fake_engines(None), (), 10) == []
