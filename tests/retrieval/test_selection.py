"""select_papers end to end on a small knowledge base: knobs, layers, themes, reasons, cancel."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from relatex.analysis.latex.latex_project import load_project
from relatex.analysis.verification.project_checks import load_bibliographies
from relatex.retrieval.acl_citations import AclCitationIndex, AclCitationSource, acl_id_of
from relatex.retrieval.citation_graph import DRAFT, edges_of_type, graph_metrics
from relatex.retrieval.draft import DraftContext, draft_context
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.selection import (
    LAYERS,
    Selection,
    SelectionCancelled,
    SelectionParams,
    default_sources,
    select_papers,
)
from tests.fixtures.graph.graph_kb import DRAFT as DRAFT_TEX
from tests.fixtures.graph.graph_kb import build_kb


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    base = build_kb(tmp_path_factory.mktemp("selection-kb"))
    yield base
    base.close()


@pytest.fixture(scope="module")
def draft(kb: KnowledgeBase) -> DraftContext:
    project = load_project(DRAFT_TEX)
    return draft_context(project, load_bibliographies(project), kb)


@pytest.fixture(scope="module")
def selection(kb: KnowledgeBase, draft: DraftContext) -> Selection:
    return select_papers(draft, kb, SelectionParams(breadth=10, depth=2, hops=1))


def test_keeps_breadth_papers_with_scores_layers_and_themes(selection: Selection) -> None:
    new = [p for p in selection.papers if p.draft_key is None]
    assert len(new) == 10  # breadth new papers; the draft's own citations come on top
    assert len({p.record.id for p in selection.papers}) == len(selection.papers)
    for paper in selection.papers:
        assert paper.layer in LAYERS
        assert 0.0 <= paper.relevance <= 1.0 and 0.0 <= paper.centrality <= 1.0
        assert paper.reasons, paper.record.id
        assert 0 < len(paper.read_sentences) <= 2
    themed = sorted(pid for theme in selection.themes for pid in theme.paper_ids)
    assert themed == sorted(p.record.id for p in selection.papers)
    assert sorted(t.order for t in selection.themes) == list(range(len(selection.themes)))
    assert all(t.label and t.terms for t in selection.themes)
    assert sorted(selection.reading_order) == sorted(p.record.id for p in selection.papers)


def test_the_topic_of_the_draft_wins_over_unrelated_papers(selection: Selection) -> None:
    ids = {p.record.id for p in selection.papers}
    assert {"doi:10.1000/cr.3", "doi:10.1000/cr.8"} <= ids  # the PageRank paper and graph expansion
    assert not any(i.startswith("doi:10.1000/pa.") for i in ids)  # dependency parsing is off topic


def test_cited_papers_carry_their_draft_key_and_seed_reason(selection: Selection) -> None:
    gori = selection.paper("doi:10.1000/cr.3")
    assert gori is not None and gori.draft_key == "gori2006"
    assert gori.reasons[0] == "seed: cited in the draft as \\cite{gori2006}"
    assert any(r.startswith("co-cited with") for r in gori.reasons)


def test_graph_has_every_edge_type(selection: Selection) -> None:
    graph = selection.graph
    assert DRAFT in graph
    for kind in ("cites", "draft_cites", "co_cited", "semantic"):
        assert edges_of_type(graph, kind), kind
    # The record reference cr.8 -> cr.3 is a "cites" edge.
    assert "cites" in graph.edges["doi:10.1000/cr.8", "doi:10.1000/cr.3"]["kinds"]


def test_neighbours_are_selected_papers_one_hop_away(selection: Selection) -> None:
    neighbours = selection.neighbours("doi:10.1000/cr.8")
    chosen = {p.record.id for p in selection.papers}
    assert neighbours and neighbours <= chosen and "doi:10.1000/cr.8" not in neighbours
    assert "doi:10.1000/cr.3" in neighbours
    assert selection.neighbours("not-there") == set()


def test_themes_group_papers_in_reading_order(selection: Selection) -> None:
    grouped = selection.by_theme()
    assert [t.order for t, _ in grouped] == sorted(t.order for t in selection.themes)
    position = {pid: i for i, pid in enumerate(selection.reading_order)}
    for _, papers in grouped:
        assert [position[p.record.id] for p in papers] == sorted(position[p.record.id] for p in papers)


def test_diversity_changes_the_selection(kb: KnowledgeBase, draft: DraftContext) -> None:
    focused = select_papers(draft, kb, SelectionParams(breadth=6, diversity=0.0))
    spread = select_papers(draft, kb, SelectionParams(breadth=6, diversity=1.0))
    # diversity 0: the new papers come in the order of their blended scores (the draft's own
    # citations are discussed on top of the breadth, first)
    scores = [p.score for p in focused.papers if p.draft_key is None]
    assert len(scores) == 6 and scores == sorted(scores, reverse=True)
    assert {p.record.id for p in focused.papers} != {p.record.id for p in spread.papers}


def test_hops_grow_the_graph_and_ablation_removes_edge_types(kb: KnowledgeBase, draft: DraftContext) -> None:
    no_search = SelectionParams(breadth=5, seed_hits=0, semantic_k=0)
    zero = select_papers(draft, kb, SelectionParams(breadth=5, seed_hits=0, semantic_k=0, hops=0))
    one = select_papers(draft, kb, no_search)
    two = select_papers(draft, kb, SelectionParams(breadth=5, seed_hits=0, semantic_k=0, hops=2))
    assert zero.graph.number_of_nodes() < one.graph.number_of_nodes() < two.graph.number_of_nodes()
    no_cites = select_papers(draft, kb, SelectionParams(breadth=5, edge_types=("draft_cites", "co_cited", "semantic")))
    assert not edges_of_type(no_cites.graph, "cites")
    no_semantic = select_papers(draft, kb, SelectionParams(breadth=5, edge_types=("cites", "draft_cites", "co_cited")))
    assert not edges_of_type(no_semantic.graph, "semantic")


def test_excluding_cited_papers_returns_only_new_ones(kb: KnowledgeBase, draft: DraftContext) -> None:
    fresh = select_papers(draft, kb, SelectionParams(breadth=5, include_cited=False))
    cited = {r.id for r in draft.cited.values()}
    assert not cited & {p.record.id for p in fresh.papers}
    assert all(p.draft_key is None for p in fresh.papers)


def test_srw_metrics_of_the_selection(selection: Selection) -> None:
    metrics = graph_metrics(selection.graph, [p.record.id for p in selection.papers])
    assert metrics["nodes"] == len(selection.papers) and metrics["edges"] > 0 and 0 <= metrics["clustering"] <= 1


def test_cancellation_between_steps(kb: KnowledgeBase, draft: DraftContext) -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(SelectionCancelled):
        select_papers(draft, kb, SelectionParams(breadth=5), cancel=stop)
    calls: list[float] = []

    def cancel_after_seeds(message: str, fraction: float) -> None:
        calls.append(fraction)
        stop.set()

    stop.clear()
    with pytest.raises(SelectionCancelled):
        select_papers(draft, kb, SelectionParams(breadth=5), progress=cancel_after_seeds, cancel=stop)
    assert calls


def test_draft_without_citations_still_selects(kb: KnowledgeBase) -> None:
    draft = DraftContext(title="Dependency parsing", abstract="Transition-based and graph-based dependency parsing.")
    result = select_papers(draft, kb, SelectionParams(breadth=4))
    assert len(result.papers) == 4
    assert sum(p.record.id.startswith("doi:10.1000/pa.") for p in result.papers) >= 3


def test_acl_citation_edges_join_the_graph(kb: KnowledgeBase, tmp_path: Path) -> None:
    edges = tmp_path / "citations.jsonl"
    edges.write_text(
        '{"citing": "P10-0001", "cited": "W99-0001", "sentence": "Coupling (Kessler, 1963)."}\n'
        "not json\n"
        '{"citing": "W99-0001", "cited": "W99-0001"}\n',
        encoding="utf-8",
    )
    index = AclCitationIndex.load(edges)
    assert len(index) == 1 and index.skipped == 2
    # P10-0001 is not an Anthology record of the KB; map it to the graph-expansion paper instead.
    source = AclCitationSource(index, kb, id_map={"P10-0001": "doi:10.1000/cr.8", "W99-0001": "acl:W99-0001"})
    assert source.acl_id(kb.get("doi:10.1000/cr.8")) == "P10-0001"  # type: ignore[arg-type]
    assert AclCitationSource(index, kb).references(kb.get("acl:W99-0001")) == []  # type: ignore[arg-type]
    cr8 = kb.get("doi:10.1000/cr.8")
    coupling = kb.get("acl:W99-0001")
    assert cr8 is not None and coupling is not None and acl_id_of(coupling) == "W99-0001"
    assert [r.id for r in source.cited_by(coupling)] == ["doi:10.1000/cr.8"]
    draft = DraftContext(title="Literature review writing", cited={"b": cr8}, in_kb=frozenset({"b"}))
    result = select_papers(draft, kb, SelectionParams(breadth=12, seed_hits=0, semantic_k=0),
                           sources=[*default_sources(kb), source])
    assert "acl:W99-0001" in result.graph
    assert "cites" in result.graph.edges["doi:10.1000/cr.8", "acl:W99-0001"]["kinds"]


def test_depth_reads_the_sentences_closest_to_the_draft() -> None:
    from collections import Counter

    from relatex.retrieval.communities import terms_of
    from relatex.retrieval.paper_reading import read_sentences
    from relatex.retrieval.records import PaperRecord

    record = PaperRecord(id="x", title="x", abstract="We study parsing. Citation graphs help recommendation. "
                         "Results are good. Graph expansion finds citations.")
    draft_terms = Counter(terms_of("citation graph expansion for recommendation"))
    assert read_sentences(record, draft_terms, 2) == (
        "Citation graphs help recommendation.", "Graph expansion finds citations.")
    assert read_sentences(record, draft_terms, 0) == ()
    full = record.with_changes(full_text=("Intro text about parsing.", "The citation graph expansion works."))
    assert read_sentences(full, draft_terms, 1) == ("The citation graph expansion works.",)


def test_per_section_searches_add_section_seeds(kb: KnowledgeBase) -> None:
    draft = DraftContext(title="Ranking", abstract="Document ranking with BM25.",
                         sections=(("Parsing background", "Transition-based dependency parsing with neural networks."),))
    result = select_papers(draft, kb, SelectionParams(breadth=8, per_section=True, seed_hits=3, section_hits=3))
    reasons = [r for p in result.papers for r in p.reasons]
    assert "seed: top hit for section 'Parsing background'" in reasons


def test_invalid_parameters_are_rejected() -> None:
    for bad in ({"breadth": 0}, {"diversity": 1.5}, {"hops": 3}, {"alpha": -0.1}, {"neighbour_mode": "magic"}):
        with pytest.raises(ValueError):
            SelectionParams(**bad)  # type: ignore[arg-type]


def test_empty_draft_gives_an_empty_selection(kb: KnowledgeBase) -> None:
    result = select_papers(DraftContext(), kb, SelectionParams(breadth=5))
    assert result.papers == () and result.themes == () and result.reading_order == ()


def test_relevance_floor_keeps_only_papers_close_to_the_draft() -> None:
    from relatex.retrieval.expansion import Candidate
    from relatex.retrieval.selection import SelectionParams, earned

    pool = [Candidate(f"p{i}", 1.0 - i / 10, relevance, 0.0) for i, relevance in
            enumerate([0.9, 0.8, 0.7, 0.3, 0.2, 0.1, 0.05])]
    params = SelectionParams(relevance_floor=0.5, min_breadth=2)
    assert [c.id for c in earned(pool, {}, params)] == ["p0", "p1", "p2"]
    assert [c.id for c in earned(pool, {"p6": "seed"}, params)] == ["p0", "p1", "p2", "p6"]  # cited: always
    assert len(earned(pool, {}, SelectionParams())) == len(pool)  # floor off by default
    linked = [*pool[:6], replace(pool[6], links=2)]
    exempt = replace(params, floor_exempt_links=2)
    assert [c.id for c in earned(linked, {}, exempt)] == ["p0", "p1", "p2", "p6"]  # joined to two seeds
    assert [c.id for c in earned(linked, {}, replace(exempt, floor_exempt_links=3))] == ["p0", "p1", "p2"]
    assert [c.id for c in earned(linked, {}, params)] == ["p0", "p1", "p2"]  # no exemption by default


def test_front_matter_is_never_selected(tmp_path: Path) -> None:
    from relatex.retrieval.records import PaperRecord

    base = build_kb(tmp_path / "kb")
    try:
        paper = base.get_many(["doi:10.1000/cr.3"])["doi:10.1000/cr.3"]
        base.add_records([PaperRecord(id="doi:10.1/front", title=f"Proceedings of the Workshop on {paper.title}",
                                      abstract=f"In this volume: {paper.abstract}", year=2021)])
        project = load_project(DRAFT_TEX)
        context = draft_context(project, load_bibliographies(project), base)
        every = SelectionParams(breadth=40, depth=2, hops=1, diversity=0.0)  # room for every paper of the base
        chosen = {p.record.id for p in select_papers(context, base, every).papers}
        assert paper.id in chosen and "doi:10.1/front" not in chosen
    finally:
        base.close()


def test_the_drafts_own_record_is_never_its_related_work(tmp_path: Path) -> None:
    """The knowledge base holds the draft itself (its preprint, cited by a later paper): it is
    neither selected nor in the graph, so no paper comes in through it; a draft that cites a
    record of the same title (its conference version) still discusses it."""
    from relatex.retrieval.records import PaperRecord

    base = build_kb(tmp_path / "kb")
    try:
        title = "Graph-Based Expansion for Citation Recommendation in Drafts"
        abstract = "We recommend citations for a draft by expanding its references along the citation graph."
        own = PaperRecord(id="doi:10.1/own", title=title, abstract=abstract, year=2021)
        later = PaperRecord(id="doi:10.1/later", title="Follow-up on draft citation graphs",
                            abstract="We extend graph-based citation recommendation for drafts.", year=2023,
                            references=("doi:10.1/own",))
        base.add_records([own, later])
        draft = DraftContext(title=title.upper() + ".", abstract=abstract)
        every = SelectionParams(breadth=40, depth=2, hops=1, diversity=0.0)
        result = select_papers(draft, base, every)
        chosen = {p.record.id for p in result.papers}
        assert "doi:10.1/own" not in chosen and "doi:10.1/own" not in result.graph
        assert all("doi:10.1/own" not in str(p.reasons) for p in result.papers)
        assert len(chosen) > 5  # the rest of the knowledge base is still there
        cites_it = DraftContext(title=title, abstract=abstract, cited={"own": own}, in_kb=frozenset({"own"}))
        assert "doi:10.1/own" in {p.record.id for p in select_papers(cites_it, base, every).papers}
    finally:
        base.close()


def test_papers_linked_to_two_seeds_pass_the_relevance_floor(kb: KnowledgeBase) -> None:
    """A parsing draft that cites two citation-recommendation papers: cr.4, which both of them cite,
    is far from the draft's text, so the floor drops it unless its citation links exempt it."""
    cited = kb.get_many(["doi:10.1000/cr.6", "doi:10.1000/cr.8"])
    draft = DraftContext(title="Dependency parsing", abstract="Transition-based and graph-based dependency parsing.",
                         cited={"g": cited["doi:10.1000/cr.6"], "w": cited["doi:10.1000/cr.8"]},
                         in_kb=frozenset({"g", "w"}))
    base = SelectionParams(breadth=10, seed_hits=3, relevance_floor=0.8, min_breadth=2)

    def chosen(links: int) -> set[str]:
        result = select_papers(draft, kb, replace(base, floor_exempt_links=links))
        return {p.record.id for p in result.papers if p.draft_key is None}

    assert "doi:10.1000/cr.4" not in chosen(0)
    # cr.4 is cited by both cited papers; pa.2 by the parsing papers that the search found (seeds too)
    assert chosen(2) - chosen(0) == {"doi:10.1000/cr.4", "doi:10.1000/pa.2"}
    assert chosen(4) == chosen(0)  # no paper is joined to four seeds


