"""Growing the citation graph from the draft and ranking its papers.

Seeds are the papers the draft already cites and the top hybrid hits for its abstract (and,
with ``per_section``, for each section). From the seeds the graph grows ``hops`` citation hops
through every :class:`NeighbourSource` (record references, ACL citation edges, online
sources) plus the nearest neighbours in embedding space. Candidates are ranked by

    score = alpha * relevance + (1 - alpha) * ppr / max(ppr)

where ``relevance`` combines the paper's similarity to the draft's text, its rank in the hybrid
search and its similarity to the papers the draft cites (:func:`relevance_scores`), and ``ppr``
is the personalised PageRank from the seeds on the undirected weighted graph.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.retrieval.citation_graph import (
    DRAFT,
    ReferenceIndex,
    add_co_citation_edges,
    add_edge,
    add_paper,
    add_reason,
    add_semantic_edges,
    new_graph,
    personalised_pagerank,
    records_of,
    walks_between_papers,
)
from relatex.retrieval.draft import DraftContext
from relatex.retrieval.neighbour_sources import (
    NeighbourSource,
)
from relatex.retrieval.paper_fit import PaperFit, with_paper_fit
from relatex.retrieval.records import PaperRecord

log = logging.getLogger(__name__)

Progress = Callable[[str, float], None]


class ExpansionCancelled(Exception):
    """The cancellation token fired during expansion."""


def _check(cancel: Cancel) -> None:
    if is_cancelled(cancel):
        raise ExpansionCancelled("expansion cancelled")


@dataclass
class Expansion:
    """The grown graph, the vectors of its papers and the draft's vector."""

    graph: nx.DiGraph
    draft_vector: np.ndarray | None
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    relevance: dict[str, float] = field(default_factory=dict)
    text_vector: np.ndarray | None = None
    search_rank: dict[str, int] = field(default_factory=dict)  # best rank among the text searches
    cited_rank: dict[str, list[int]] = field(default_factory=dict)  # ranks as a neighbour of cited papers
    seeds: dict[str, float] = field(default_factory=dict)  # seed id -> personalisation weight
    cited_ids: dict[str, str] = field(default_factory=dict)  # record id -> draft key
    self_ids: set[str] = field(default_factory=set)  # records of the draft itself, kept out of the graph
    timings: dict[str, float] = field(default_factory=dict)


def _vectors_for(kb: Any, records: Mapping[str, PaperRecord], known: dict[str, np.ndarray]) -> None:
    """Fill ``known`` with the stored vector of each record, embedding the ones the store lacks."""
    wanted = [i for i in records if i not in known]
    if not wanted:
        return
    stored = kb.vectors(wanted) if hasattr(kb, "vectors") else {}
    for key, vec in stored.items():
        known[key] = np.asarray(vec, dtype=np.float32)
    missing = [i for i in wanted if i not in known]
    if missing:
        matrix = kb.embed([records[i].embedding_text() for i in missing])
        for key, vec in zip(missing, matrix, strict=True):
            known[key] = np.asarray(vec, dtype=np.float32)


def _cosine(a: np.ndarray | None, b: np.ndarray) -> float:
    if a is None:
        return 0.0
    na = float(np.linalg.norm(a))
    nb = float(np.linalg.norm(b))
    if na == 0 or nb == 0:
        return 0.0
    return float(np.dot(a, b) / (na * nb))


def _text_vector(kb: Any, query: str) -> np.ndarray | None:
    """The draft text's vector by the citation model (its claim encoder), when it serves ``kb``."""
    from relatex.retrieval.rerank import citation_reranker

    reranker = citation_reranker(kb)
    return reranker.query_vector(query) if reranker is not None else None


