"""The candidate score's blend where no citation edge joins two papers (``graph.alphaWithoutCitations``).

The score is ``alpha * relevance + (1 - alpha) * PageRank``. Where the candidates have no citation
edges between them (ACM-CR here; most collections a user builds from .bib files), the personalised
PageRank walks nowhere and is only its restart weights: the seeds' weights from their rank in the
hybrid search for the draft. The blend then only weighs that search rank against the relevance
(cosine, search rank, the cross-encoder's fit, and with citations in the draft their neighbours).

For each value, the development halves of ACM-CR, unseeded and seeded (30% of the references
given), are selected at the shipped relevance floor with the knowledge base, vectors and paper fit
of ``bench/section_quality.py``: precision / recall / size against hybrid search at the same size.
No section is written. The choice: the value with the best mean precision over the two halves among
those whose recall is at least hybrid search's on both. The test halves are not read here (their
figures come from ``bench/section_quality.py``).

    python bench/citation_free_alpha.py [--values 0.3 0.5 0.6 0.7 0.8 0.9 1.0] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import section_quality as sq  # noqa: E402
from bench_embedders import CachedEmbedder, make_embedder  # noqa: E402

RESULTS = REPO / "bench" / "results" / "citation_free_alpha.json"
HALVES = ("unseeded", "seeded")


def measure(values: Sequence[float], embedder: CachedEmbedder) -> dict[str, dict[str, dict[str, float]]]:
    """Development-half precision / recall per value, unseeded and seeded."""
    args = argparse.Namespace(dataset="acm", distractors=3000, acl_drafts=40, acl_abstracts=False,
                              authors_papers=False)
    floor = sq.PRODUCT.relevance_floor
    out: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp, sq.corpus(args, Path(tmp), embedder) as (kb, tasks, _, sources_for):
        dev = [t for t in tasks if t.half == "dev"]
        for value in values:
            base = replace(sq.PRODUCT, alpha_without_citations=value)
            out[str(value)] = {half: sq.calibrate(dev, kb, sources_for, [floor], half == "seeded", base)[str(floor)]
                               for half in HALVES}
            print(f"alpha without citations {value}: {out[str(value)]}", file=sys.stderr)
    return out


def choice(rows: dict[str, dict[str, dict[str, float]]]) -> str:
    """The best mean development precision among the values with recall at least hybrid's on both halves."""
    fair = [v for v, row in rows.items() if all(row[h]["recall"] >= row[h]["hybrid_recall"] for h in HALVES)]
    return max(fair or rows, key=lambda v: (sum(rows[v][h]["precision"] for h in HALVES), -float(v)))


def table(rows: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = ["| value | unseeded P / R (K) vs hybrid | seeded P / R (K) vs hybrid |", "|---|---|---|"]
    for value, row in rows.items():
        cells = [f"{r['precision']:.3f} / {r['recall']:.3f} ({r['size']}) vs {r['hybrid_precision']:.3f} / "
                 f"{r['hybrid_recall']:.3f}" for r in (row[h] for h in HALVES)]
        lines.append(f"| {value} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", type=float, nargs="+", default=[0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
    parser.add_argument("--embed-cache", type=Path, default=REPO / ".cache" / "section-quality-embed.pkl")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    rows = measure(args.values, embedder)
    embedder.save()
    result: dict[str, Any] = {"embedder": embedder_name, "split": "ACM-CR development halves",
                              "floor": sq.PRODUCT.relevance_floor, "alpha": sq.PRODUCT.alpha,
                              "shipped": sq.PRODUCT.alpha_without_citations, "values": rows, "chosen": choice(rows),
                              "rule": choice.__doc__}
    print(table(rows))
    print(f"chosen on the development halves: {result['chosen']} (shipped {result['shipped']})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