def test_seed_links_count_distinct_seeds_joined_by_citation_edges() -> None:
    import networkx as nx

    from relatex.retrieval.expansion import Expansion, seed_links

    graph = nx.DiGraph()
    graph.add_edge("s1", "far", kinds={"cites": 1.0})
    graph.add_edge("far", "s2", kinds={"cites": 1.0})  # cited by a seed or citing one: both count
    graph.add_edge("s1", "near", kinds={"semantic": 0.9})  # a semantic edge is no link
    graph.add_edge("other", "far", kinds={"cites": 1.0})  # a non-seed is no link
    links = seed_links(Expansion(graph=graph, draft_vector=None, seeds={"s1": 1.0, "s2": 0.5}))
    assert links["far"] == 2 and "near" not in links and "other" not in links
    with pytest.raises(ValueError, match="floor_exempt_links"):
        SelectionParams(floor_exempt_links=-1)


def test_without_citation_edges_the_score_takes_its_own_alpha() -> None:
    """Where no citation edge joins two papers, PageRank is only the seeds' restart weights: the
    score blends them at ``alpha_without_citations``; one citation edge brings back ``alpha``."""
    import networkx as nx

    from relatex.retrieval.citation_graph import walks_between_papers
    from relatex.retrieval.expansion import Expansion, rank_candidates

    graph = nx.DiGraph()
    graph.add_nodes_from(["draft", "hit", "close", "other"])
    graph.add_edge("draft", "hit", kinds={"draft_cites": 1.0})  # the draft node is no paper
    graph.add_edge("hit", "close", kinds={"semantic": 0.9})  # semantic edges are not walked
    exp = Expansion(graph=graph, draft_vector=None, seeds={"hit": 1.0, "close": 0.25},
                    relevance={"hit": 0.2, "close": 0.6, "other": 0.1})
    walked = ("cites", "draft_cites", "co_cited")
    assert not walks_between_papers(graph, walked)
    scores = {c.id: c.score for c in rank_candidates(exp, 0.3, walked, (), 0.7)}
    assert scores == pytest.approx({"hit": 0.7 * 0.2 + 0.3 * 1.0, "close": 0.7 * 0.6 + 0.3 * 0.25, "other": 0.07})
    assert [c.id for c in rank_candidates(exp, 0.3, walked)][:2] == ["hit", "close"]  # alpha 0.3 throughout
    graph.add_edge("close", "other", kinds={"cites": 1.0})
    assert walks_between_papers(graph, walked)
    with_edge = {c.id: c for c in rank_candidates(exp, 0.3, walked, (), 0.7)}
    assert with_edge["close"].score == pytest.approx(0.3 * 0.6 + 0.7 * with_edge["close"].centrality)
    with pytest.raises(ValueError, match="alpha_without_citations"):
        SelectionParams(alpha_without_citations=1.5)


