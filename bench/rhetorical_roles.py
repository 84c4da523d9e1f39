"""Accuracy of the rhetorical-role classifier on hand-labelled abstract sentences.

The labelled sample (``tests/fixtures/analysis/abstract_roles.tsv``, rules in ``abstract_roles.md``)
is split by abstract: the abstracts at even positions were used to tune the cue rules, the ones at
odd positions are held out. Reported per half: accuracy, per-role precision/recall/F1, macro F1
and the confusion matrix of the held-out half.

    python bench/rhetorical_roles.py [--out bench/results/rhetorical_roles.json]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from relatex.analysis.claims.rhetorical_roles import ROLES, classify_sentences

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "tests" / "fixtures" / "analysis" / "abstract_roles.tsv"


def load(path: Path = SAMPLE) -> list[list[tuple[str, str]]]:
    """The labelled abstracts, each a list of (sentence, role) in order."""
    abstracts: dict[tuple[str, str], list[tuple[int, str, str]]] = {}
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            abstracts.setdefault((row["source"], row["key"]), []).append(
                (int(row["index"]), row["sentence"], row["role"]))
    return [[(s, r) for _, s, r in sorted(items)] for items in abstracts.values()]


def evaluate(abstracts: Sequence[list[tuple[str, str]]]) -> dict[str, Any]:
    """Accuracy, per-role P/R/F1, macro F1 and confusion counts (gold -> predicted)."""
    pairs = [(gold, predicted) for abstract in abstracts
             for (_, gold), predicted in zip(abstract, classify_sentences([s for s, _ in abstract]), strict=True)]
    confusion = Counter(pairs)
    per_role: dict[str, dict[str, float]] = {}
    for role in ROLES:
        tp = confusion[(role, role)]
        predicted = sum(n for (_, p), n in confusion.items() if p == role)
        gold = sum(n for (g, _), n in confusion.items() if g == role)
        precision = tp / predicted if predicted else 0.0
        recall = tp / gold if gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_role[role] = {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3),
                          "support": gold}
    correct = sum(n for (g, p), n in confusion.items() if g == p)
    return {"sentences": len(pairs), "abstracts": len(abstracts),
            "accuracy": round(correct / len(pairs), 3) if pairs else 0.0,
            "macro_f1": round(sum(v["f1"] for v in per_role.values()) / len(ROLES), 3),
            "per_role": per_role,
            "confusion": {f"{g}->{p}": n for (g, p), n in sorted(confusion.items())}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "rhetorical_roles.json")
    args = parser.parse_args(argv)
    abstracts = load()
    halves = {"tuning": abstracts[0::2], "held_out": abstracts[1::2]}
    results = {name: evaluate(items) for name, items in halves.items()}
    print(f"{'half':<10} {'sents':>6} {'acc':>6} {'macroF1':>8}  " + " ".join(f"{r[:5]:>6}" for r in ROLES))
    for name, result in results.items():
        f1s = " ".join(f"{result['per_role'][r]['f1']:>6.3f}" for r in ROLES)
        print(f"{name:<10} {result['sentences']:>6} {result['accuracy']:>6.3f} {result['macro_f1']:>8.3f}  {f1s}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
