"""The citation graph: papers as nodes, typed and weighted edges, and the draft as node "draft".

Edge types (attribute ``kinds``: type -> weight; ``weight`` is their sum):

- ``cites``: paper u cites paper v (from ``PaperRecord.references``, ACL citation edges or
  online sources), weight 1.
- ``draft_cites``: the draft cites v (its ``\\cite`` keys resolved to records), weight 1.
- ``co_cited``: u and v are cited together by the draft in one sentence (1.0) or one
  paragraph (0.5), as in SRW's co-occurrence graph. Stored once per pair (``u < v``).
- ``semantic``: cosine similarity of the two embeddings, kept for the ``k`` nearest
  neighbours above a threshold (SurveyG eq. 1). Stored once per pair.

Node attributes: ``record`` (PaperRecord, absent for the draft), ``seed`` (bool),
``hop`` (0 for seeds), ``draft_key`` and ``reasons`` (list of (kind, other id)).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import networkx as nx
import numpy as np

from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi

DRAFT = "draft"
EDGE_TYPES = ("cites", "draft_cites", "co_cited", "semantic")
SYMMETRIC = frozenset({"co_cited", "semantic"})


def new_graph() -> nx.DiGraph:
    """An empty graph holding only the draft node."""
    graph = nx.DiGraph()
    graph.add_node(DRAFT, record=None, seed=False, hop=-1, reasons=[])
    return graph


def add_paper(graph: nx.DiGraph, record: PaperRecord, *, hop: int, seed: bool = False) -> bool:
    """Add (or refresh) a paper node; True when it is new. Keeps the smallest hop seen."""
    if record.id in graph:
        data = graph.nodes[record.id]
        data["hop"] = min(data.get("hop", hop), hop)
        data["seed"] = data.get("seed", False) or seed
        if data.get("record") is None:
            data["record"] = record
        return False
    graph.add_node(record.id, record=record, seed=seed, hop=hop, reasons=[])
    return True


def add_edge(graph: nx.DiGraph, u: str, v: str, kind: str, weight: float = 1.0) -> None:
    """Add a typed edge; repeated types keep the larger weight, types accumulate."""
    if kind not in EDGE_TYPES:
        raise ValueError(f"unknown edge type {kind!r}")
    if u == v:
        return
    if kind in SYMMETRIC and graph.has_edge(v, u) and not graph.has_edge(u, v):
        u, v = v, u
    if graph.has_edge(u, v):
        kinds: dict[str, float] = graph.edges[u, v]["kinds"]
        kinds[kind] = max(kinds.get(kind, 0.0), float(weight))
        graph.edges[u, v]["weight"] = sum(kinds.values())
    else:
        graph.add_edge(u, v, kinds={kind: float(weight)}, weight=float(weight))


def add_reason(graph: nx.DiGraph, node: str, kind: str, other: str) -> None:
    """Remember why a node entered the graph (shown to the user)."""
    reasons: list[tuple[str, str]] = graph.nodes[node].setdefault("reasons", [])
    if (kind, other) not in reasons:
        reasons.append((kind, other))


def records_of(graph: nx.DiGraph) -> dict[str, PaperRecord]:
    """Every paper node's record."""
    return {n: d["record"] for n, d in graph.nodes(data=True) if d.get("record") is not None}


def edges_of_type(graph: nx.DiGraph, kind: str) -> list[tuple[str, str, float]]:
    return [(u, v, d["kinds"][kind]) for u, v, d in graph.edges(data=True) if kind in d["kinds"]]


def undirected_view(
    graph: nx.DiGraph,
    edge_types: Collection[str] = EDGE_TYPES,
    nodes: Collection[str] | None = None,
    include_draft: bool = True,
) -> nx.Graph:
    """An undirected weighted graph over the chosen edge types (weights of both directions summed)."""
    keep = set(graph.nodes) if nodes is None else set(nodes)
    if not include_draft:
        keep.discard(DRAFT)
    out = nx.Graph()
    out.add_nodes_from(n for n in graph.nodes if n in keep)
    for u, v, data in graph.edges(data=True):
        if u not in keep or v not in keep:
            continue
        w = sum(weight for kind, weight in data["kinds"].items() if kind in edge_types)
        if w <= 0:
            continue
        if out.has_edge(u, v):
            out.edges[u, v]["weight"] += w
        else:
            out.add_edge(u, v, weight=w)
    return out


