"""relatex's BM25 against plain bm25s defaults on the full ACM-CR collection, tuned on dev, reported on test.

Every @article/@inproceedings entry of ``acm-dl.bib.gz`` is indexed (title, abstract and author
keywords, the text relatex indexes). Queries are split by query paper (``bench/splits.py``):
tokenizer and BM25 parameters are chosen on the development half by the mean of paragraphs R@10,
sentences R@10 and abstracts R@50; the table reports the test half for

- ``relatex v1 (before)``: the tokenizer and parameters relatex shipped with (its stop list with
  writing words, Snowball stemming, k1 1.2, b 0.75);
- ``bm25s defaults``: ``bm25s.tokenize`` (English stop words, no stemming), k1 1.5, b 0.75;
- ``dev-chosen``: the best configuration of the grid on the development half (in the first run:
  bm25s's pattern and stop list with Snowball stemming, k1 1.5, which relatex now ships as
  tokenizer version 2, ``relatex-v2`` in the grid).

    python bench/lexical_baselines.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from retrieval_quality import DATA, RESULTS, blacklist, evaluate_run, read_queries, tasks  # type: ignore[import-not-found]
from splits import acm_topic_papers, half_of, title_index  # type: ignore[import-not-found]

from relatex.retrieval.lexical import tokenize

Tokenizer = Callable[[str], list[str]]


def _bm25s_tokenizer() -> Tokenizer:
    from bm25s.stopwords import STOPWORDS_EN

    stop = frozenset(STOPWORDS_EN)
    pattern = re.compile(r"(?u)\b\w\w+\b")
    return lambda text: [w for w in pattern.findall(text.lower()) if w not in stop]


TOKENIZERS: dict[str, Callable[[], Tokenizer]] = {
    "relatex-v1": lambda: (lambda text: tokenize(text, version=1)),
    "bm25s": _bm25s_tokenizer,
    "relatex-v2": lambda: tokenize,  # bm25s's pattern and stop list, Snowball stemming
}
GRID = [(0.9, 0.75), (1.2, 0.75), (1.5, 0.75), (1.2, 0.9)]


def documents(data: Path) -> Iterator[tuple[str, str]]:
    from relatex.retrieval.record_store import lexical_text
    from relatex.retrieval.sources.bibtex_source import BibSource

    seen: set[str] = set()
    for record in BibSource(data / "acm-dl.bib.gz", name="acm-dl", entry_types={"article", "inproceedings"}):
        key = (record.doi or record.bibtex_key or record.id).lower()
        if key not in seen:
            seen.add(key)
            yield key, lexical_text(record)


def split_tasks(data: Path) -> dict[str, dict[str, tuple[dict[str, str], dict[str, set[str]]]]]:
    """half -> task -> (queries, qrels), every query in the half of its query paper."""
    papers = read_queries(data / "queries.jsonl")
    by_title = title_index(papers)
    topic_paper = {
        "paragraphs": acm_topic_papers(data / "topics+qrels" / "contexts.topics", by_title),
        "sentences": acm_topic_papers(data / "topics+qrels" / "sentences.topics", by_title),
    }
    out: dict[str, dict[str, tuple[dict[str, str], dict[str, set[str]]]]] = {"dev": {}, "test": {}}
    for task, (queries, qrels) in tasks(data).items():
        for half in ("dev", "test"):
            def paper(qid: str, task: str = task) -> str:
                return qid.lower() if task == "abstracts" else topic_paper[task].get(qid, qid)
            chosen = {qid for qid in qrels if half_of(paper(qid)) == half}
            out[half][task] = ({q: t for q, t in queries.items() if q in chosen},
                               {q: r for q, r in qrels.items() if q in chosen})
    return out


def searcher(retriever: Any, ids: list[str], tok: Tokenizer, excluded: set[str]) -> Callable[[str, int], list[str]]:
    def search(query: str, depth: int) -> list[str]:
        tokens = [t for t in tok(query) if t in retriever.vocab_dict]
        if not tokens:
            return []
        docs, scores = retriever.retrieve([tokens], k=depth + len(excluded), show_progress=False, n_threads=1)
        ranked = [ids[int(d)] for d, s in zip(np.asarray(docs)[0], np.asarray(scores)[0], strict=True) if s > 0]
        return [r for r in ranked if r not in excluded][:depth]
    return search


def metric_cells(t: dict[str, dict[str, float]]) -> str:
    """Paragraphs R@10 and nDCG@10, sentences R@10 and nDCG@10, abstracts R@50, as table cells."""
    return (f"{t['paragraphs']['R@10']:>9.4f} {t['paragraphs']['nDCG@10']:>9.4f} {t['sentences']['R@10']:>9.4f} "
            f"{t['sentences']['nDCG@10']:>9.4f} {t['abstracts']['R@50']:>9.4f}")


def score(metrics: dict[str, dict[str, float]]) -> float:
    return (metrics["paragraphs"]["R@10"] + metrics["sentences"]["R@10"] + metrics["abstracts"]["R@50"]) / 3


def main() -> int:
    import bm25s

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quick", action="store_true", help="a smaller grid (k1 1.2/1.5, b 0.75)")
    parser.add_argument("--out", type=Path, default=RESULTS / "lexical_baselines.json")
    args = parser.parse_args()
    excluded = blacklist(args.data)
    halves = split_tasks(args.data)
    started = time.perf_counter()
    ids, texts = zip(*documents(args.data), strict=True)
    print(f"{len(ids):,} documents read in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    grid = [(1.2, 0.75), (1.5, 0.75)] if args.quick else GRID
    runs: list[dict[str, Any]] = []
    for name, make in TOKENIZERS.items():
        tok = make()
        started = time.perf_counter()
        corpus = [tok(t) for t in texts]
        tok_s = time.perf_counter() - started
        for k1, b in grid:
            retriever = bm25s.BM25(k1=k1, b=b)
            retriever.index(corpus, show_progress=False)
            search = searcher(retriever, list(ids), tok, excluded)
            result = {half: {task: evaluate_run(search, q, r, 50) for task, (q, r) in halves[half].items()}
                      for half in ("dev", "test")}
            runs.append({"tokenizer": name, "k1": k1, "b": b, "tokenize_seconds": round(tok_s, 1), **result})
            print(f"{name:<15} k1={k1} b={b}: dev {score(result['dev']):.4f} test {score(result['test']):.4f}",
                  file=sys.stderr)

    def find(tokenizer: str, k1: float, b: float) -> dict[str, Any]:
        return next(r for r in runs if (r["tokenizer"], r["k1"], r["b"]) == (tokenizer, k1, b))
    chosen = max(runs, key=lambda r: score(r["dev"]))
    rows = {"relatex v1 (before)": find("relatex-v1", 1.2, 0.75), "bm25s defaults": find("bm25s", 1.5, 0.75),
            "dev-chosen": chosen}
    print(f"{'run':<18} {'config':<28} {'para R@10':>9} {'para nDCG':>9} {'sent R@10':>9} {'sent nDCG':>9} "
          f"{'abs R@50':>9}   (test half; queries {[len(halves['test'][t][1]) for t in halves['test']]})")
    for label, r in rows.items():
        config = f"{r['tokenizer']} k1={r['k1']} b={r['b']}"
        print(f"{label:<18} {config:<28} {metric_cells(r['test'])}")
    result = {
        "benchmark": "lexical_baselines",
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
                    "load_average": os.getloadavg()},
        "split": "ACM-CR by query paper (bench/splits.py); chosen on dev by mean(paragraphs R@10, sentences R@10, "
                 "abstracts R@50); reported on test",
        "documents": len(ids),
        "queries": {half: {task: len(v[1]) for task, v in halves[half].items()} for half in halves},
        "rows": {label: {k: v for k, v in r.items()} for label, r in rows.items()},
        "grid": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
