"""Query latency: Qdrant Edge with synthetic random unit vectors (100k and 1M points x 384) and the
whole knowledge-base search (query embedding + dense + BM25 + fusion) on a real index.

Usage:
  python bench/query_latency.py [--sizes 100000,1000000] [--kb /work/kb-acm-subset/acm]
      [--hnsw-kb KB_DIR] [--max-build-seconds 1500] [--queries 200]

``--sizes ""`` skips the synthetic builds and keeps their earlier results in the JSON.
``--hnsw-kb`` checks the HNSW index of a real knowledge base against exact search (it opens
the knowledge base as its writer, so no indexing may run at the same time).

Random vectors are the hardest case for HNSW (no cluster structure); recall@10 of HNSW against
exact search is reported next to the latency. When building a size would exceed
--max-build-seconds, the build stops and the size actually reached is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def _percentiles(samples: list[float]) -> dict[str, float]:
    arr = np.array(samples) * 1000
    return {"p50_ms": round(float(np.percentile(arr, 50)), 2), "p95_ms": round(float(np.percentile(arr, 95)), 2),
            "mean_ms": round(float(arr.mean()), 2)}


def edge_latency(size: int, dim: int, queries: int, max_build_s: float, m: int, ef_construct: int,
                 search_ef: int) -> dict:
    from relatex.retrieval.embedding import l2_normalise
    from relatex.retrieval.vector_store import EdgeVectorStore

    rng = np.random.default_rng(size)
    with tempfile.TemporaryDirectory(dir=os.environ.get("RELATEX_BENCH_TMP")) as tmp:
        store = EdgeVectorStore(Path(tmp) / "v", dim, hnsw_m=m, ef_construct=ef_construct, search_ef=search_ef,
                                wal=False)
        started = time.perf_counter()
        inserted, chunk = 0, 5000
        sample_ids: list[str] = []
        sample_vecs: list[np.ndarray] = []
        while inserted < size and time.perf_counter() - started < max_build_s:
            n = min(chunk, size - inserted)
            vecs = l2_normalise(rng.normal(size=(n, dim)).astype(np.float32))
            ids = [f"p{inserted + i}" for i in range(n)]
            for start in range(0, n, 1000):
                store.upsert(ids[start:start + 1000], vecs[start:start + 1000], [{} for _ in range(min(1000, n - start))])
            if len(sample_ids) < 20000:
                sample_ids.extend(ids[:200])
                sample_vecs.append(vecs[:200])
            inserted += n
        store.flush()
        upsert_s = time.perf_counter() - started
        opt_start = time.perf_counter()
        store.optimize()  # builds the HNSW graph
        optimize_s = time.perf_counter() - opt_start
        qs = l2_normalise(rng.normal(size=(queries, dim)).astype(np.float32))
        for q in qs[:5]:
            store.search(q, 10)
        times, results = [], []
        for q in qs:
            t = time.perf_counter()
            results.append([h.record_id for h in store.search(q, 10)])
            times.append(time.perf_counter() - t)
        # recall of HNSW against exact search over the same points, for a few queries
        recall = None
        if inserted <= 1_200_000:
            matrix_parts, exact_hits = [], 0
            rng2 = np.random.default_rng(size)
            for start in range(0, inserted, chunk):
                n = min(chunk, inserted - start)
                matrix_parts.append(l2_normalise(rng2.normal(size=(n, dim)).astype(np.float32)))
            matrix = np.vstack(matrix_parts)
            for q, got in zip(qs[:50], results[:50], strict=True):
                truth = {f"p{i}" for i in np.argsort(-(matrix @ q))[:10]}
                exact_hits += len(truth & set(got))
            recall = round(exact_hits / (10 * min(50, len(qs))), 4)
            del matrix
        store.close()
    return {"points": inserted, "requested": size, "dim": dim, "hnsw_m": m, "ef_construct": ef_construct,
            "search_ef": search_ef, "upsert_seconds": round(upsert_s, 1), "optimize_seconds": round(optimize_s, 1),
            "recall@10_vs_exact": recall, **_percentiles(times),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def kb_latency(kb_dir: Path, queries: int) -> dict:
    from relatex.retrieval.knowledge_base import KnowledgeBase

    texts = []
    with KnowledgeBase.open(kb_dir, read_only=True) as kb:
        for record in kb.iter_records():
            if record.abstract:
                texts.append(record.abstract[:300])
            if len(texts) >= queries:
                break
        kb.search("warm up the model and the indexes", k=10, mode="hybrid")
        out: dict = {"kb": str(kb_dir), "records": len(kb), "read_only_snapshot": True}
        for mode in ("bm25", "dense", "hybrid"):
            times = []
            for text in texts:
                kb._query_cache.clear()  # measure the query embedding too
                t = time.perf_counter()
                kb.search(text, k=10, mode=mode)
                times.append(time.perf_counter() - t)
            out[mode] = _percentiles(times)
    return out


def hnsw_recall(kb_dir: Path, queries: int, efs: Sequence[int] = (64, 128, 256)) -> dict:
    """Recall@10 and latency of the knowledge base's Qdrant Edge HNSW index against exact search
    over the same stored (real) vectors; the queries are stored vectors, their own point left out."""
    from relatex.retrieval.knowledge_base import KnowledgeBase

    with KnowledgeBase.open(kb_dir, read_only=False) as kb:  # the writer: the only one opening the shard
        store = kb._store
        if store is None or not hasattr(store, "optimize"):
            return {"error": "this knowledge base has no Qdrant Edge index"}
        ids: list[str] = []
        parts = []
        for batch_ids, matrix in kb._records.iter_vectors():
            ids.extend(batch_ids)
            parts.append(matrix)
        matrix = np.vstack(parts)
        started = time.perf_counter()
        store.optimize()
        optimize_s = time.perf_counter() - started
        rng = np.random.default_rng(0)
        chosen = rng.choice(len(ids), size=min(queries, len(ids)), replace=False)
        truths = []
        for index in chosen:
            scores = matrix @ matrix[index]
            scores[index] = -np.inf
            truths.append({ids[i] for i in np.argsort(-scores)[:10]})
        out: dict = {"kb": str(kb_dir), "points": len(ids), "dim": int(matrix.shape[1]),
                     "optimize_seconds": round(optimize_s, 1), "queries": len(chosen), "by_ef": []}
        exact = {"times": []}
        for index in chosen[:50]:
            t = time.perf_counter()
            scores = matrix @ matrix[index]
            np.argpartition(-scores, 10)[:11]
            exact["times"].append(time.perf_counter() - t)
        out["exact_numpy"] = _percentiles(exact["times"])
        for ef in efs:
            store.search_ef = ef
            hits, times = 0, []
            for index, truth in zip(chosen, truths, strict=True):
                t = time.perf_counter()
                got = store.search(matrix[index], 10, exclude=(ids[index],))
                times.append(time.perf_counter() - t)
                hits += len(truth & {h.record_id for h in got})
            out["by_ef"].append({"search_ef": ef, "recall@10_vs_exact": round(hits / (10 * len(chosen)), 4),
                                 **_percentiles(times)})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--max-build-seconds", type=float, default=1500)
    parser.add_argument("--kb", type=Path, default=None, help="knowledge base directory for end-to-end latency")
    parser.add_argument("--hnsw-kb", type=Path, default=None,
                        help="knowledge base directory whose Edge HNSW index is checked against exact search")
    parser.add_argument("--out", type=Path, default=RESULTS / "query_latency.json")
    args = parser.parse_args(argv)
    results: dict = {"load_average_start": os.getloadavg(), "edge": [], "knowledge_base": None,
                     "hnsw_real_vectors": None}
    if args.out.exists():  # keep the parts of an earlier run that this one does not redo
        previous = json.loads(args.out.read_text())
        for part in ("edge", "knowledge_base", "hnsw_real_vectors"):
            if previous.get(part):
                results[part] = previous[part]
    if args.sizes:
        results["edge"] = []
    for size in (int(s) for s in args.sizes.split(",") if s):
        m, efc = (16, 100) if size <= 200_000 else (8, 64)
        print(f"building {size:,} points (m={m}, ef_construct={efc}) ...", file=sys.stderr, flush=True)
        results["edge"].append(edge_latency(size, args.dim, args.queries, args.max_build_seconds, m, efc, 64))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2))
    if args.kb is not None and (args.kb / "records.sqlite").exists():
        results["knowledge_base"] = kb_latency(args.kb, min(args.queries, 100))
    if args.hnsw_kb is not None and (args.hnsw_kb / "records.sqlite").exists():
        results["hnsw_real_vectors"] = hnsw_recall(args.hnsw_kb, args.queries)
    results["load_average_end"] = os.getloadavg()
    args.out.write_text(json.dumps(results, indent=2))
    print(f"Qdrant Edge, random {args.dim}-d unit vectors, k=10 (2 shared cores, load {results['load_average_start'][0]:.1f})")
    print(f"{'points':>9} {'m/efc/ef':>10} {'build s':>8} {'p50 ms':>7} {'p95 ms':>7} {'R@10':>6} {'peak MB':>8}")
    for r in results["edge"]:
        build = r["upsert_seconds"] + r["optimize_seconds"]
        print(f"{r['points']:>9,} {str(r['hnsw_m']) + '/' + str(r['ef_construct']) + '/' + str(r['search_ef']):>10} "
              f"{build:>8.0f} {r['p50_ms']:>7} {r['p95_ms']:>7} {r['recall@10_vs_exact'] or '-':>6} {r['peak_rss_mb']:>8}")
    real = results.get("hnsw_real_vectors")
    if real and "by_ef" in real:
        print(f"Qdrant Edge HNSW on the knowledge base's real vectors ({real['points']:,} x {real['dim']}), "
              f"{real['queries']} stored vectors as queries; exact numpy p50 {real['exact_numpy']['p50_ms']} ms")
        for row in real["by_ef"]:
            print(f"  ef {row['search_ef']:>4}: R@10 {row['recall@10_vs_exact']}  p50 {row['p50_ms']} ms  "
                  f"p95 {row['p95_ms']} ms")
    kb = results["knowledge_base"]
    if kb:
        print(f"knowledge base search ({kb['records']:,} records, read-only snapshot, incl. query embedding):")
        for mode in ("bm25", "dense", "hybrid"):
            print(f"  {mode:<7} p50 {kb[mode]['p50_ms']} ms  p95 {kb[mode]['p95_ms']} ms")
    print(f"written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
