"""Searching the knowledge base: ``relatex search`` and the knowledge-base papers offered by
completion inside ``\\cite{...}``.

The modules behind a search (the knowledge base, the citation model) are imported on first use:
the language server imports this module at start-up.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.analysis.claims.claim_support import PARTIALLY_SUPPORTED, SUPPORTED, SupportVerdict
from relatex.analysis.claims.evidence import paper_evidence
from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, UseCaseCancelled, UseCaseFailed
from relatex.workflows.kb_access import opened_knowledge_base
from relatex.workflows.progress import ProgressCallback, no_progress

if TYPE_CHECKING:
    from relatex.retrieval.indexing import SearchHit
    from relatex.retrieval.records import PaperRecord

#: The ranking modes (``relatex.retrieval.knowledge_base.SEARCH_MODES``).
SEARCH_MODES = ("hybrid", "dense", "bm25")


@dataclass(frozen=True)
class SearchRequest:
    """``rerank``: the top ``rerank_depth`` hits (None: the reranker's default) reordered by the
    citation model."""

    query: str
    k: int = 10
    mode: str = "hybrid"
    exclude: Collection[str] = ()
    rerank: bool = False
    rerank_depth: int | None = None


@dataclass(frozen=True)
class SearchResult:
    hits: tuple[SearchHit, ...]
    reranked: bool
    notes: tuple[str, ...] = ()  # e.g. why the hits were not reranked


def search(request: SearchRequest, engines: Engines, cancel: Cancel = None,
           progress: ProgressCallback = no_progress) -> SearchResult:
    """The ``k`` best papers for the query. Raises :class:`UseCaseFailed` for an empty query, an
    unknown mode or no usable knowledge base."""
    query = request.query.strip()
    if not query:
        raise UseCaseFailed("empty query", BAD_REQUEST)
    if request.mode not in SEARCH_MODES:
        raise UseCaseFailed(f"unknown search mode {request.mode!r} (one of {', '.join(SEARCH_MODES)})", BAD_REQUEST)
    kb = opened_knowledge_base(engines)
    k = max(1, request.k)
    from relatex.retrieval.rerank import RERANK_DEPTH, citation_reranker, rerank_hits

    depth = request.rerank_depth if request.rerank_depth is not None else RERANK_DEPTH
    progress("searching", 0.1)
    with engines.using_knowledge_base():
        hits = kb.search(query, k=max(k, depth) if request.rerank else k, mode=request.mode,
                         exclude=set(request.exclude))
    if is_cancelled(cancel):
        raise UseCaseCancelled("search cancelled")
    if not request.rerank:
        return SearchResult(tuple(hits), False)
    progress("reranking with the citation model", 0.6)
    reranker = citation_reranker(kb)
    if reranker is None:
        return SearchResult(tuple(hits[:k]), False, ("the citation model is unavailable; hits are not reranked",))
    with engines.using_knowledge_base():
        return SearchResult(tuple(rerank_hits(kb, query, hits, reranker, k)), True)


def paper_suggestions(sentence: str, engines: Engines, limit: int) -> list[PaperRecord]:
    """Knowledge-base papers for a sentence being written (completion): the hybrid top ``limit``;
    none when there is no knowledge base or no text. Call it off the event loop: the first call
    may open the knowledge base and load the embedding model."""
    if not sentence.strip():
        return []
    kb = engines.knowledge_base()
    if kb is None:
        return []
    with engines.using_knowledge_base():
        hits = kb.search(sentence, k=limit)
    return [hit.record for hit in hits]


def supporting_papers(claim: str, engines: Engines, exclude_ids: Collection[str], limit: int) -> list[
        tuple[PaperRecord, SupportVerdict]]:
    """Knowledge-base papers that support ``claim``, best first, each with the engines' verdict:
    the hybrid top ``limit`` (not ``exclude_ids``, the papers already cited), judged one by one;
    only "supported" and "partially supported" are kept. Plain hybrid order: reranking by the
    citation model lowered sentence R@10 on the full ACM-CR collection (0.418 to 0.357,
    ``bench/full_collection.py``). Call it off the event loop."""
    kb = engines.knowledge_base()
    if kb is None or not claim.strip():
        return []
    judge = engines.judge()
    with engines.using_knowledge_base():
        hits = kb.search(claim, k=limit, mode="hybrid", exclude=set(exclude_ids))
    scored: list[tuple[PaperRecord, SupportVerdict]] = []
    for hit in hits[:limit]:
        record = hit.record
        evidence = paper_evidence("candidate", record.id, record.abstract, title=record.title,
                                  full_text=record.full_text, authors=record.authors)
        verdict = judge.judge(claim, evidence)
        if verdict.label in (SUPPORTED, PARTIALLY_SUPPORTED):
            scored.append((record, verdict))
    scored.sort(key=lambda pair: -pair[1].score)
    return scored
