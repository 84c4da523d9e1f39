"""The order in which the writer reads the selected papers (SRW's Graph-Ci selector).

From the current paper the reader continues with the most relevant unread paper among its
one-hop neighbours (edges in either direction); only when that neighbourhood is exhausted does
it jump to the most relevant unread paper anywhere. Consecutive papers are therefore related,
which keeps the written paragraphs coherent.
"""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx


def reading_order(graph: nx.Graph | nx.DiGraph, start: str | None, relevance: Mapping[str, float]) -> list[str]:
    """Every id of ``relevance`` once, Graph-Ci order from ``start`` (default: the most relevant).

    Ties in relevance are broken by id, so the order is deterministic. Nodes of the graph that
    are not in ``relevance`` are neither visited nor walked through.
    """
    pending = set(relevance)
    if not pending:
        return []

    def best(options: set[str]) -> str:
        return min(options, key=lambda n: (-relevance[n], n))

    current = start if start in pending else best(pending)
    order = [current]
    pending.discard(current)
    directed = graph.is_directed()
    while pending:
        around: set[str] = set()
        if current in graph:
            around = set(graph.successors(current)) | set(graph.predecessors(current)) if directed else set(
                graph.neighbors(current)
            )
        options = around & pending
        current = best(options) if options else best(pending)
        order.append(current)
        pending.discard(current)
    return order