def test_a_paper_and_its_later_version_are_cited_once(tmp_path: Path) -> None:
    """A republication (SIGIR's reprint of a 2005 paper in 2018) or a journal version with the same
    title and first author is the same work: the section cites the more cited or earlier version
    once, or the one the draft cites."""
    from relatex.retrieval.records import PaperRecord

    base = build_kb(tmp_path / "kb")
    try:
        paper = base.get_many(["doi:10.1000/cr.2"])["doi:10.1000/cr.2"]  # a paper the draft does not cite
        reprint = replace(paper, id="doi:10.1/reprint", doi="10.1/reprint", year=(paper.year or 2000) + 13)
        base.add_records([reprint])
        project = load_project(DRAFT_TEX)
        context = draft_context(project, load_bibliographies(project), base)
        every = SelectionParams(breadth=40, depth=2, hops=1, diversity=0.0)
        chosen = {p.record.id for p in select_papers(context, base, every).papers}
        assert paper.id in chosen and reprint.id not in chosen
        cites_reprint = replace(context, cited={**context.cited, "reprint": reprint},
                                in_kb=context.in_kb | {"reprint"})
        chosen = {p.record.id for p in select_papers(cites_reprint, base, every).papers}
        assert reprint.id in chosen and paper.id not in chosen
        other = PaperRecord(id="doi:10.1/other", title=paper.title, authors=("Someone Else",), year=2023,
                            abstract=paper.abstract)
        base.add_records([other])
        assert other.id in {p.record.id for p in select_papers(context, base, every).papers}  # another work
    finally:
        base.close()