def _add_seeds(graph: nx.DiGraph, draft: DraftContext, kb: Any, params: Any, exp: Expansion) -> None:
    use_cited = "draft_cites" in params.edge_types
    for key, record in draft.cited.items():
        exp.cited_ids.setdefault(record.id, key)
        if not use_cited:
            continue
        add_paper(graph, record, hop=0, seed=True)
        graph.nodes[record.id]["draft_key"] = key
        add_edge(graph, DRAFT, record.id, "draft_cites")
        add_reason(graph, record.id, "seed", key)
        exp.seeds[record.id] = 1.0
    queries: list[tuple[str, str, int]] = []
    if (query := draft.query_text()).strip():
        queries.append(("abstract", query, params.seed_hits))
    if params.per_section:
        for title, text in draft.sections:
            if text.strip():
                queries.append((title, f"{title}. {text[:1500]}", params.section_hits))
    for label, text, k in queries:
        if k <= 0:
            continue
        for rank, hit in enumerate(kb.search(text, k=k, mode="hybrid")):
            record = hit.record
            if draft.is_self(record):
                exp.self_ids.add(record.id)
                continue  # the draft's own record (a preprint) seeds nothing: its citers came after it
            new = add_paper(graph, record, hop=0, seed=True)
            if new or not graph.nodes[record.id]["reasons"]:
                add_reason(graph, record.id, "search", label)
            exp.seeds[record.id] = max(exp.seeds.get(record.id, 0.0), 1.0 / (1.0 + 0.1 * rank) * 0.5)
            exp.search_rank[record.id] = min(exp.search_rank.get(record.id, rank), rank)


def _similar(kb: Any, record: PaperRecord, exp: Expansion, params: Any) -> list[Any]:
    """The ``semantic_k`` papers most similar to ``record``: a hybrid search with its title and
    abstract (``neighbour_mode="hybrid"``) or a nearest-neighbour search on its vector."""
    k = params.semantic_k + 1
    _vectors_for(kb, {record.id: record}, exp.vectors)
    if params.neighbour_mode == "hybrid":
        # The stored vector is the embedding of exactly this text: no need to embed it again.
        hits = kb.search(record.embedding_text(), k=k, mode="hybrid", vector=exp.vectors[record.id])
    else:
        hits = kb.search_vector(exp.vectors[record.id], k=k)
    return [h for h in hits if h.record.id != record.id][: params.semantic_k]


def _blend_cited(draft: DraftContext, kb: Any, params: Any, exp: Expansion) -> None:
    """Move the draft vector towards the centroid of the papers it cites (``cited_weight``)."""
    weight = float(getattr(params, "cited_weight", 0.0))
    cited = {r.id: r for k, r in draft.cited.items() if k in draft.in_kb}
    if weight <= 0 or not cited:
        return
    _vectors_for(kb, cited, exp.vectors)
    centroid = np.mean([exp.vectors[i] for i in cited], axis=0)
    blended = centroid if exp.draft_vector is None else (1 - weight) * exp.draft_vector + weight * centroid
    norm = float(np.linalg.norm(blended))
    if norm > 0:
        exp.draft_vector = (blended / norm).astype(np.float32)


def _walk_hops(exp: Expansion, kb: Any, params: Any, active: Sequence[NeighbourSource], use_semantic: bool,
               progress: Progress | None, cancel: Cancel) -> None:
    """``params.hops`` hops out from the seeds: references and citers from ``active`` sources,
    and (first hop) the papers most similar to the cited seeds and the best search hits."""
    graph = exp.graph
    frontier = list(exp.seeds)
    hits_by_rank = sorted((i for i in exp.seeds if i in exp.search_rank), key=lambda i: exp.search_rank[i])
    cited_seeds = [i for i in exp.seeds if i in exp.cited_ids]
    neighbour_seeds = set((cited_seeds + hits_by_rank[: params.semantic_seeds])[: params.max_neighbour_searches])
    for hop in range(1, params.hops + 1):
        if hop > 1 and len(frontier) > params.frontier_limit:
            recs = {i: graph.nodes[i]["record"] for i in frontier}
            _vectors_for(kb, recs, exp.vectors)
            frontier.sort(key=lambda i: -_cosine(exp.draft_vector, exp.vectors[i]))
            frontier = frontier[: params.frontier_limit]
        new_nodes: list[str] = []
        for step, node in enumerate(frontier):
            if step % 8 == 0:
                _check(cancel)
            record: PaperRecord = graph.nodes[node]["record"]
            new_nodes.extend(_follow_sources(graph, node, record, active, hop, params.max_neighbours))
            if use_semantic and hop == 1 and params.semantic_k > 0 and node in neighbour_seeds:
                for rank, hit in enumerate(_similar(kb, record, exp, params)):
                    if add_paper(graph, hit.record, hop=hop):
                        new_nodes.append(hit.record.id)
                    add_reason(graph, hit.record.id, "similar", node)
                    if node in exp.cited_ids:
                        exp.cited_rank.setdefault(hit.record.id, []).append(rank)
        if progress:
            progress(f"hop {hop}: {graph.number_of_nodes() - 1} papers", 0.1 + 0.3 * hop / max(params.hops, 1))
        frontier = new_nodes


