"""Fusion of BM25 and dense search chosen on ACM-CR's development half, reported on its test half.

Runs BM25, dense, reciprocal-rank fusion and convex fusion at several weights on an indexed
knowledge base (the ACM-CR subset of ``retrieval_quality.py make-subset`` or the full collection),
with the queries split by query paper (``bench/splits.py``). The fusion is chosen on the
development half by mean(paragraphs R@10, sentences R@10, abstracts R@50); the table shows the
test half only, with BM25 and RRF (the strongest simple baselines) beside the best fusion on dev and
the shipped default (convex 0.5, kept unless a fusion beats it on dev by more than a point).

    python bench/fusion_split.py --kb DIR [--mode-label subset]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lexical_baselines import metric_cells, score, split_tasks  # type: ignore[import-not-found]
from retrieval_quality import DATA, RESULTS, _doc_key, blacklist, evaluate_run  # type: ignore[import-not-found]

FUSIONS = ("rrf", "convex:0.3", "convex:0.4", "convex:0.5", "convex:0.6", "convex:0.7")


def main() -> int:
    from relatex.retrieval.knowledge_base import KnowledgeBase

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--kb", type=Path, required=True, help="knowledge base directory (<data-dir>/<kb-name>)")
    parser.add_argument("--mode-label", default="subset")
    parser.add_argument("--out", type=Path, default=RESULTS / "fusion_split.json")
    parser.add_argument("--rebuild-lexical", action="store_true",
                        help="rebuild the index's BM25 first, with the current tokenizer")
    args = parser.parse_args()
    if args.rebuild_lexical:
        with KnowledgeBase.open(args.kb, read_only=False) as kb:
            kb.rebuild_lexical()
    halves = split_tasks(args.data)
    excluded_docs = blacklist(args.data)
    runs: dict[str, dict[str, Any]] = {}
    with KnowledgeBase.open(args.kb, read_only=True) as kb:
        exclude = {r.id for d in excluded_docs if (r := kb.resolve(d)) is not None}
        records, model = len(kb), kb.embedder.model_id

        def runner(mode: str, fusion: str = "rrf", alpha: float = 0.5) -> Callable[[str, int], list[str]]:
            def search(query: str, depth: int) -> list[str]:
                kb.fusion, kb.fusion_alpha = fusion, alpha
                return [_doc_key(h.record) for h in kb.search(query, k=depth, mode=mode, exclude=exclude)]
            return search

        named = {"bm25": runner("bm25"), "dense": runner("dense")}
        for fusion in FUSIONS:
            name, _, alpha = fusion.partition(":")
            named[f"hybrid-{fusion}"] = runner("hybrid", name, float(alpha or 0.5))
        for name, run in named.items():
            runs[name] = {half: {task: evaluate_run(run, q, r, 50) for task, (q, r) in halves[half].items()}
                          for half in ("dev", "test")}
            print(f"{name:<18} dev {score(runs[name]['dev']):.4f}", file=sys.stderr)
    fused = [n for n in runs if n.startswith("hybrid-")]
    chosen = max(fused, key=lambda n: score(runs[n]["dev"]))
    print(f"ACM-CR {args.mode_label} ({records:,} records, {model}); fusion chosen on dev: {chosen}; test half:")
    print(f"{'run':<22} {'para R@10':>9} {'para nDCG':>9} {'sent R@10':>9} {'sent nDCG':>9} {'abs R@50':>9}")
    for name in dict.fromkeys(("bm25", "dense", "hybrid-rrf", "hybrid-convex:0.5", chosen)):
        label = name + (" (chosen)" if name == chosen else "")
        print(f"{label:<22} {metric_cells(runs[name]['test'])}")
    result = {
        "benchmark": "fusion_split", "mode": args.mode_label, "kb_records": records, "embedder": model,
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()},
        "split": "ACM-CR by query paper (bench/splits.py); fusion chosen on dev by mean(paragraphs R@10, "
                 "sentences R@10, abstracts R@50)",
        "chosen_on_dev": chosen,
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
