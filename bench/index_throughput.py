"""Indexing throughput: parsing, embedding (vs the raw ONNX ceiling), vector upserts and the whole
pipeline, each stage in its own process so that its peak memory is its own.

Usage:
  python bench/index_throughput.py [--bib /work/shared/data/acm-cr/acm-dl.bib.gz] [--parse 20000]
      [--embed 512] [--upsert 20000] [--pipeline 5000] [--index-log /work/kb-acm-subset/index.log]

Stages:
  parse      records/s of BibTeX -> PaperRecord (streaming)
  onnx       raw onnxruntime + tokenizers on the same int8 MiniLM (mean pooling): the ceiling
  embed      FastEmbedEmbedder (what indexing uses)
  upsert     Qdrant Edge upserts of random 384-d vectors (flush every 256)
  pipeline   KnowledgeBase.index with the model-free HashingEmbedder: everything but the model
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
ACM = ROOT.parent / "shared" / "data" / "acm-cr" / "acm-dl.bib.gz"


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _texts(bib: Path, n: int) -> list[str]:
    from relatex.retrieval.sources import open_source

    return [r.embedding_text() for r in open_source(bib).limited(n * 3) if r.abstract][:n]


def stage_parse(bib: Path, n: int) -> dict:
    from relatex.retrieval.sources import open_source

    started = time.perf_counter()
    count = sum(1 for _ in open_source(bib).limited(n))
    seconds = time.perf_counter() - started
    return {"records": count, "seconds": round(seconds, 2), "records_per_s": round(count / seconds, 1)}


def stage_onnx(bib: Path, n: int, batch: int = 16) -> dict:
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    from relatex.retrieval.embedding import bundled_model_files

    texts = _texts(bib, n)
    model, tokenizer_file = bundled_model_files()
    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.enable_truncation(max_length=256)
    tokenizer.enable_padding()
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    started = time.perf_counter()
    for start in range(0, len(order), batch):
        encodings = tokenizer.encode_batch([texts[i] for i in order[start:start + batch]])
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feed)[0]
        pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
    seconds = time.perf_counter() - started
    return {"texts": len(texts), "seconds": round(seconds, 2), "texts_per_s": round(len(texts) / seconds, 1),
            "batch": batch, "threads": options.intra_op_num_threads}


def stage_embed(bib: Path, n: int) -> dict:
    from relatex.retrieval.embedding import FastEmbedEmbedder

    texts = _texts(bib, n)
    embedder = FastEmbedEmbedder()
    started = time.perf_counter()
    embedder.embed(texts)
    seconds = time.perf_counter() - started
    return {"texts": len(texts), "seconds": round(seconds, 2), "texts_per_s": round(len(texts) / seconds, 1),
            "batch": embedder.batch_size}


def stage_upsert(n: int, dim: int = 384) -> dict:
    import numpy as np

    from relatex.retrieval.embedding import l2_normalise
    from relatex.retrieval.vector_store import EdgeVectorStore

    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        store = EdgeVectorStore(Path(tmp) / "v", dim)
        started = time.perf_counter()
        for start in range(0, n, 256):
            size = min(256, n - start)
            ids = [f"r{start + i}" for i in range(size)]
            store.upsert(ids, l2_normalise(rng.normal(size=(size, dim))), [{"title": i} for i in ids])
            store.flush()
        seconds = time.perf_counter() - started
        store.close()
    return {"points": n, "seconds": round(seconds, 2), "points_per_s": round(n / seconds, 1)}


def stage_pipeline(bib: Path, n: int) -> dict:
    from relatex.retrieval.embedding import HashingEmbedder
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.sources import open_source

    with tempfile.TemporaryDirectory() as tmp, KnowledgeBase.open(Path(tmp), embedder=HashingEmbedder(384)) as kb:
        started = time.perf_counter()
        summary = kb.index(open_source(bib).limited(n))
        seconds = time.perf_counter() - started
        rerun_start = time.perf_counter()
        again = kb.index(open_source(bib).limited(n))
        rerun = time.perf_counter() - rerun_start
    return {"records": summary.read, "seconds": round(seconds, 2), "records_per_s": round(summary.read / seconds, 1),
            "unchanged_rerun_seconds": round(rerun, 2), "unchanged_rerun_records_per_s": round(again.read / rerun, 1),
            "embedder": "hashing-384 (model-free)"}


def index_log(path: Path) -> dict | None:
    """Throughput of a real `relatex index` run from its stderr log (progress lines + time -v)."""
    if not path.exists():
        return None
    text = path.read_text(errors="replace")
    lines = re.findall(r"\] ([\d,]+)/([\d,]+) .*?([\d.]+) records/s .*?elapsed ([\d:]+)", text)
    if not lines:
        return None
    done, total, rate, elapsed = lines[-1]
    info: dict = {"log": str(path), "processed": int(done.replace(",", "")), "total": int(total.replace(",", "")),
                  "records_per_s": float(rate), "elapsed": elapsed}
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if peak:
        info["peak_rss_mb"] = round(int(peak.group(1)) / 1024, 1)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    if wall:
        info["wall"] = wall.group(1)
    return info


def run_stage(name: str, args: argparse.Namespace) -> dict:
    if name == "parse":
        result = stage_parse(args.bib, args.parse)
    elif name == "onnx":
        result = stage_onnx(args.bib, args.embed)
    elif name == "embed":
        result = stage_embed(args.bib, args.embed)
    elif name == "upsert":
        result = stage_upsert(args.upsert)
    else:
        result = stage_pipeline(args.bib, args.pipeline)
    result["peak_rss_mb"] = _peak_mb()
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bib", type=Path, default=ACM)
    parser.add_argument("--parse", type=int, default=20000)
    parser.add_argument("--embed", type=int, default=512)
    parser.add_argument("--upsert", type=int, default=20000)
    parser.add_argument("--pipeline", type=int, default=5000)
    parser.add_argument("--stages", default="parse,onnx,embed,upsert,pipeline")
    parser.add_argument("--index-log", type=Path, default=Path("/work/kb-acm-subset/index.log"))
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=RESULTS / "index_throughput.json")
    args = parser.parse_args(argv)
    if args.stage:
        print(json.dumps(run_stage(args.stage, args)))
        return 0
    results: dict = {"cpu_count": os.cpu_count(), "load_average_start": os.getloadavg(), "stages": {}}
    base = [sys.executable, __file__, "--bib", str(args.bib), "--parse", str(args.parse), "--embed", str(args.embed),
            "--upsert", str(args.upsert), "--pipeline", str(args.pipeline)]
    for stage in args.stages.split(","):
        print(f"running {stage} ...", file=sys.stderr, flush=True)
        done = subprocess.run([*base, "--stage", stage], capture_output=True, text=True)
        if done.returncode != 0:
            results["stages"][stage] = {"error": done.stderr.strip().splitlines()[-1:]}
            continue
        results["stages"][stage] = json.loads(done.stdout.strip().splitlines()[-1])
    results["load_average_end"] = os.getloadavg()
    results["real_index_run"] = index_log(args.index_log)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"Indexing throughput (2 shared cores, load average {results['load_average_start'][0]:.1f} at start)")
    print(f"{'stage':<10} {'items':>8} {'seconds':>9} {'items/s':>9} {'peak MB':>8}")
    for stage, r in results["stages"].items():
        if "error" in r:
            print(f"{stage:<10} error: {r['error']}")
            continue
        items = r.get("records") or r.get("texts") or r.get("points")
        rate = r.get("records_per_s") or r.get("texts_per_s") or r.get("points_per_s")
        print(f"{stage:<10} {items:>8} {r['seconds']:>9} {rate:>9} {r['peak_rss_mb']:>8}")
    real = results["real_index_run"]
    if real:
        print(f"real `relatex index` run: {real['processed']:,}/{real['total']:,} records at "
              f"{real['records_per_s']} records/s (elapsed {real['elapsed']}, peak {real.get('peak_rss_mb', '?')} MB)")
    print(f"written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
