"""Choosing the papers of a related-work section: expansion, ranking, MMR, layers, themes.

:func:`select_papers` is the one entry point. It takes the draft (:class:`DraftContext`), the
knowledge base and the knobs of :class:`SelectionParams` (Citegeist's breadth / depth /
diversity, plus the number of citation hops) and returns a :class:`Selection`: the chosen
papers with their scores, SurveyG layer and theme, the themes themselves, a Graph-Ci
reading order and the citation graph they were chosen from.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np

from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.retrieval.citation_graph import ReferenceIndex, undirected_view
from relatex.retrieval.communities import detect_communities, terms_of
from relatex.retrieval.dedup import one_version_each
from relatex.retrieval.draft import DraftContext
from relatex.retrieval.expansion import Candidate, Expansion, ExpansionCancelled, expand, rank_candidates
from relatex.retrieval.layers import LAYER_RANK, assign_layers
from relatex.retrieval.mmr import mmr_select
from relatex.retrieval.neighbour_sources import NeighbourSource, RecordReferences, build_citing_index
from relatex.retrieval.paper_fit import PaperFit
from relatex.retrieval.paper_reading import read_sentences
from relatex.retrieval.reading_order import reading_order
from relatex.retrieval.records import PaperRecord, is_front_matter
from relatex.retrieval.theme_labels import label_communities

if TYPE_CHECKING:
    from relatex.retrieval.online_expansion import OnlineExpander

log = logging.getLogger(__name__)

Progress = Callable[[str, float], None]

LAYERS = ("foundation", "development", "frontier")


class SelectionCancelled(Exception):
    """Raised when the cancellation token fires between two steps of the selection."""


@dataclass(frozen=True)
class SelectionParams:
    """The knobs of the selection.

    ``breadth``: new papers kept (``breadth * candidate_factor`` candidates are considered; papers the
    draft already cites come on top). ``relevance_floor`` and ``min_breadth``: see :func:`earned`.
    ``depth``: abstract sentences (or full-text sentences when present) read per paper.
    ``diversity``: the MMR weight ``w`` (0 = relevance only, 1 = diversity only).
    ``hops``: citation hops expanded from the seeds (0, 1 or 2).
    ``landmark_year``: first year of the frontier layer (0 = the 75th percentile year).
    ``alpha``: weight of relevance against personalised PageRank in the candidate score;
    ``alpha_without_citations`` replaces it where no citation edge joins two candidates (the PageRank
    is then only the seeds' restart weights, their search ranks).
    ``cited_weight``: share of "similar to the papers the draft already cites" in the relevance
    (see ``relatex.retrieval.expansion.relevance_scores``); the draft vector also moves that far towards their centroid.
    ``edge_types`` builds the graph; ``ppr_edge_types`` are the ones PageRank walks (semantic
    edges only bring candidates: walking them lowered recall in the benchmarks).
    """

    breadth: int = 30
    depth: int = 3
    diversity: float = 0.3
    hops: int = 1
    landmark_year: int = 0
    alpha: float = 0.3  # kept: the development halves pull apart (ACL 0.0, ACM-CR 0.9; bench/graph_expansion.py)
    alpha_without_citations: float | None = None  # None: ``alpha``; the product's 0.7 comes from settings
    cited_weight: float = 0.65  # the best mean recall over the seeded dev halves (bench/section_quality.py --cited-weights)
    candidate_factor: int = 3
    seed_hits: int = 20
    per_section: bool = False
    section_hits: int = 5
    include_cited: bool = True
    edge_types: tuple[str, ...] = ("cites", "draft_cites", "co_cited", "semantic")
    ppr_edge_types: tuple[str, ...] = ("cites", "draft_cites", "co_cited")  # semantic edges only add candidates
    semantic_k: int = 5
    semantic_seeds: int = 10  # besides the cited papers, the top search hits whose neighbours are added
    max_neighbour_searches: int = 25  # caps the similarity searches (cited papers first), for latency
    neighbour_mode: str = "hybrid"  # "hybrid": search with the paper's text; "vector": nearest vectors
    semantic_threshold: float = 0.5
    foundation_k: int = 0  # 0: a quarter of breadth
    max_neighbours: int = 200  # per node and hop, caps the fan-out of highly cited papers
    frontier_limit: int = 60  # papers expanded at the second hop (most relevant first)
    community_resolution: float = 1.0
    random_seed: int = 0
    online_budget_s: float = 20.0
    relevance_floor: float = 0.0  # share of the best candidate's relevance a paper needs (0: off)
    min_breadth: int = 5  # papers kept whatever the floor
    floor_exempt_links: int = 0  # a paper joined to this many seeds by citation edges passes the floor (0: off)
    citation_model: bool = False  # text relevance by the citation model's vector of the draft text
    paper_fit_weight: float = 0.3  # share of the paper fit in relevance, when one is given (retrieval/paper_fit.py)

    def __post_init__(self) -> None:
        if self.breadth < 1:
            raise ValueError("breadth must be at least 1")
        if self.depth < 0:
            raise ValueError("depth must not be negative")
        if not 0.0 <= self.diversity <= 1.0:
            raise ValueError("diversity must lie in [0, 1]")
        if self.hops not in (0, 1, 2):
            raise ValueError("hops must be 0, 1 or 2")
        blends = (self.alpha, self.paper_fit_weight, self.alpha_without_citations)
        if not all(0.0 <= v <= 1.0 for v in blends if v is not None):
            raise ValueError("alpha, alpha_without_citations and paper_fit_weight must lie in [0, 1]")
        if not 0.0 <= self.relevance_floor < 1.0:
            raise ValueError("relevance_floor must lie in [0, 1)")
        if self.floor_exempt_links < 0:
            raise ValueError("floor_exempt_links must not be negative")
        if self.neighbour_mode not in ("hybrid", "vector"):
            raise ValueError("neighbour_mode must be 'hybrid' or 'vector'")


@dataclass(frozen=True)
class SelectedPaper:
    """One chosen paper and why it was chosen.

    ``score`` is the blended candidate score, ``relevance`` the cosine to the draft,
    ``centrality`` the personalised PageRank (normalised to [0, 1]); ``reasons`` are short
    human-readable explanations ("seed", "cited by X", "co-cited with Y", "similar to Z").
    """

    record: PaperRecord
    score: float
    relevance: float
    centrality: float
    layer: str  # "foundation" | "development" | "frontier"
    theme: int
    reasons: tuple[str, ...] = ()
    draft_key: str | None = None  # the draft's existing \cite key if already cited
    read_sentences: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.record.id


@dataclass(frozen=True)
class Theme:
    """A community of the selected papers, labelled by its most distinctive terms."""

    id: int
    label: str
    terms: tuple[str, ...]
    paper_ids: tuple[str, ...]
    order: int


@dataclass(frozen=True)
class Selection:
    """The result of :func:`select_papers`."""

    papers: tuple[SelectedPaper, ...]
    themes: tuple[Theme, ...]
    reading_order: tuple[str, ...]
    graph: nx.DiGraph
    stats: Mapping[str, Any] = field(default_factory=dict)

    def paper(self, paper_id: str) -> SelectedPaper | None:
        for item in self.papers:
            if item.record.id == paper_id:
                return item
        return None

    def neighbours(self, paper_id: str) -> set[str]:
        """Selected papers one hop from ``paper_id`` in the graph (either direction, no draft)."""
        chosen = {p.record.id for p in self.papers}
        if paper_id not in self.graph:
            return set()
        around = set(self.graph.successors(paper_id)) | set(self.graph.predecessors(paper_id))
        return {n for n in around if n in chosen and n != paper_id}

    def by_theme(self) -> list[tuple[Theme, list[SelectedPaper]]]:
        """Themes in their order, each with its papers in reading order."""
        position = {pid: i for i, pid in enumerate(self.reading_order)}
        out: list[tuple[Theme, list[SelectedPaper]]] = []
        for theme in sorted(self.themes, key=lambda t: t.order):
            members = [p for p in self.papers if p.theme == theme.id]
            members.sort(key=lambda p: position.get(p.record.id, len(position)))
            out.append((theme, members))
        return out


def ppr_types(params: SelectionParams) -> tuple[str, ...]:
    """The edge types the personalised PageRank walks: enabled and meant for ranking."""
    return tuple(e for e in params.edge_types if e in params.ppr_edge_types)


def default_sources(kb: Any, citing: bool = True) -> list[NeighbourSource]:
    """The local citation source: record references resolved through the knowledge base, and
    (``citing``) the reverse direction from one cached scan of the knowledge base."""
    return [RecordReferences(ReferenceIndex(kb), build_citing_index(kb) if citing else None)]


def _short_name(graph: nx.DiGraph, node: str, cited_ids: Mapping[str, str]) -> str:
    if node in cited_ids:
        return f"\\cite{{{cited_ids[node]}}}"
    record: PaperRecord | None = graph.nodes[node].get("record") if node in graph else None
    if record is None:
        return node
    name = record.first_author_surname() or record.title[:40]
    return f"{name} {record.year}" if record.year else name


def explain(graph: nx.DiGraph, node: str, cited_ids: Mapping[str, str], limit: int = 4) -> tuple[str, ...]:
    """Why a paper is in the graph, in words, most telling first: seed or search hit,
    co-cited with Y, cited by X / cites X, similar to Z."""
    seeds: list[str] = []
    links: list[str] = []
    similar: list[str] = []
    for kind, other in graph.nodes[node].get("reasons", []):
        if kind == "seed":
            seeds.append(f"seed: cited in the draft as \\cite{{{other}}}")
        elif kind == "search":
            seeds.append("seed: top hit for the abstract" if other == "abstract" else f"seed: top hit for section '{other}'")
        elif kind == "cited_by":
            links.append(f"cited by {_short_name(graph, other, cited_ids)}")
        elif kind == "cites":
            links.append(f"cites {_short_name(graph, other, cited_ids)}")
        elif kind == "similar":
            similar.append(f"similar to {_short_name(graph, other, cited_ids)}")
    co = [v for _, v, d in graph.out_edges(node, data=True) if "co_cited" in d["kinds"]]
    co += [u for u, _, d in graph.in_edges(node, data=True) if "co_cited" in d["kinds"]]
    co_cited = [f"co-cited with {_short_name(graph, other, cited_ids)}" for other in co[:2]]
    return tuple(dict.fromkeys(seeds + co_cited + links + similar))[:limit]


def earned(pool: Sequence[Any], cited: Mapping[str, str], params: SelectionParams) -> list[Any]:
    """The candidates that earn a citation: relevance at least ``relevance_floor`` times the best
    candidate's (so the breadth adapts to how many papers are close to the draft), never fewer
    than ``min_breadth``; papers the draft already cites are always kept, and so are papers that
    cite or are cited by at least ``floor_exempt_links`` seeds (when that is above 0): the citation
    graph finds references whose text is far from the draft's."""
    if params.relevance_floor <= 0 or not pool:
        return list(pool)
    floor = params.relevance_floor * max(c.relevance for c in pool)
    links = params.floor_exempt_links or float("inf")  # 0: no exemption
    return [c for i, c in enumerate(pool) if c.id in cited or c.relevance >= floor or i < params.min_breadth
            or c.links >= links]


def _in_degree(graph: nx.DiGraph) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, v, data in graph.edges(data=True):
        if "cites" in data["kinds"] or "draft_cites" in data["kinds"]:
            out[v] = out.get(v, 0) + 1
    return out


def _check(cancel: Cancel) -> None:
    if is_cancelled(cancel):
        raise SelectionCancelled("selection cancelled")


def _themes(exp: Expansion, params: SelectionParams, chosen: list[str], records: Mapping[str, PaperRecord],
            layers: Mapping[str, str], by_id: Mapping[str, Candidate]) -> tuple[tuple[Theme, ...], dict[str, int], list[str]]:
    """Louvain themes of the chosen papers (ordered foundation first, then by year), each paper's
    theme, and the Graph-Ci reading order from the best paper of the first theme."""
    graph = exp.graph
    theme_graph = undirected_view(graph, params.edge_types, nodes=chosen, include_draft=False)
    communities = detect_communities(theme_graph, {i: exp.vectors[i] for i in chosen if i in exp.vectors},
                                     seed=params.random_seed, resolution=params.community_resolution)
    labels = label_communities(communities, records)
    theme_of = {pid: c for c, members in enumerate(communities) for pid in members}

    def theme_key(c: int) -> tuple[float, float, int]:
        members = communities[c]
        rank = float(np.mean([LAYER_RANK[layers[m]] for m in members]))
        years = [year for m in members if (year := records[m].year)]
        return (rank, float(np.median(years)) if years else 9999.0, c)

    order_of = {c: position for position, c in enumerate(sorted(range(len(communities)), key=theme_key))}
    themes = tuple(
        Theme(id=c, label=labels[c][0], terms=labels[c][1], paper_ids=tuple(communities[c]), order=order_of[c])
        for c in range(len(communities))
    )
    first_theme = min(range(len(communities)), key=lambda c: order_of[c]) if communities else None
    start = max(communities[first_theme], key=lambda p: (by_id[p].score, p)) if first_theme is not None else None
    order = reading_order(theme_graph, start, {pid: by_id[pid].score for pid in chosen})
    return themes, theme_of, order


def _selection_stats(exp: Expansion, candidates: int, landmark: int | None, started: float) -> dict[str, Any]:
    graph = exp.graph
    return {
        "graph_nodes": graph.number_of_nodes() - 1,
        "graph_edges": graph.number_of_edges(),
        "candidates": candidates,
        "seeds": len(exp.seeds),
        "landmark_year": landmark,
        "seconds": round(time.perf_counter() - started, 3),
        "timings": {k: round(v, 3) for k, v in exp.timings.items()},
    }


def select_papers(
    draft: DraftContext,
    kb: Any,
    params: SelectionParams | None = None,
    expander: OnlineExpander | None = None,
    progress: Progress | None = None,
    cancel: Cancel = None,
    *,
    sources: Sequence[NeighbourSource] | None = None,
    paper_fit: PaperFit | None = None,
) -> Selection:
    """Choose ``params.breadth`` papers for the draft's related work.

    Steps: seeds (cited papers + hybrid hits for the abstract, and per section when asked) ->
    ``hops`` hops through the citation sources (record references, ``sources``, the online
    ``expander``) and the semantic neighbours -> candidate score
    ``alpha * relevance + (1 - alpha) * PPR`` over ``breadth * candidate_factor`` candidates ->
    MMR with weight ``diversity`` -> layers -> Louvain themes -> Graph-Ci reading order.
    Raises :class:`SelectionCancelled` when ``cancel`` fires; the knowledge base is unchanged
    except for papers the online expander found.
    """
    params = params or SelectionParams()
    started = time.perf_counter()
    chosen_sources: list[NeighbourSource] = list(sources) if sources is not None else default_sources(kb)
    if expander is not None:
        expander.begin(params.online_budget_s)
        chosen_sources.append(expander)
    try:
        exp = expand(draft, kb, params, chosen_sources, progress, cancel, paper_fit)
    except ExpansionCancelled as exc:
        raise SelectionCancelled(str(exc)) from exc
    graph = exp.graph
    _check(cancel)
    exclude = () if params.include_cited else tuple(exp.cited_ids)
    ranked = [c for c in rank_candidates(exp, params.alpha, ppr_types(params), exclude, params.alpha_without_citations)
              if c.id in exp.cited_ids or not is_front_matter(graph.nodes[c.id]["record"])]
    # a paper and its reprint or journal version: the one the literature cites
    in_degree = _in_degree(graph)
    ranked = one_version_each(ranked, lambda c: graph.nodes[c.id]["record"], exp.cited_ids, in_degree)
    pool = earned(ranked[: params.breadth * params.candidate_factor], exp.cited_ids, params)
    by_id = {c.id: c for c in pool}
    # papers the draft cites (with an abstract to discuss) do not count against the breadth
    cited_in_pool = [c.id for c in pool if c.id in exp.cited_ids and graph.nodes[c.id]["record"].abstract]
    fresh = [c for c in pool if c.id not in set(cited_in_pool)]
    chosen = cited_in_pool + mmr_select([c.id for c in fresh], {c.id: c.score for c in fresh}, exp.vectors,
                                        params.breadth, params.diversity)
    if progress:
        progress(f"kept {len(chosen)} of {len(ranked)} papers", 0.8)
    records = {pid: graph.nodes[pid]["record"] for pid in chosen}
    layers, landmark = assign_layers(records, in_degree, params.foundation_k or max(1, params.breadth // 4),
                                     params.landmark_year)
    themes, theme_of, order = _themes(exp, params, chosen, records, layers, by_id)
    draft_terms = Counter(terms_of(draft.query_text()))
    papers = tuple(
        SelectedPaper(
            record=records[pid],
            score=by_id[pid].score,
            relevance=by_id[pid].relevance,
            centrality=by_id[pid].centrality,
            layer=layers[pid],
            theme=theme_of.get(pid, 0),
            reasons=explain(graph, pid, exp.cited_ids),
            draft_key=exp.cited_ids.get(pid),
            read_sentences=read_sentences(records[pid], draft_terms, params.depth),
        )
        for pid in chosen
    )
    stats = _selection_stats(exp, len(ranked), landmark, started)
    if expander is not None:
        stats["online"] = expander.status()
        stats["online"]["added_to_kb"] = expander.finish()
    if progress:
        progress(f"{len(papers)} papers in {len(themes)} themes", 1.0)
    return Selection(papers=papers, themes=themes, reading_order=tuple(order), graph=graph, stats=stats)
