"""ACM-CR retrieval on the full collection's knowledge base: hybrid, and hybrid then the citation model.

    relatex index ../shared/data/acm-cr/acm-dl.bib.gz --data-dir DIR --offline   # about 70 min on 2 cores
    python bench/full_collection.py --kb DIR/default [--depth 50]

Queries are split by query paper (``bench/splits.py``). Every run is scored on both halves; the
development half chooses (the fusion method, and whether reranking is used), the test half is
reported. Runs, all through the product's own search code on the same knowledge base: BM25, dense,
hybrid with reciprocal-rank fusion and with convex fusion (alpha 0.5, the default), the citation
model's rerank of the hybrid top ``--depth`` fused with the hybrid order (what ``relatex search
--rerank`` does), and the model's order alone over the same candidates. Prints a table and writes
``bench/results/full_collection.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval_quality import DATA, RESULTS, _doc_key, blacklist, ndcg_at, read_queries, recall_at, tasks
from splits import acm_topic_papers, half_of, title_index

from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.rerank import citation_reranker, document_vectors, rerank_hits

Search = Callable[[str, int], list[str]]


def topics_by_half(data: Path) -> dict[str, dict[str, tuple[dict[str, str], dict[str, set[str]]]]]:
    """half -> task -> (queries, qrels), split by the query paper that owns each topic."""
    titles = title_index(read_queries(data / "queries.jsonl"))
    owner = {**acm_topic_papers(data / "topics+qrels/contexts.topics", titles),
             **acm_topic_papers(data / "topics+qrels/sentences.topics", titles)}
    out: dict[str, dict[str, tuple[dict[str, str], dict[str, set[str]]]]] = {"dev": {}, "test": {}}
    for task, (queries, qrels) in tasks(data).items():
        for half in out:
            keep = {qid: text for qid, text in queries.items()
                    if (doi := qid.lower() if task == "abstracts" else owner.get(qid)) is not None
                    and half_of(doi) == half}
            out[half][task] = (keep, {q: r for q, r in qrels.items() if q in keep})
    return out


def runs_for(kb: KnowledgeBase, exclude: set[str], depth: int) -> dict[str, Search]:
    """The compared runs, each a function (query, k) -> ranked ACM-CR document ids."""
    reranker = citation_reranker(kb)

    def plain(mode: str, fusion: str = "convex", alpha: float = 0.5) -> Search:
        def search(query: str, k: int) -> list[str]:
            kb.fusion, kb.fusion_alpha = fusion, alpha
            return [_doc_key(h.record) for h in kb.search(query, k=k, mode=mode, exclude=exclude)]
        return search

    def reranked(fused: bool) -> Search:
        def search(query: str, k: int) -> list[str]:
            kb.fusion, kb.fusion_alpha = "convex", 0.5
            hits = kb.search(query, k=max(k, depth), mode="hybrid", exclude=exclude)
            if reranker is None or not hits:
                return [_doc_key(h.record) for h in hits[:k]]
            if fused:
                return [_doc_key(h.record) for h in rerank_hits(kb, query, hits, reranker, len(hits))][:k]
            scores = reranker.scores(query, document_vectors(kb, hits))
            return [_doc_key(hits[i].record) for i in np.argsort(-scores, kind="stable")][:k]
        return search

    return {"bm25": plain("bm25"), "dense": plain("dense"), "hybrid rrf": plain("hybrid", "rrf"),
            "hybrid convex 0.5": plain("hybrid"), "hybrid + model (fused)": reranked(True),
            "model order of hybrid top-N": reranked(False)}


def score(search: Search, queries: dict[str, str], qrels: dict[str, set[str]]) -> dict[str, float]:
    values: dict[str, list[float]] = {"R@10": [], "nDCG@10": [], "R@50": []}
    started = time.perf_counter()
    for qid, relevant in sorted(qrels.items()):
        ranked = search(queries[qid], 50)
        values["R@10"].append(recall_at(ranked, relevant, 10))
        values["nDCG@10"].append(ndcg_at(ranked, relevant, 10))
        values["R@50"].append(recall_at(ranked, relevant, 50))
    n = len(values["R@10"])
    out = {name: round(float(np.mean(v)), 4) if v else 0.0 for name, v in values.items()}
    out.update(queries=n, ms_per_query=round(1000 * (time.perf_counter() - started) / max(n, 1), 1))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", type=Path, required=True, help="knowledge base folder (<data-dir>/<name>)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--depth", type=int, default=50, help="hybrid candidates the model reranks")
    parser.add_argument("--out", type=Path, default=RESULTS / "full_collection.json")
    args = parser.parse_args(argv)
    halves = topics_by_half(args.data)
    results: dict[str, Any] = {"kb": str(args.kb), "depth": args.depth, "split": "ACM-CR by query paper "
                               "(bench/splits.py); dev chooses, test is reported", "halves": {}}
    with KnowledgeBase.open(args.kb, read_only=True) as kb:
        results.update(records=len(kb), embedder=kb.embedder.model_id)
        exclude = {r.id for d in blacklist(args.data) if (r := kb.resolve(d)) is not None}
        runs = runs_for(kb, exclude, args.depth)
        for half, by_task in halves.items():
            table: dict[str, dict[str, dict[str, float]]] = {}
            for task, (queries, qrels) in by_task.items():
                table[task] = {name: score(run, queries, qrels) for name, run in runs.items()}
                print(f"{half} {task}: done", file=sys.stderr)
            results["halves"][half] = table
    results["chosen_on_dev"] = choose(results["halves"]["dev"])
    print_table(results)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def choose(dev: dict[str, dict[str, dict[str, float]]]) -> dict[str, str]:
    """The run each task's development half prefers (paragraphs/sentences by R@10, abstracts by R@50)."""
    chosen: dict[str, str] = {}
    for task, runs in dev.items():
        metric = "R@50" if task == "abstracts" else "R@10"
        chosen[task] = max(runs, key=lambda name: runs[name][metric])
    return chosen


def print_table(results: dict[str, Any]) -> None:
    print(f"ACM-CR on the full collection ({results['records']:,} records, {results['embedder']}); test half")
    print(f"{'task':<11} {'run':<30} {'R@10':>7} {'nDCG@10':>8} {'R@50':>7} {'queries':>8} {'ms/q':>7}")
    for task, runs in results["halves"]["test"].items():
        for name, m in runs.items():
            print(f"{task:<11} {name:<30} {m['R@10']:>7.4f} {m['nDCG@10']:>8.4f} {m['R@50']:>7.4f} "
                  f"{m['queries']:>8} {m['ms_per_query']:>7.1f}")
    print("chosen on the development half: " + ", ".join(f"{t}: {r}" for t, r in results["chosen_on_dev"].items()))


if __name__ == "__main__":
    sys.exit(main())
