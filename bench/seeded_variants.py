"""Selection settings for drafts that already cite some of their references, on both halves.

Each ACM-CR draft (title and abstract) is given 30% of its in-collection references as existing
citations, as ``bench/section_quality.py --seeded`` does, with the same knowledge base, vectors and
seeds. For each variant of the product's selection settings, the papers the selection adds are
scored against the remaining references: precision / recall at the section's own size K, against
hybrid search's top K for the same draft text. No section is written (the selection alone decides
precision and recall). Both halves are printed: a setting chosen here must hold on the test half too.

    python bench/seeded_variants.py [--dataset acm|acl [--acl-abstracts]] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import random
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

VARIANTS: dict[str, dict[str, Any]] = {
    "product": {},
    "cited_weight 0 (the draft's text alone)": {"cited_weight": 0.0},
    "cited_weight 0.3": {"cited_weight": 0.3},
    "cited_weight 0.5": {"cited_weight": 0.5},
    "cited_weight 0.8": {"cited_weight": 0.8},
    "alpha 0.6": {"alpha": 0.6, "alpha_without_citations": 0.6},
    "alpha 1 (relevance alone)": {"alpha": 1.0, "alpha_without_citations": 1.0},
    "cited_weight 0.5, alpha 0.6": {"cited_weight": 0.5, "alpha": 0.6, "alpha_without_citations": 0.6},
    "semantic_k 0 (no similar papers of the seeds)": {"semantic_k": 0},
}


def measure(tasks: Sequence[Any], kb: Any, sources_for: Any, params: Any) -> dict[str, float]:
    """Mean precision, recall and size of the new papers, and hybrid search's at the same size."""
    rows = []
    for task in tasks:
        view = sq.as_of(kb, task)
        draft, gold = sq.draft_of(task, view, True, random.Random(0))
        chosen = sq.new_papers(draft, view, params, sources_for(task))
        rows.append((*sq.pr(chosen, gold), len(chosen), *sq.pr(sq.hybrid_at(view, draft, len(chosen)), gold)))
    names = ("precision", "recall", "size", "hybrid_precision", "hybrid_recall")
    return {name: round(sum(r[i] for r in rows) / len(rows), 4) for i, name in enumerate(names)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", choices=("acm", "acl"), default="acm")
    parser.add_argument("--acl-abstracts", action="store_true")
    parser.add_argument("--embed-cache", type=Path, default=REPO / ".cache" / "section-quality-embed.pkl")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "seeded_variants.json")
    args = parser.parse_args(argv)
    corpus_args = argparse.Namespace(dataset=args.dataset, distractors=3000, acl_drafts=40,
                                     acl_abstracts=args.acl_abstracts)
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    result: dict[str, Any] = {"dataset": args.dataset, "embedder": embedder_name, "variants": {}}
    with tempfile.TemporaryDirectory() as tmp, sq.corpus(corpus_args, Path(tmp), embedder) as (
            kb, tasks, _, sources_for):
        halves = {"dev": [t for t in tasks if t.half == "dev"], "test": [t for t in tasks if t.half != "dev"]}
        for name, change in VARIANTS.items():
            params = replace(sq.PRODUCT, **change)
            result["variants"][name] = {half: measure(ts, kb, sources_for, params) for half, ts in halves.items()}
            row = result["variants"][name]
            print(f"{name:48s} " + "  ".join(
                f"{half}: {m['precision']:.3f} / {m['recall']:.3f} ({m['size']:.1f}) vs "
                f"{m['hybrid_precision']:.3f} / {m['hybrid_recall']:.3f}" for half, m in row.items()), flush=True)
    embedder.save()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
