"""The citation cross-encoder's fit of the draft with each candidate paper, mixed into relevance.

``relevance_scores`` (``relatex.retrieval.expansion``) says how close a paper is to the draft by
vectors and search ranks; a :data:`PaperFit` reads the draft's title and abstract together with the
paper's title and abstract and gives one logit per paper. The candidates closest by the first are
scored by the second, and their relevance becomes ``(1 - w) * relevance + w * sigmoid(logit)``;
the others keep ``(1 - w) * relevance``. On ACM-CR and ACL the mix lifts the selection above hybrid
search at the same size (``bench/section_quality.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

from relatex.retrieval.records import PaperRecord

PaperFit = Callable[[str, Sequence[str]], Iterable[float]]
"""(the draft's text, the papers' ``title. abstract``) -> one logit per paper."""

FIT_DEPTH = 100
"""Candidates scored by the paper fit (the most relevant first): about 1.2 s on one core."""


def paper_text(record: PaperRecord) -> str:
    """What the paper fit reads of a paper."""
    return f"{record.title}. {record.abstract}" if record.abstract else record.title


def with_paper_fit(relevance: Mapping[str, float], records: Mapping[str, PaperRecord], query: str, fit: PaperFit,
                   weight: float, depth: int = FIT_DEPTH) -> dict[str, float]:
    """``relevance`` with the fit of ``query`` (the draft's text) mixed in at ``weight``."""
    if weight <= 0 or not query.strip() or not relevance:
        return dict(relevance)
    scored = [i for i in sorted(relevance, key=lambda i: (-relevance[i], i)) if i in records][:depth]
    logits = dict(zip(scored, fit(query, [paper_text(records[i]) for i in scored]), strict=True))
    return {i: (1 - weight) * value + (weight / (1 + math.exp(-float(logits[i]))) if i in logits else 0.0)
            for i, value in relevance.items()}
