"""Fusion of a dense and a lexical ranking into one hybrid ranking.

Two methods, compared in ``bench/retrieval_quality.py``: reciprocal-rank fusion (RRF, Cormack et
al. 2009) and a convex combination of min-max normalised scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

RRF_K = 60


@dataclass(frozen=True)
class FusedHit:
    """A fused result with the rank (1-based) it had in each input ranking, if any."""

    record_id: str
    score: float
    dense_rank: int | None
    lexical_rank: int | None


def _ranks(hits: Sequence[tuple[str, float]]) -> dict[str, int]:
    ranks: dict[str, int] = {}
    for i, (rid, _score) in enumerate(hits, start=1):
        ranks.setdefault(rid, i)
    return ranks


def reciprocal_rank_fusion(
    dense: Sequence[tuple[str, float]],
    lexical: Sequence[tuple[str, float]],
    k: int = RRF_K,
    dense_weight: float = 1.0,
    lexical_weight: float = 1.0,
) -> list[FusedHit]:
    """score(d) = sum over rankings of weight / (k + rank(d)); ties broken by best single rank."""
    d_ranks, l_ranks = _ranks(dense), _ranks(lexical)
    fused: list[FusedHit] = []
    for rid in dict.fromkeys([*d_ranks, *l_ranks]):
        dr, lr = d_ranks.get(rid), l_ranks.get(rid)
        score = (dense_weight / (k + dr) if dr else 0.0) + (lexical_weight / (k + lr) if lr else 0.0)
        fused.append(FusedHit(rid, score, dr, lr))
    fused.sort(key=lambda h: (-h.score, min(h.dense_rank or 10**9, h.lexical_rank or 10**9), h.record_id))
    return fused


def _minmax(hits: Sequence[tuple[str, float]]) -> dict[str, float]:
    if not hits:
        return {}
    scores = [s for _, s in hits]
    low, high = min(scores), max(scores)
    span = high - low
    return {rid: (s - low) / span if span > 0 else 1.0 for rid, s in hits}


def convex_combination(
    dense: Sequence[tuple[str, float]],
    lexical: Sequence[tuple[str, float]],
    alpha: float = 0.5,
) -> list[FusedHit]:
    """score(d) = alpha * dense_norm(d) + (1 - alpha) * lexical_norm(d), scores min-max normalised
    within each list; a document missing from a list gets 0 for it."""
    d_norm, l_norm = _minmax(dense), _minmax(lexical)
    d_ranks, l_ranks = _ranks(dense), _ranks(lexical)
    fused = [
        FusedHit(rid, alpha * d_norm.get(rid, 0.0) + (1 - alpha) * l_norm.get(rid, 0.0),
                 d_ranks.get(rid), l_ranks.get(rid))
        for rid in dict.fromkeys([*d_ranks, *l_ranks])
    ]
    fused.sort(key=lambda h: (-h.score, h.record_id))
    return fused


def fuse(
    dense: Sequence[tuple[str, float]],
    lexical: Sequence[tuple[str, float]],
    method: str = "rrf",
    alpha: float = 0.5,
) -> list[FusedHit]:
    """Dispatch on ``method``: "rrf" or "convex"."""
    if method == "rrf":
        return reciprocal_rank_fusion(dense, lexical)
    if method == "convex":
        return convex_combination(dense, lexical, alpha)
    raise ValueError(f"unknown fusion method {method!r} (use 'rrf' or 'convex')")
