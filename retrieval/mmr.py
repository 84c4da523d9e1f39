"""Maximal marginal relevance: trade relevance against redundancy when keeping papers.

Citegeist eq. 1, with diversity weight ``w`` in [0, 1]:

    next = argmax_{d in candidates \\ S} (1 - w) * relevance(d) - w * max_{s in S} sim(d, s)

``w = 0`` keeps the most relevant papers in order; ``w = 1`` picks, after the first (most
relevant) paper, each time the paper least similar to those already chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def mmr_select(
    ids: Sequence[str],
    relevance: Mapping[str, float],
    vectors: Mapping[str, np.ndarray],
    k: int,
    diversity: float,
    forced: Sequence[str] = (),
) -> list[str]:
    """Choose ``k`` ids by MMR (ties broken by input order). ``forced`` ids are chosen first.

    Vectors are assumed L2-normalised (cosine = dot product); ids without a vector count as
    dissimilar to everything.
    """
    if not 0.0 <= diversity <= 1.0:
        raise ValueError("diversity must lie in [0, 1]")
    order = list(dict.fromkeys(ids))
    chosen: list[str] = [i for i in dict.fromkeys(forced) if i in relevance][:k]
    pool = [i for i in order if i not in set(chosen)]
    if not pool or len(chosen) >= k:
        return chosen
    dim = next((len(v) for v in vectors.values()), 0)
    matrix = np.zeros((len(pool), max(dim, 1)), dtype=np.float32)
    for row, key in enumerate(pool):
        if key in vectors:
            matrix[row] = vectors[key]
    rel = np.array([relevance.get(i, 0.0) for i in pool], dtype=np.float64)
    max_sim = np.zeros(len(pool), dtype=np.float64)
    has_selected = False
    for key in chosen:
        if key in vectors:
            max_sim = np.maximum(max_sim, matrix @ np.asarray(vectors[key], dtype=np.float32))
            has_selected = True
    available = np.ones(len(pool), dtype=bool)
    while len(chosen) < k and available.any():
        penalty = max_sim if has_selected else np.zeros_like(max_sim)
        value = (1.0 - diversity) * rel - diversity * penalty
        if diversity >= 1.0 and not has_selected:
            value = rel.copy()  # the first pick is the most relevant paper
        value[~available] = -np.inf
        best = int(np.argmax(value))
        available[best] = False
        chosen.append(pool[best])
        max_sim = np.maximum(max_sim, matrix @ matrix[best])
        has_selected = True
    return chosen
