"""MMR keeps relevance order at diversity 0 and spreads out at diversity 1."""

from __future__ import annotations

import numpy as np
import pytest

from relatex.retrieval.mmr import mmr_select


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


VECTORS = {
    "a": _unit(1, 0, 0),
    "a2": _unit(1, 0.05, 0),  # near-duplicate of a
    "a3": _unit(1, 0.1, 0),
    "b": _unit(0, 1, 0),
    "c": _unit(0, 0, 1),
}
RELEVANCE = {"a": 0.9, "a2": 0.85, "a3": 0.8, "b": 0.5, "c": 0.4}


def test_diversity_zero_is_relevance_order() -> None:
    ids = sorted(RELEVANCE, key=lambda i: -RELEVANCE[i])
    assert mmr_select(ids, RELEVANCE, VECTORS, k=4, diversity=0.0) == ["a", "a2", "a3", "b"]


def test_diversity_one_picks_the_most_relevant_then_the_most_different() -> None:
    ids = list(RELEVANCE)
    chosen = mmr_select(ids, RELEVANCE, VECTORS, k=3, diversity=1.0)
    assert chosen[0] == "a"
    assert set(chosen[1:]) == {"b", "c"}


def test_moderate_diversity_skips_near_duplicates() -> None:
    chosen = mmr_select(list(RELEVANCE), RELEVANCE, VECTORS, k=3, diversity=0.5)
    assert chosen[0] == "a"
    assert "a2" not in chosen and "b" in chosen


def test_forced_ids_come_first_and_count_towards_k() -> None:
    chosen = mmr_select(list(RELEVANCE), RELEVANCE, VECTORS, k=2, diversity=0.0, forced=["c"])
    assert chosen == ["c", "a"]


def test_k_larger_than_pool_returns_everything_once() -> None:
    chosen = mmr_select(["a", "b", "a"], RELEVANCE, VECTORS, k=10, diversity=0.3)
    assert sorted(chosen) == ["a", "b"]


def test_invalid_diversity_is_rejected() -> None:
    with pytest.raises(ValueError):
        mmr_select(["a"], RELEVANCE, VECTORS, k=1, diversity=1.5)
