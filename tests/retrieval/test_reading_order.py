"""Graph-Ci reading order: stay in the neighbourhood, jump to the most relevant when exhausted."""

from __future__ import annotations

import networkx as nx

from relatex.retrieval.reading_order import reading_order


def _graph() -> nx.DiGraph:
    g = nx.DiGraph()
    # Cluster 1: a - b - c (chain), a - d; cluster 2: e - f; g alone.
    g.add_edges_from([("a", "b"), ("c", "b"), ("a", "d"), ("e", "f")])
    g.add_node("g")
    return g


RELEVANCE = {"a": 0.9, "b": 0.5, "c": 0.4, "d": 0.6, "e": 0.8, "f": 0.3, "g": 0.7}


def test_exact_order_on_a_hand_made_graph() -> None:
    # From a: neighbours b (0.5), d (0.6) -> d. d's neighbours exhausted (a read) -> jump to the
    # most relevant unread: e (0.8). e -> f. f exhausted -> g (0.7). g alone -> b (0.5). b -> c.
    assert reading_order(_graph(), "a", RELEVANCE) == ["a", "d", "e", "f", "g", "b", "c"]


def test_default_start_is_the_most_relevant() -> None:
    assert reading_order(_graph(), None, RELEVANCE)[0] == "a"


def test_undirected_graph_and_nodes_outside_relevance() -> None:
    g = nx.Graph([("x", "y"), ("y", "z"), ("z", "w")])
    # w is not in relevance: it is neither visited nor used as a bridge.
    order = reading_order(g, "x", {"x": 0.1, "y": 0.2, "z": 0.9})
    assert order == ["x", "y", "z"]


def test_every_node_once_and_empty_input() -> None:
    order = reading_order(_graph(), "c", RELEVANCE)
    assert sorted(order) == sorted(RELEVANCE) and order[0] == "c"
    assert reading_order(_graph(), None, {}) == []