class ReferenceIndex:
    """Maps the reference strings found in records (ids, DOIs, arXiv ids, aliases) to node ids.

    Resolution order: a known node id, a DOI / arXiv id of a known record, an alias
    registered with :meth:`add_alias`, then the knowledge base (``find_by_doi``,
    ``find_by_arxiv``, then ``resolve`` for ids and aliases such as ``openalex:W1``).
    """

    def __init__(self, kb: Any = None) -> None:
        self.kb = kb
        self._alias: dict[str, str] = {}
        self._kb_cache: dict[str, PaperRecord | None] = {}

    def add_record(self, record: PaperRecord) -> None:
        self._alias[record.id.lower()] = record.id
        if record.doi:
            self._alias[f"doi:{record.doi.lower()}"] = record.id
        if record.arxiv_id:
            self._alias[f"arxiv:{record.arxiv_id.lower()}"] = record.id

    def add_alias(self, alias: str, node_id: str) -> None:
        self._alias[alias.lower()] = node_id

    @staticmethod
    @functools.lru_cache(maxsize=200_000)
    def canonical(ref: str) -> str:
        """A reference string in the ``doi:`` / ``arxiv:`` / ``source:id`` form, lower case (cached)."""
        text = ref.strip()
        lowered = text.lower()
        if lowered.startswith("https://openalex.org/"):
            return "openalex:" + text.rsplit("/", 1)[-1].lower()
        if (doi := normalise_doi(text.removeprefix("doi:").removeprefix("DOI:"))) is not None:
            return f"doi:{doi}"
        if (arx := normalise_arxiv_id(text.removeprefix("arxiv:"))) is not None:
            return f"arxiv:{arx.lower()}"
        return lowered

    def resolve_local(self, ref: str) -> str | None:
        return self._alias.get(self.canonical(ref)) or self._alias.get(ref.lower())

    def resolve_record(self, ref: str) -> PaperRecord | None:
        """The knowledge-base record a reference names, or None."""
        if self.kb is None:
            return None
        key = self.canonical(ref)
        if key in self._kb_cache:
            return self._kb_cache[key]
        record: PaperRecord | None = None
        if key.startswith("doi:"):
            record = self.kb.find_by_doi(key[4:])
        elif key.startswith("arxiv:"):
            record = self.kb.find_by_arxiv(key[6:])
        if record is None:
            resolve = getattr(self.kb, "resolve", None)
            record = resolve(ref.strip()) if callable(resolve) else self.kb.get(ref)
        self._kb_cache[key] = record
        if record is not None:
            self.add_record(record)
        return record


def add_record_citations(graph: nx.DiGraph, index: ReferenceIndex) -> int:
    """Add ``cites`` edges between nodes already in the graph from their ``references``."""
    added = 0
    for node, record in records_of(graph).items():
        for ref in record.references:
            target = index.resolve_local(ref)
            if target is not None and target in graph and target != node:
                add_edge(graph, node, target, "cites")
                added += 1
    return added


def add_co_citation_edges(graph: nx.DiGraph, groups: Iterable[tuple[tuple[str, ...], float]]) -> int:
    """Add ``co_cited`` edges for each group of node ids cited together, with the group's weight."""
    added = 0
    for ids, weight in groups:
        present = [i for i in dict.fromkeys(ids) if i in graph and i != DRAFT]
        for a_index, a in enumerate(present):
            for b in present[a_index + 1:]:
                add_edge(graph, a, b, "co_cited", weight)
                added += 1
    return added


