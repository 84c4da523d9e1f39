"""Metrics and weight fitting of the claim-support benches: AUROC, precision/recall, logistic regression."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=bool)
    pos, neg = s[y], s[~y]
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    values = np.concatenate([pos, neg])
    for v in np.unique(values):  # average ranks of ties
        tied = values == v
        ranks[tied] = ranks[tied].mean()
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def precision_recall(predicted: Sequence[bool], labels: Sequence[bool]) -> tuple[float, float]:
    """Precision and recall of "supported" predictions against the true pairs."""
    tp = sum(p and y for p, y in zip(predicted, labels, strict=True))
    fp = sum(p and not y for p, y in zip(predicted, labels, strict=True))
    fn = sum((not p) and y for p, y in zip(predicted, labels, strict=True))
    return (tp / (tp + fp) if tp + fp else 0.0), (tp / (tp + fn) if tp + fn else 0.0)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 0.05, iterations: int = 50) -> np.ndarray:
    """L2-regularised logistic regression by Newton's method; returns (intercept, weights...)."""
    design = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(design.shape[1])
    penalty = np.full(design.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ w, -60, 60)))
        grad = design.T @ (p - y) + penalty * w
        hess = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


PENALTIES = ("numbers_missing", "negation_mismatch", "comparison_unbacked")


def fit_constrained(x: np.ndarray, y: np.ndarray, names: Sequence[str]) -> list[float]:
    """Logistic weights where the penalty features may only lower support (weight <= 0).

    Penalty features whose free fit comes out positive are fixed at 0 and the rest refit.
    """
    active = list(range(len(names)))
    while True:
        w = fit_logistic(x[:, active], y)
        positive = [i for i, j in enumerate(active) if names[j] in PENALTIES and w[i + 1] > 0]
        if not positive:
            break
        active = [j for i, j in enumerate(active) if i not in positive]
    full = [float(w[0])] + [0.0] * len(names)
    for i, j in enumerate(active):
        full[j + 1] = float(w[i + 1])
    return [round(v, 3) for v in full]
