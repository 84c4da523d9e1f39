"""The related-papers use case: one builder of the selection knobs, progress, cancellation, and
the reasons it gives when there is nothing to choose from."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.workflows.failures import BAD_REQUEST, NO_KNOWLEDGE_BASE, UseCaseCancelled, UseCaseFailed
from relatex.workflows.related_papers import RelatedRequest, SelectionKnobs, related_papers, selection_params
from tests.workflows.kb_fixture import build_demo_kb, demo_draft, fake_engines, settings_for


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    kb = build_demo_kb(tmp_path_factory.mktemp("related") / "default")
    yield kb
    kb.close()


def test_the_selection_knobs_come_from_the_settings_then_the_request(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, alpha=0.7, breadth=9, hops=2)
    params = selection_params(settings)
    assert (params.alpha, params.breadth, params.hops, params.depth) == (0.7, 9, 2, 3)
    params = selection_params(settings, SelectionKnobs(alpha=0.1, depth=1, per_section=True))
    assert (params.alpha, params.breadth, params.depth, params.per_section) == (0.1, 9, 1, True)
    with pytest.raises(UseCaseFailed, match="diversity") as caught:
        selection_params(settings, SelectionKnobs(diversity=2.0))
    assert caught.value.kind == BAD_REQUEST
    assert params.relevance_floor == settings.graph.relevance_floor == 0.85  # cite only what earns it
    assert params.paper_fit_weight == settings.graph.paper_fit_weight == 0.3
    assert selection_params(settings, SelectionKnobs(relevance_floor=0.0)).relevance_floor == 0.0
    assert params.floor_exempt_links == settings.graph.floor_exempt_links == 2
    assert selection_params(settings).alpha_without_citations == settings.graph.alpha_without_citations == 0.7
    assert params.alpha_without_citations == 0.1  # an alpha asked for holds with or without citation edges
    assert selection_params(settings, SelectionKnobs(floor_exempt_links=0)).floor_exempt_links == 0
    with pytest.raises(UseCaseFailed, match="relevance_floor"):
        selection_params(settings, SelectionKnobs(relevance_floor=1.0))


def test_the_selection_honours_the_knobs_and_reports_progress(kb: KnowledgeBase, tmp_path: Path) -> None:
    reports: list[tuple[str, float | None]] = []
    engines = fake_engines(kb, settings_for(tmp_path, breadth=5))
    result = related_papers(RelatedRequest(demo_draft()), engines,
                            progress=lambda message, fraction: reports.append((message, fraction)))
    assert len([p for p in result.selection.papers if not p.draft_key]) <= 5
    assert result.params.breadth == 5 and result.kb_records == len(kb)
    assert reports and reports[0][0] == "reading the draft"
    fractions = [f for _, f in reports if f is not None]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


def test_alpha_changes_the_scores(kb: KnowledgeBase, tmp_path: Path) -> None:
    def scores(alpha: float) -> dict[str, float]:
        engines = fake_engines(kb, settings_for(tmp_path, alpha=alpha))
        selection = related_papers(RelatedRequest(demo_draft()), engines).selection
        return {p.record.id: round(p.score, 6) for p in selection.papers}

    assert scores(0.1) != scores(0.9)


def test_a_cancelled_selection_raises(kb: KnowledgeBase) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(UseCaseCancelled):
        related_papers(RelatedRequest(demo_draft()), fake_engines(kb), cancel=cancel)


def test_without_a_knowledge_base_the_reason_names_the_folder_and_the_command(tmp_path: Path) -> None:
    engines = fake_engines(None, settings_for(tmp_path / "data"))
    with pytest.raises(UseCaseFailed) as caught:
        related_papers(RelatedRequest(demo_draft()), engines)
    assert caught.value.kind == NO_KNOWLEDGE_BASE
    assert str(caught.value).startswith(f"no knowledge base at {tmp_path / 'data' / 'default'}")
    assert "relatex index" in str(caught.value)


def test_unreadable_citation_edges_are_a_bad_request(kb: KnowledgeBase, tmp_path: Path) -> None:
    request = RelatedRequest(demo_draft(), citation_edges=(str(tmp_path / "missing.jsonl"),))
    with pytest.raises(UseCaseFailed, match="cannot read citation edges") as caught:
        related_papers(request, fake_engines(kb))
    assert caught.value.kind == BAD_REQUEST
