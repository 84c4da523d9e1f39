"""Sentences drawn at random from a bench's sections for reading by hand.

Two draws: cited sentences, each with the title and abstract of every paper it cites (a sentence
that holds two citation groups is one item with all their papers), and closings, each with the
paragraph it ends and the draft's title and abstract, for reading what a closing says of the draft
and of the theme's papers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from relatex.analysis.claims.claim_support import SUPPORTED

SEED = 13


def paper_text(brief: Any) -> str:
    return f"{brief.record.title}. {brief.record.abstract or '(no abstract)'}"


def claim_pool(latex: str, results: Sequence[Any], papers: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One item per cited sentence: its text, its verdict (the first of its citation groups' verdicts
    that is not "supported", else "supported") and the papers of all its groups."""
    pool: dict[str, dict[str, Any]] = {}
    for r in results:
        sentence = latex[r.claim.start:r.claim.end]
        item = pool.setdefault(sentence, {"sentence": sentence, "verdict": r.verdict.label, "papers": {}})
        if item["verdict"] == SUPPORTED:
            item["verdict"] = r.verdict.label
        item["papers"].update({k: paper_text(papers[k]) for k in r.claim.keys if k in papers})
    return list(pool.values())


def closing_pool(latex: str, closings: Sequence[str], draft: str) -> list[dict[str, Any]]:
    """One item per closing: the closing, the paragraph it ends and the draft (title. abstract)."""
    paragraphs = [p for p in latex.split("\n\n") if "\\cite" in p]
    flat = [" ".join(p.split()) for p in paragraphs]
    said = [" ".join(c.split()) for c in closings]
    return [{"sentence": c, "paragraph": next((p for p in flat if c in p), ""), "draft": draft} for c in said]


def draw(rows: list[dict[str, Any]], pool: str, n: int) -> list[dict[str, Any]]:
    """``n`` items drawn at random (seed 13) from the sections' ``pool``, which is removed from the rows."""
    items: dict[str, dict[str, Any]] = {}
    for row in rows:
        for item in row.pop(pool):
            items.setdefault(item["sentence"], {**item, "doi": row["doi"]})
    ordered = sorted(items.values(), key=lambda i: (i["doi"], i["sentence"]))
    return random.Random(SEED).sample(ordered, min(n, len(ordered)))