def add_semantic_edges(
    graph: nx.DiGraph,
    vectors: Mapping[str, np.ndarray],
    k: int = 5,
    threshold: float = 0.5,
    block: int = 2048,
) -> int:
    """Add ``semantic`` edges from each node to its ``k`` most similar nodes above ``threshold``.

    Vectors are L2-normalised, so the dot product is the cosine (SurveyG eq. 1). Computed in
    blocks so memory stays ``block * n``.
    """
    ids = [i for i in vectors if i in graph and i != DRAFT]
    if len(ids) < 2 or k <= 0:
        return 0
    matrix = np.stack([np.asarray(vectors[i], dtype=np.float32) for i in ids])
    kk = min(k, len(ids) - 1)
    added = 0
    for start in range(0, len(ids), block):
        sims = matrix[start:start + block] @ matrix.T
        for row in range(sims.shape[0]):
            sims[row, start + row] = -np.inf
        top = np.argpartition(-sims, kk - 1, axis=1)[:, :kk]
        for row in range(sims.shape[0]):
            for col in top[row]:
                sim = float(sims[row, col])
                if sim >= threshold:
                    add_edge(graph, ids[start + row], ids[int(col)], "semantic", sim)
                    added += 1
    return added


def graph_metrics(graph: nx.DiGraph, nodes: Collection[str], edge_types: Collection[str] = EDGE_TYPES) -> dict[str, float]:
    """SRW's metrics of a paper set: edges, mean degree and clustering coefficient among them."""
    sub = undirected_view(graph, edge_types, nodes, include_draft=False)
    n = sub.number_of_nodes()
    if n == 0:
        return {"nodes": 0.0, "edges": 0.0, "avg_degree": 0.0, "clustering": 0.0, "components": 0.0}
    return {
        "nodes": float(n),
        "edges": float(sub.number_of_edges()),
        "avg_degree": 2.0 * sub.number_of_edges() / n,
        "clustering": float(nx.average_clustering(sub)),
        "components": float(nx.number_connected_components(sub)),
    }


def pagerank_vector(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str, float]],
    personal: Mapping[str, float],
    damping: float = 0.85,
    iterations: int = 100,
    tol: float = 1e-9,
) -> dict[str, float]:
    """Personalised PageRank by power iteration over an undirected weighted edge list (numpy only).

    Dangling nodes (no edges) send their mass back to the personalisation vector.
    """
    index = {n: i for i, n in enumerate(nodes)}
    n = len(nodes)
    if n == 0:
        return {}
    p = np.zeros(n)
    for node, weight in personal.items():
        if node in index and weight > 0:
            p[index[node]] = weight
    if p.sum() == 0:
        p[:] = 1.0
    p /= p.sum()
    src = np.array([index[u] for u, v, _ in edges] + [index[v] for u, v, _ in edges], dtype=np.int64)
    dst = np.array([index[v] for u, v, _ in edges] + [index[u] for u, v, _ in edges], dtype=np.int64)
    w = np.array([w for _, _, w in edges] * 2, dtype=np.float64)
    out = np.bincount(src, weights=w, minlength=n) if len(src) else np.zeros(n)
    dangling = out == 0
    share = np.divide(w, out[src], out=np.zeros_like(w), where=out[src] > 0) if len(src) else w
    rank = p.copy()
    for _ in range(iterations):
        spread = np.bincount(dst, weights=rank[src] * share, minlength=n) if len(src) else np.zeros(n)
        new = damping * (spread + rank[dangling].sum() * p) + (1 - damping) * p
        if np.abs(new - rank).sum() < tol:
            rank = new
            break
        rank = new
    return {node: float(rank[i]) for node, i in index.items()}


def walks_between_papers(graph: nx.DiGraph, edge_types: Collection[str]) -> bool:
    """Whether an edge of ``edge_types`` joins two papers (the draft node aside): without one, the
    personalised PageRank is only its restart weights."""
    return any(DRAFT not in (u, v) and any(w > 0 for kind, w in data["kinds"].items() if kind in edge_types)
               for u, v, data in graph.edges(data=True))


def personalised_pagerank(
    graph: nx.DiGraph, seeds: Mapping[str, float], edge_types: Sequence[str], damping: float = 0.85
) -> dict[str, float]:
    """PageRank on the undirected weighted graph (draft node excluded), restarting at the seeds."""
    und = undirected_view(graph, edge_types, include_draft=False)
    if und.number_of_nodes() == 0:
        return {}
    personal = {n: w for n, w in seeds.items() if n in und and w > 0}
    if not personal or und.number_of_edges() == 0:
        return {n: personal.get(n, 0.0) for n in und.nodes}
    edges = [(u, v, float(d["weight"])) for u, v, d in und.edges(data=True)]
    return pagerank_vector(list(und.nodes), edges, personal, damping)
