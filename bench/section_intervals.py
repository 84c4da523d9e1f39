"""How far the section bench's test-half figures could move with other drafts: bootstrap intervals.

Each set's figures (``bench/results/section_quality*.json``, written by ``bench/section_quality.py``)
are means over 21-40 test drafts, so a difference of a few points may be the drafts drawn rather
than the method. This resamples the drafts of each set with replacement (10,000 times, seed 0)
and reports the 95% percentile interval of the mean citation precision, of hybrid search's precision
at the same sizes, and of their difference taken draft by draft (paired), and how often a resample's
precision reaches the goal (0.55).

    python bench/section_intervals.py [--results bench/results] [--out bench/results/section_intervals.json]

Prints a table and writes JSON; nothing is rerun (the sections are the ones the section bench wrote).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
SETS = ("section_quality", "section_quality_seeded", "section_quality_acl", "section_quality_acl_seeded",
        "section_quality_acl_abstracts", "section_quality_acl_abstracts_seeded",
        "section_quality_authors_papers", "section_quality_seeded_authors_papers")
GOAL = 0.55
RESAMPLES = 10_000


def interval(values: np.ndarray, draws: np.ndarray) -> list[float]:
    """The 2.5th and 97.5th percentiles of the mean of ``values`` over the resampled drafts ``draws``."""
    means = values[draws].mean(axis=1)
    return [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)]


def intervals(sections: Sequence[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """The mean precisions of one set's sections, their intervals, and the share of resamples at the goal."""
    ours = np.array([s["precision"] for s in sections], dtype=float)
    hybrid = np.array([s["hybrid_precision"] for s in sections], dtype=float)
    draws = np.random.default_rng(seed).integers(0, len(sections), size=(RESAMPLES, len(sections)))
    return {
        "drafts": len(sections),
        "precision": round(float(ours.mean()), 4), "precision_interval": interval(ours, draws),
        "hybrid_precision": round(float(hybrid.mean()), 4), "hybrid_precision_interval": interval(hybrid, draws),
        "difference": round(float((ours - hybrid).mean()), 4), "difference_interval": interval(ours - hybrid, draws),
        "resamples_reaching_goal": round(float((ours[draws].mean(axis=1) >= GOAL).mean()), 4),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=REPO / "bench" / "results")
    parser.add_argument("--out", type=Path, default=None, help="default: <results>/section_intervals.json")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {"resamples": RESAMPLES, "seed": 0, "goal": GOAL, "sets": {}}
    for name in SETS:
        path = args.results / f"{name}.json"
        if path.exists():
            out["sets"][name] = intervals(json.loads(path.read_text(encoding="utf-8"))["sections"])
    print("| set | drafts | precision (95% interval) | hybrid at the same size | difference, paired | resamples >= 0.55 |")
    print("|---|---:|---|---|---|---:|")
    for name, row in out["sets"].items():
        low, high = row["precision_interval"]
        h_low, h_high = row["hybrid_precision_interval"]
        d_low, d_high = row["difference_interval"]
        print(f"| {name} | {row['drafts']} | {row['precision']:.3f} ({low:.3f}-{high:.3f}) | "
              f"{row['hybrid_precision']:.3f} ({h_low:.3f}-{h_high:.3f}) | "
              f"{row['difference']:+.3f} ({d_low:+.3f} to {d_high:+.3f}) | {row['resamples_reaching_goal']:.2f} |")
    target = args.out or args.results / "section_intervals.json"
    target.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