def _follow_sources(graph: nx.DiGraph, node: str, record: PaperRecord, active: Sequence[NeighbourSource],
                    hop: int, max_neighbours: int) -> list[str]:
    """Add the references and citers of ``record`` that the sources know; returns the new nodes."""
    new_nodes: list[str] = []
    for source in active:
        for ref in source.references(record)[:max_neighbours]:
            if add_paper(graph, ref, hop=hop):
                new_nodes.append(ref.id)
            add_edge(graph, node, ref.id, "cites")
            add_reason(graph, ref.id, "cited_by", node)
        for citer in source.cited_by(record)[:max_neighbours]:
            if add_paper(graph, citer, hop=hop):
                new_nodes.append(citer.id)
            add_edge(graph, citer.id, node, "cites")
            add_reason(graph, citer.id, "cites", node)
    return new_nodes


def _link_citations(graph: nx.DiGraph, records: dict[str, PaperRecord], kb: Any,
                    active: Sequence[NeighbourSource]) -> None:
    """Citation edges between papers already in the graph (their reference lists, cheap sources)."""
    index = ReferenceIndex()
    aliases = getattr(kb, "aliases", None)
    for paper in records.values():
        index.add_record(paper)
        if callable(aliases) and paper.source != "draft":
            for alias in aliases(paper.id):  # references may name a paper by another id
                index.add_alias(ReferenceIndex.canonical(alias), paper.id)
    for node, paper in records.items():
        for ref_id in paper.references:
            target = index.resolve_local(ref_id)
            if target is not None and target != node:
                add_edge(graph, node, target, "cites")
    for source in active:
        if source.cheap:
            for node, paper in records.items():
                for cited in source.references(paper):
                    if cited.id in graph and cited.id != node:
                        add_edge(graph, node, cited.id, "cites")


def _add_similarity_edges(exp: Expansion, records: dict[str, PaperRecord], params: Any) -> None:
    """Semantic edges between similar papers, and from the draft to the seeds close to it."""
    graph = exp.graph
    add_semantic_edges(graph, exp.vectors, k=params.semantic_k, threshold=params.semantic_threshold)
    for node in records:
        sim = _cosine(exp.draft_vector, exp.vectors[node])
        if node in exp.seeds and sim >= params.semantic_threshold:
            add_edge(graph, DRAFT, node, "semantic", sim)


def expand(
    draft: DraftContext,
    kb: Any,
    params: Any,
    sources: Sequence[NeighbourSource] = (),
    progress: Progress | None = None,
    cancel: Cancel = None,
    paper_fit: PaperFit | None = None,
) -> Expansion:
    """Build the graph around the draft: seeds, ``params.hops`` hops, co-citation and semantic edges;
    relevance with ``paper_fit`` mixed in at ``params.paper_fit_weight`` (:mod:`relatex.retrieval.paper_fit`)."""
    import time

    t0 = time.perf_counter()
    graph = new_graph()
    exp = Expansion(graph=graph, draft_vector=None)
    query = draft.query_text()
    if query.strip():
        exp.draft_vector = np.asarray(kb.embed([query])[0], dtype=np.float32)
        exp.text_vector = _text_vector(kb, query) if getattr(params, "citation_model", False) else None
        if exp.text_vector is None:
            exp.text_vector = exp.draft_vector
    _add_seeds(graph, draft, kb, params, exp)
    _blend_cited(draft, kb, params, exp)
    exp.timings["seeds"] = time.perf_counter() - t0
    if progress:
        progress(f"{len(exp.seeds)} seed papers", 0.1)
    _check(cancel)
    use_cites = "cites" in params.edge_types
    use_semantic = "semantic" in params.edge_types
    active = [s for s in sources if use_cites]
    _walk_hops(exp, kb, params, active, use_semantic, progress, cancel)
    exp.self_ids.update(n for n, data in graph.nodes(data=True) if data.get("record") is not None
                        and data["record"].source != "draft" and draft.is_self(data["record"]))
    graph.remove_nodes_from(exp.self_ids & set(graph))  # also when reached through a neighbour
    exp.timings["hops"] = time.perf_counter() - t0
    _check(cancel)
    records = records_of(graph)
    if use_cites:
        _link_citations(graph, records, kb, active)
    if "co_cited" in params.edge_types:
        groups = [(tuple(draft.cited[k].id for k in g if k in draft.cited), 1.0) for g in draft.sentence_groups]
        groups += [(tuple(draft.cited[k].id for k in g if k in draft.cited), 0.5) for g in draft.paragraph_groups]
        add_co_citation_edges(graph, groups)
    _vectors_for(kb, records, exp.vectors)
    exp.timings["vectors"] = time.perf_counter() - t0
    _check(cancel)
    if use_semantic:
        _add_similarity_edges(exp, records, params)
    exp.relevance = relevance_scores(exp, draft, params, list(records))
    if paper_fit is not None:
        exp.relevance = with_paper_fit(exp.relevance, records, query, paper_fit, getattr(params, "paper_fit_weight", 0.0))
    exp.timings["graph"] = time.perf_counter() - t0
    return exp


