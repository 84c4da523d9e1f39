"""The paper fit mixed into relevance: its formula, its depth, and its effect on a selection."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.paper_fit import paper_text, with_paper_fit
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.selection import SelectionParams, select_papers
from relatex.workflows.engines import EngineOverrides, Engines
from tests.fixtures.graph.graph_kb import build_kb


def record(rid: str, title: str, abstract: str = "") -> PaperRecord:
    return PaperRecord(id=rid, title=title, abstract=abstract)


class WordFit:
    """A fit whose logit is +4 for a paper naming ``word``, -4 otherwise; it records what it read."""

    def __init__(self, word: str) -> None:
        self.word = word
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, query: str, papers: Sequence[str]) -> list[float]:
        self.calls.append((query, list(papers)))
        return [4.0 if self.word in p.lower() else -4.0 for p in papers]


def test_the_fit_is_mixed_in_at_its_weight_for_the_most_relevant_candidates() -> None:
    records = {"a": record("a", "Dense retrieval", "We retrieve passages."), "b": record("b", "Parsing"),
               "c": record("c", "Dense vectors")}
    fit = WordFit("dense")
    mixed = with_paper_fit({"a": 0.5, "b": 0.9, "c": 0.1}, records, "draft text", fit, 0.3, depth=2)
    assert fit.calls == [("draft text", ["Parsing", "Dense retrieval. We retrieve passages."])]
    high, low = 1 / (1 + math.exp(-4.0)), 1 / (1 + math.exp(4.0))
    assert mixed["a"] == pytest.approx(0.7 * 0.5 + 0.3 * high)
    assert mixed["b"] == pytest.approx(0.7 * 0.9 + 0.3 * low)
    assert mixed["c"] == pytest.approx(0.7 * 0.1)  # beyond the depth: not read, no share of the fit
    assert mixed["a"] > mixed["b"]
    assert paper_text(records["b"]) == "Parsing"


@pytest.mark.parametrize(("weight", "query"), [(0.0, "draft"), (0.3, "  ")])
def test_without_weight_or_draft_text_relevance_is_unchanged(weight: float, query: str) -> None:
    fit = WordFit("x")
    relevance = {"a": 0.4}
    assert with_paper_fit(relevance, {"a": record("a", "x")}, query, fit, weight) == relevance
    assert fit.calls == []


def test_a_paper_fit_reorders_the_selection_towards_the_papers_it_prefers(tmp_path: object) -> None:
    from relatex.retrieval.draft import DraftContext

    kb: KnowledgeBase = build_kb(tmp_path)  # type: ignore[arg-type]
    draft = DraftContext(title="Citation recommendation", abstract="We recommend citations for drafts.")
    params = SelectionParams(breadth=3, hops=0, alpha=1.0, diversity=0.0, paper_fit_weight=0.5)
    plain = [p.record.title for p in select_papers(draft, kb, params).papers]
    fit = WordFit("graph")
    fitted = [p.record.title for p in select_papers(draft, kb, params, paper_fit=fit).papers]
    assert fit.calls and all(q == draft.query_text() for q, _ in fit.calls)
    assert sum("graph" in t.lower() for t in fitted) >= 2 and not any("graph" in t.lower() for t in plain)


def test_the_engines_give_the_shipped_cross_encoder_unless_told_otherwise() -> None:
    from relatex.config.settings import GraphSettings, Settings

    assert Engines(Settings(graph=GraphSettings(paper_fit_weight=0.0))).paper_fit() is None
    fake = WordFit("x")
    assert Engines(overrides=EngineOverrides(paper_fit=fake)).paper_fit() is fake
    shipped = Engines().paper_fit()
    assert shipped is not None and len(list(shipped("a claim", ["a paper", "another"]))) == 2


def test_the_shipped_paper_fit_reads_each_paper_from_its_start() -> None:
    from relatex.analysis.claims.citation_model import shipped_cross_encoder

    cross = shipped_cross_encoder()
    fit = Engines().paper_fit()
    assert cross is not None and fit is not None
    long_paper = "A Title. " + " ".join(f"Sentence {i} says something about topic {i}." for i in range(40))
    whole = cross.logits("topic 39", [long_paper], focus=False)[0]
    assert list(fit("topic 39", [long_paper])) == [whole]
    if cross.focus_words:  # a claim reads the sentences nearest it: another input, another logit
        assert cross.logits("topic 39", [long_paper])[0] != whole
