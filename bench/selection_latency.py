"""Time to build the citation graph and select 30 papers for a draft against a 100k-paper index.

No 100k index with citation data exists on this machine, so the index is synthetic: 100,000
records whose titles/abstracts are drawn from 300 topic vocabularies, each citing ~10 earlier
papers (70% of them in its own topic, preferential attachment), embedded with the model-free
HashingEmbedder(384) into the default store (Qdrant Edge) + BM25. The draft cites 20 papers of
one topic and has a 120-word abstract. Run: ``python bench/selection_latency.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from relatex.config.settings import Settings
from relatex.retrieval.citation_graph import graph_metrics
from relatex.retrieval.draft import DraftContext
from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.selection import SelectionParams, default_sources, select_papers
from relatex.workflows.engines import Engines

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "selection_latency.json"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 4)))


def synthetic_records(n: int, topics: int, seed: int = 0) -> list[PaperRecord]:
    rng = random.Random(seed)
    common = [_word(rng) for _ in range(2000)]
    vocab = [[_word(rng) for _ in range(40)] for _ in range(topics)]
    by_topic: list[list[int]] = [[] for _ in range(topics)]
    weights: list[int] = []
    records: list[PaperRecord] = []
    for i in range(n):
        topic = rng.randrange(topics)
        words = vocab[topic]
        title = " ".join(rng.choice(words) for _ in range(6))
        abstract = " ".join(rng.choice(words) if rng.random() < 0.5 else rng.choice(common) for _ in range(60))
        refs: set[int] = set()
        if i > 20:
            for _ in range(10):
                if rng.random() < 0.7 and by_topic[topic]:
                    refs.add(rng.choice(by_topic[topic]))
                else:
                    refs.add(rng.choices(range(i), weights=weights[:i], k=1)[0] if i < 2000 else rng.randrange(i))
        year = 1990 + (i * 35) // n
        records.append(PaperRecord(
            id=f"syn:{i}", title=title, abstract=abstract, year=year, authors=(f"Author{rng.randrange(5000)}, A.",),
            references=tuple(f"syn:{r}" for r in sorted(refs)), source="synthetic",
        ))
        by_topic[topic].append(i)
        weights.append(1)
        for r in refs:
            if r < len(weights):
                weights[r] += 1
    return records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--data-dir", type=Path, default=None, help="reuse/keep the synthetic index here")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    data_dir = args.data_dir or Path(tmp.name) / "kb"
    t0 = time.perf_counter()
    records = synthetic_records(args.records, topics=300)
    kb = KnowledgeBase.open(data_dir, embedder=HashingEmbedder(384))
    if len(kb) < args.records:
        kb.add_records(records, source="synthetic")
    build_s = time.perf_counter() - t0
    print(f"index of {len(kb)} synthetic records ready in {build_s:.0f} s", file=sys.stderr)
    rng = random.Random(1)
    topic_words = records[len(records) // 2].title.split()
    cited_ids = [r.id for r in records if set(r.title.split()) & set(topic_words)][:20]
    cited = {f"k{i}": r for i, r in enumerate(kb.get_many(cited_ids).values())}
    abstract = " ".join(rng.choice(topic_words) if rng.random() < 0.5 else records[rng.randrange(1000)].title
                        for _ in range(60))
    draft = DraftContext(title=" ".join(topic_words), abstract=abstract, cited=cited, in_kb=frozenset(cited))
    t1 = time.perf_counter()
    sources = default_sources(kb)
    citing_index_s = time.perf_counter() - t1
    t2 = time.perf_counter()
    select_papers(draft, kb, SelectionParams(breadth=30, hops=1), sources=sources)
    cold_s = time.perf_counter() - t2  # loads the BM25 index and the vector snapshot once
    rows = {}
    paper_fit = Engines(Settings()).paper_fit()  # the product's: the cross-encoder reads 100 candidates
    for name, hops, fit in (("hops=1", 1, None), ("hops=2", 2, None), ("hops=1+fit", 1, paper_fit)):
        params = SelectionParams(breadth=30, hops=hops)
        times: list[float] = []
        stats: dict[str, object] = {}
        for _ in range(args.runs):
            started = time.perf_counter()
            selection = select_papers(draft, kb, params, sources=sources, paper_fit=fit)
            times.append(time.perf_counter() - started)
            stats = dict(selection.stats)
        metrics = graph_metrics(selection.graph, [p.record.id for p in selection.papers])
        rows[name] = {
            "median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
            "max_s": round(max(times), 3), "graph_nodes": stats.get("graph_nodes"),
            "graph_edges": stats.get("graph_edges"), "selected": len(selection.papers),
            "themes": len(selection.themes), "selected_avg_degree": round(metrics["avg_degree"], 2),
        }
    result = {
        "records": len(kb), "embedder": "HashingEmbedder(384)", "store": "Qdrant Edge (default) + BM25",
        "index_build_s": round(build_s, 1), "citing_index_scan_s": round(citing_index_s, 2),
        "first_call_s": round(cold_s, 2),
        "draft": {"cited": len(cited), "abstract_words": len(abstract.split())}, "runs": args.runs, "results": rows,
    }
    kb.close()
    tmp.cleanup()
    print(f"\nSelect 30 papers against {result['records']} records ({result['embedder']}); "
          f"one-time reverse-citation scan {citing_index_s:.2f} s, first call (loads indexes) {cold_s:.2f} s")
    print(f"{'setting':10} {'median s':>9} {'min s':>7} {'max s':>7} {'graph nodes':>12} {'edges':>7} {'themes':>7}")
    for name, row in rows.items():
        print(f"{name:10} {row['median_s']:9.3f} {row['min_s']:7.3f} {row['max_s']:7.3f} "
              f"{row['graph_nodes']!s:>12} {row['graph_edges']!s:>7} {row['themes']:>7}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