def relevance_scores(exp: Expansion, draft: DraftContext, params: Any, ids: Sequence[str]) -> dict[str, float]:
    """Relevance of each paper to the draft, in [0, 1]:

        text  = (cos(abstract, paper) + 1 / (1 + rank / 10)) / 2   (rank in the hybrid search, if hit)
        cited = (best cosine to a cited paper + mean over cited papers of 1 / (1 + rank / 5)) / 2
                (rank among that cited paper's most similar papers; 0 when absent)
        relevance = (1 - cited_weight) * text + cited_weight * cited   (text alone without citations)
    """
    weight = float(getattr(params, "cited_weight", 0.0))
    cited_ids = [r.id for k, r in draft.cited.items() if k in draft.in_kb and r.id in exp.vectors]
    cited_matrix = np.stack([exp.vectors[i] for i in cited_ids]) if cited_ids else None
    out: dict[str, float] = {}
    for node in ids:
        vec = exp.vectors[node]
        rank = exp.search_rank.get(node)
        search_part = 1.0 / (1.0 + rank / 10.0) if rank is not None else 0.0
        text = 0.5 * max(0.0, _cosine(exp.text_vector, vec)) + 0.5 * search_part
        if cited_matrix is None or weight <= 0:
            out[node] = text
            continue
        sims = cited_matrix @ vec
        if node in cited_ids:
            sims = np.where(np.asarray(cited_ids) == node, -1.0, sims)
        best = float(np.clip(sims.max(), 0.0, 1.0)) if len(sims) else 0.0
        votes = sum(1.0 / (1.0 + r / 5.0) for r in exp.cited_rank.get(node, ())) / len(cited_ids)
        cited = 0.5 * best + 0.5 * min(1.0, votes)
        out[node] = (1 - weight) * text + weight * cited
    return out


@dataclass(frozen=True)
class Candidate:
    """A ranked paper: blended score, relevance, normalised PageRank, and ``links``: how many of the
    expansion's seeds (cited papers and search hits) it cites or is cited by."""

    id: str
    score: float
    relevance: float
    centrality: float
    links: int = 0


def seed_links(exp: Expansion) -> dict[str, int]:
    """For each paper, the number of distinct seeds joined to it by a ``cites`` edge (either way)."""
    linked: dict[str, set[str]] = {}
    for u, v, data in exp.graph.edges(data=True):
        if "cites" not in data["kinds"]:
            continue
        if u in exp.seeds and v != u:
            linked.setdefault(v, set()).add(u)
        if v in exp.seeds and v != u:
            linked.setdefault(u, set()).add(v)
    return {node: len(seeds) for node, seeds in linked.items()}


def rank_candidates(
    exp: Expansion,
    alpha: float,
    edge_types: Sequence[str],
    exclude: Sequence[str] = (),
    alpha_without_citations: float | None = None,
) -> list[Candidate]:
    """Every paper of the graph, best first, by ``alpha * relevance + (1 - alpha) * ppr_norm``;
    ``alpha_without_citations`` (when given) is the alpha where no walked edge joins two papers."""
    ppr = personalised_pagerank(exp.graph, exp.seeds, edge_types)
    if alpha_without_citations is not None and not walks_between_papers(exp.graph, edge_types):
        alpha = alpha_without_citations
    skip = set(exclude)
    ids = [n for n in exp.relevance if n not in skip]
    top = max((ppr.get(n, 0.0) for n in ids), default=0.0)
    links = seed_links(exp)
    out = []
    for node in ids:
        centrality = ppr.get(node, 0.0) / top if top > 0 else 0.0
        rel = exp.relevance[node]
        out.append(Candidate(node, alpha * rel + (1 - alpha) * centrality, rel, centrality, links.get(node, 0)))
    out.sort(key=lambda c: (-c.score, c.id))
    return out
