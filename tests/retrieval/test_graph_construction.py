"""Graph construction: typed weighted edges from each source, views and SRW metrics."""

from __future__ import annotations

import numpy as np
import pytest

from relatex.retrieval.citation_graph import (
    DRAFT,
    ReferenceIndex,
    add_co_citation_edges,
    add_edge,
    add_paper,
    add_record_citations,
    add_semantic_edges,
    edges_of_type,
    graph_metrics,
    new_graph,
    undirected_view,
)
from relatex.retrieval.records import PaperRecord


def _rec(pid: str, refs: tuple[str, ...] = (), doi: str | None = None, arxiv: str | None = None) -> PaperRecord:
    return PaperRecord(id=pid, title=pid, references=refs, doi=doi, arxiv_id=arxiv)


def test_edges_are_typed_and_accumulate_kinds() -> None:
    g = new_graph()
    for pid in "abc":
        add_paper(g, _rec(pid), hop=0)
    add_edge(g, DRAFT, "a", "draft_cites")
    add_edge(g, "a", "b", "cites")
    add_edge(g, "b", "a", "semantic", 0.7)  # symmetric: merged onto the existing a->b edge
    add_edge(g, "a", "b", "semantic", 0.6)  # keeps the larger weight
    assert g.edges["a", "b"]["kinds"] == {"cites": 1.0, "semantic": 0.7}
    assert g.edges["a", "b"]["weight"] == pytest.approx(1.7)
    assert not g.has_edge("b", "a")
    add_edge(g, "c", "c", "cites")  # self loops are ignored
    assert not g.has_edge("c", "c")
    with pytest.raises(ValueError):
        add_edge(g, "a", "c", "likes")


def test_add_paper_keeps_smallest_hop_and_seed_flag() -> None:
    g = new_graph()
    assert add_paper(g, _rec("a"), hop=2)
    assert not add_paper(g, _rec("a"), hop=1, seed=True)
    assert g.nodes["a"]["hop"] == 1 and g.nodes["a"]["seed"] is True


def test_record_references_resolve_by_id_doi_and_arxiv() -> None:
    g = new_graph()
    papers = [
        _rec("x", refs=("doi:10.1/ABC", "https://arxiv.org/abs/2101.00001v2", "openalex:W1", "unknown:9")),
        _rec("doi:10.1/abc", doi="10.1/abc"),
        _rec("arxiv:2101.00001", arxiv="2101.00001"),
        _rec("openalex:W1"),
    ]
    index = ReferenceIndex()
    for record in papers:
        add_paper(g, record, hop=0)
        index.add_record(record)
    assert add_record_citations(g, index) == 3
    assert sorted(v for _, v, _ in edges_of_type(g, "cites")) == ["arxiv:2101.00001", "doi:10.1/abc", "openalex:W1"]


def test_reference_index_canonical_forms() -> None:
    assert ReferenceIndex.canonical("https://doi.org/10.1145/XYZ") == "doi:10.1145/xyz"
    assert ReferenceIndex.canonical("arXiv:1706.03762v5") == "arxiv:1706.03762"
    assert ReferenceIndex.canonical("https://openalex.org/W2741809807") == "openalex:w2741809807"


def test_co_citation_edges_are_weighted_by_scope() -> None:
    g = new_graph()
    for pid in "abcd":
        add_paper(g, _rec(pid), hop=0)
    added = add_co_citation_edges(g, [(("a", "b", "c"), 1.0), (("c", "d", "missing"), 0.5)])
    assert added == 4
    weights = {frozenset((u, v)): w for u, v, w in edges_of_type(g, "co_cited")}
    assert weights == {frozenset("ab"): 1.0, frozenset("ac"): 1.0, frozenset("bc"): 1.0, frozenset("cd"): 0.5}


def test_semantic_edges_link_nearest_neighbours_above_threshold() -> None:
    g = new_graph()
    vectors = {
        "a": np.array([1.0, 0.0, 0.0], dtype=np.float32),
        "b": np.array([0.9, 0.43589, 0.0], dtype=np.float32),
        "c": np.array([0.0, 0.0, 1.0], dtype=np.float32),
    }
    for pid in vectors:
        add_paper(g, _rec(pid), hop=0)
    add_semantic_edges(g, vectors, k=1, threshold=0.5, block=2)  # blocks smaller than n
    edges = edges_of_type(g, "semantic")
    assert len(edges) == 1
    u, v, w = edges[0]
    assert {u, v} == {"a", "b"} and w == pytest.approx(0.9, abs=1e-4)


def test_undirected_view_filters_types_and_metrics() -> None:
    g = new_graph()
    for pid in "abcd":
        add_paper(g, _rec(pid), hop=0)
    add_edge(g, DRAFT, "a", "draft_cites")
    add_edge(g, "a", "b", "cites")
    add_edge(g, "b", "a", "cites")
    add_edge(g, "b", "c", "semantic", 0.8)
    add_edge(g, "a", "c", "co_cited", 1.0)
    view = undirected_view(g, ["cites"], include_draft=False)
    assert view.number_of_edges() == 1 and view.edges["a", "b"]["weight"] == 2.0
    metrics = graph_metrics(g, ["a", "b", "c", "d"])
    assert metrics["edges"] == 3.0 and metrics["nodes"] == 4.0
    assert metrics["avg_degree"] == pytest.approx(1.5)
    assert metrics["clustering"] == pytest.approx(0.75)  # a, b, c form a triangle; d is isolated


def test_personalised_pagerank_matches_the_reference_implementation() -> None:
    import networkx as nx
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

    from relatex.retrieval.citation_graph import pagerank_vector

    graph = nx.Graph()
    graph.add_weighted_edges_from([("a", "b", 1.0), ("b", "c", 2.0), ("c", "a", 0.5), ("c", "d", 1.0)])
    graph.add_node("e")  # dangling
    personal = {"a": 1.0, "e": 0.5}
    expected = _pagerank_python(graph, alpha=0.85, personalization=personal, weight="weight", tol=1e-12,
                                max_iter=500, dangling=personal)
    got = pagerank_vector(list(graph.nodes), [(u, v, d["weight"]) for u, v, d in graph.edges(data=True)],
                          personal, iterations=500, tol=1e-12)
    for node, value in expected.items():
        assert got[node] == pytest.approx(value, abs=1e-6)


def test_reference_aliases_resolve_through_the_knowledge_base() -> None:
    class AliasOnlyKb:
        def find_by_doi(self, doi: str) -> None:
            return None

        def find_by_arxiv(self, arxiv_id: str) -> None:
            return None

        def resolve(self, identifier: str) -> PaperRecord | None:
            return _rec("doi:10.9/x", doi="10.9/x") if identifier == "openalex:W42" else None

    index = ReferenceIndex(AliasOnlyKb())
    found = index.resolve_record("https://openalex.org/W42".replace("https://openalex.org/", "openalex:"))
    assert found is not None and found.id == "doi:10.9/x"
    assert index.resolve_local("doi:10.9/X") == "doi:10.9/x"  # remembered under its DOI
    assert index.resolve_record("openalex:W7") is None
