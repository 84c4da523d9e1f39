"""Reranking knowledge-base hits with relatex's citation model.

Hybrid search proposes the top N; the citation model scores each by cosine(claim encoder(text),
stored record vector), which costs one claim encoding whatever N is, because the records'
stored vectors are the model's paper vectors; the final order fuses the hybrid order with the
model's (reciprocal-rank fusion). Only usable when the knowledge base was built with
the embedder the model was trained against; otherwise :func:`citation_reranker` gives None.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from relatex.analysis.claims.citation_model import CitationReranker, shipped_encoder
from relatex.retrieval.indexing import SearchHit

log = logging.getLogger(__name__)

RERANK_DEPTH = 50
"""Hybrid hits the model reranks by default."""
RRF_K = 60


def citation_reranker(kb: Any) -> CitationReranker | None:
    """The shipped model as a reranker for ``kb``'s vectors; None (logged) when it cannot serve."""
    encoder = shipped_encoder()
    if encoder is None:
        return None
    model_id = str(getattr(getattr(kb, "embedder", None), "model_id", ""))
    if encoder.card.document_embedder.lower() not in model_id.lower():
        log.warning("citation model reranks only %s vectors (knowledge base: %r); keeping the hybrid order",
                    encoder.card.document_embedder, model_id)
        return None
    return CitationReranker(encoder)


def document_vectors(kb: Any, hits: Sequence[SearchHit]) -> np.ndarray:
    """The stored vectors of the hits' records (embedded now when the store lacks one)."""
    ids = [h.record.id for h in hits]
    stored = kb.vectors(ids)
    missing = [h.record for h in hits if h.record.id not in stored]
    if missing:
        stored = {**stored, **dict(zip([r.id for r in missing],
                                       kb.embed([r.embedding_text() for r in missing]), strict=True))}
    return np.vstack([np.asarray(stored[i], dtype=np.float32) for i in ids])


def rerank_hits(kb: Any, text: str, hits: Sequence[SearchHit], reranker: CitationReranker, k: int) -> list[SearchHit]:
    """The k best of ``hits`` by reciprocal-rank fusion of their order and the citation model's order.

    Fusion rather than the model alone: on ACM-CR sentence queries (bench/rerank_quality.py) the
    model's order alone ranked worse at the top (nDCG@10) than BM25, fused with it better than both.
    Scores are the fused RRF values.
    """
    if not hits:
        return []
    scores = reranker.scores(text, document_vectors(kb, hits))
    by_model = sorted(range(len(hits)), key=lambda i: (-float(scores[i]), i))
    fused = {i: 1.0 / (RRF_K + i + 1) for i in range(len(hits))}
    for rank, i in enumerate(by_model):
        fused[i] += 1.0 / (RRF_K + rank + 1)
    order = sorted(fused, key=lambda i: (-fused[i], i))
    return [dataclasses.replace(hits[i], score=round(fused[i], 6)) for i in order[:k]]


def search_reranked(kb: Any, text: str, k: int, reranker: CitationReranker | None, depth: int = RERANK_DEPTH,
                    exclude: Sequence[str] = ()) -> list[SearchHit]:
    """Hybrid top-``depth`` reranked by the model (plain hybrid top-k without a reranker)."""
    if reranker is None:
        return list(kb.search(text, k=k, mode="hybrid", exclude=set(exclude)))
    hits = kb.search(text, k=max(k, depth), mode="hybrid", exclude=set(exclude))
    return rerank_hits(kb, text, hits, reranker, k)
