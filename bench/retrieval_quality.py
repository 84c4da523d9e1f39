"""Retrieval quality on ACM-CR: BM25, dense and hybrid side by side.

Tasks (queries -> relevant documents):
  paragraphs  contexts.topics / contexts.qrels  (published BM25: R@10 0.3358, nDCG@10 0.2827)
  sentences   sentences.topics / sentences.qrels (published BM25+SciBERT: R@10 0.4030, nDCG@10 0.3231)
  abstracts   each query paper's abstract (queries.jsonl) -> its in-collection references
The 50 query papers (blacklist.txt) are excluded from every result list.

Usage:
  # subset mode: write a subset of the collection and index it with `relatex index`
  python bench/retrieval_quality.py make-subset --out /work/kb-acm-subset/acm-subset.bib.gz --distractors 6000
  relatex index /work/kb-acm-subset/acm-subset.bib.gz --data-dir /work/kb-acm-subset --kb-name acm --name acm-dl
  # evaluate an indexed knowledge base (full or subset); --full-bm25 adds BM25 over the whole collection
  python bench/retrieval_quality.py evaluate --kb /work/kb-acm-subset/acm --mode-label subset --full-bm25

The subset holds every qrels-relevant document, every in-collection reference of the query papers
and a seeded random sample of other @article/@inproceedings entries (distractors): recall on it is
higher than on the full collection; the BM25 rows on both show by how much.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "acm-cr"
RESULTS = ROOT / "bench" / "results"


# -- ACM-CR files ------------------------------------------------------------------------------
def read_topic_field(path: Path, field: str) -> dict[str, str]:
    """topic id -> one field ("title" or "desc") of each topic of a TREC topics file."""
    ends = {"title": r"(?:<desc>|$)", "desc": r"(?:<narr>|$)"}
    label = r"\s*Description:" if field == "desc" else ""
    text = path.read_text(encoding="utf-8")
    topics: dict[str, str] = {}
    for block in re.findall(r"<top>(.*?)</top>", text, flags=re.S):
        num = re.search(r"<num>\s*Number:\s*(\S+)", block)
        value = re.search(rf"<{field}>{label}\s*(.*?){ends[field]}", block, flags=re.S)
        if num and value:
            topics[num.group(1)] = " ".join(value.group(1).split())
    return topics


def read_topics(path: Path) -> dict[str, str]:
    """topic id -> description (the citation context) of a TREC topics file."""
    return read_topic_field(path, "desc")


def read_qrels(path: Path) -> dict[str, set[str]]:
    qrels: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) >= 4 and parts[3].strip() != "0":
            qrels.setdefault(parts[0], set()).add(parts[2].strip().lower())
    return qrels


def read_queries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def blacklist(data: Path) -> set[str]:
    return {line.strip().lower() for line in (data / "topics+qrels/blacklist.txt").read_text().splitlines() if line.strip()}


def tasks(data: Path) -> dict[str, tuple[dict[str, str], dict[str, set[str]]]]:
    tq = data / "topics+qrels"
    result = {
        "paragraphs": (read_topics(tq / "contexts.topics"), read_qrels(tq / "contexts.qrels")),
        "sentences": (read_topics(tq / "sentences.topics"), read_qrels(tq / "sentences.qrels")),
    }
    queries, qrels = {}, {}
    for paper in read_queries(data / "queries.jsonl"):
        relevant = {ref["target"].lower() for ref in paper["references"].values() if ref.get("in_collection")}
        if relevant and paper.get("abstract"):
            queries[paper["doi"]] = " ".join(paper["abstract"].split())
            qrels[paper["doi"]] = relevant
    result["abstracts"] = (queries, qrels)
    return result


# -- subset ------------------------------------------------------------------------------------
_KEY = re.compile(r"^@(\w+)\s*\{\s*([^,\s]+)\s*,", re.S)
_DOI = re.compile(r"^\s*doi\s*=\s*\{([^}]*)\}", re.M | re.I)


def raw_blocks(path: Path) -> Iterator[tuple[str, str, str | None, str]]:
    """(entry type, key, doi, raw text) of each entry, split at lines starting with '@'."""
    block: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("@") and block:
                yield from _parse_block("".join(block))
                block = []
            block.append(line)
    if block:
        yield from _parse_block("".join(block))


def _parse_block(text: str) -> Iterator[tuple[str, str, str | None, str]]:
    match = _KEY.match(text)
    if match:
        doi = _DOI.search(text)
        yield match.group(1).lower(), match.group(2).lower(), doi.group(1).strip().lower() if doi else None, text


def make_subset(data: Path, out: Path, distractors: int, seed: int = 0) -> dict:
    wanted: set[str] = set()
    for _queries, qrels in tasks(data).values():
        for rel in qrels.values():
            wanted |= rel
    kept, others, seen = [], [], set()
    for etype, key, doi, text in raw_blocks(data / "acm-dl.bib.gz"):
        if etype not in {"article", "inproceedings"} or key in seen:
            continue
        seen.add(key)
        if key in wanted or (doi and doi in wanted):
            kept.append(text)
        else:
            others.append(text)
    rng = random.Random(seed)
    sample = rng.sample(others, min(distractors, len(others)))
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", encoding="utf-8") as handle:
        for text in kept + sample:
            handle.write(text.rstrip() + "\n\n")
    info = {"relevant_in_subset": len(kept), "distractors": len(sample), "total": len(kept) + len(sample),
            "collection_entries": len(seen), "seed": seed, "path": str(out)}
    out.with_suffix(".json").write_text(json.dumps(info, indent=2))
    return info


# -- metrics -----------------------------------------------------------------------------------
def recall_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant) if relevant else 0.0


def ndcg_at(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    dcg = sum(1.0 / math.log2(i + 2) for i, rid in enumerate(ranked[:k]) if rid in relevant)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return dcg / ideal if ideal else 0.0


def evaluate_run(
    search: Callable[[str, int], list[str]],
    queries: dict[str, str],
    qrels: dict[str, set[str]],
    depth: int,
) -> dict[str, float]:
    scores: dict[str, list[float]] = {"R@10": [], "R@20": [], "R@50": [], "nDCG@10": []}
    started = time.perf_counter()
    for qid, relevant in qrels.items():
        if qid not in queries:
            continue
        ranked = search(queries[qid], depth)
        scores["R@10"].append(recall_at(ranked, relevant, 10))
        scores["R@20"].append(recall_at(ranked, relevant, 20))
        scores["R@50"].append(recall_at(ranked, relevant, 50))
        scores["nDCG@10"].append(ndcg_at(ranked, relevant, 10))
    n = len(scores["R@10"])
    result = {name: round(sum(v) / n, 4) if n else 0.0 for name, v in scores.items()}
    result["queries"] = n
    result["ms_per_query"] = round(1000 * (time.perf_counter() - started) / max(n, 1), 1)
    return result


def _doc_key(record) -> str:  # type: ignore[no-untyped-def]
    """The ACM-CR document id of a record: its DOI, else its BibTeX key (both lower case)."""
    return (record.doi or record.bibtex_key or record.id).lower()


def evaluate(kb_dir: Path, data: Path, label: str, full_bm25: bool, fusions: Sequence[str]) -> dict:
    from relatex.retrieval.knowledge_base import KnowledgeBase

    excluded_docs = blacklist(data)
    results: dict = {"mode": label, "kb": str(kb_dir), "tasks": {}}
    # writer mode: brings BM25 up to date if the index run was interrupted
    with KnowledgeBase.open(kb_dir, read_only=False) as kb:
        results["kb_records"] = len(kb)
        results["embedder"] = kb.embedder.model_id
        exclude = {r.id for d in excluded_docs if (r := kb.resolve(d)) is not None}

        def runner(mode: str, fusion: str = "rrf", alpha: float = 0.5) -> Callable[[str, int], list[str]]:
            def search(query: str, depth: int) -> list[str]:
                kb.fusion, kb.fusion_alpha = fusion, alpha
                return [_doc_key(h.record) for h in kb.search(query, k=depth, mode=mode, exclude=exclude)]
            return search

        runs: dict[str, Callable[[str, int], list[str]]] = {
            "bm25": runner("bm25"),
            "dense": runner("dense"),
        }
        for fusion in fusions:
            name, _, alpha = fusion.partition(":")
            runs[f"hybrid-{fusion}"] = runner("hybrid", name, float(alpha or 0.5))
        for task, (queries, qrels) in tasks(data).items():
            results["tasks"][task] = {name: evaluate_run(run, queries, qrels, 50) for name, run in runs.items()}
            print(f"  {task}: done", file=sys.stderr)
    if full_bm25:
        results["full_collection_bm25"] = full_collection_bm25(data, excluded_docs)
    return results


def full_collection_bm25(data: Path, excluded_docs: set[str]) -> dict:
    """BM25 over every @article/@inproceedings entry of the full collection (no embeddings needed)."""
    from relatex.retrieval.lexical import LexicalIndex
    from relatex.retrieval.record_store import lexical_text
    from relatex.retrieval.sources.bibtex_source import BibSource

    source = BibSource(data / "acm-dl.bib.gz", name="acm-dl", entry_types={"article", "inproceedings"})
    seen: set[str] = set()

    def docs() -> Iterator[tuple[str, str]]:
        for record in source:
            key = _doc_key(record)
            if key not in seen:
                seen.add(key)
                yield key, lexical_text(record)

    started = time.perf_counter()
    index = LexicalIndex.build(docs())
    build_s = time.perf_counter() - started
    out: dict = {"documents": len(index), "build_seconds": round(build_s, 1)}
    for task, (queries, qrels) in tasks(data).items():
        out[task] = evaluate_run(
            lambda q, depth: [rid for rid, _ in index.search(q, depth, excluded_docs)], queries, qrels, 50
        )
    return out


def print_table(results: dict) -> None:
    print(f"ACM-CR retrieval quality ({results['mode']}, {results['kb_records']:,} records, {results['embedder']})")
    print(f"{'task':<11} {'run':<22} {'R@10':>7} {'R@20':>7} {'R@50':>7} {'nDCG@10':>8} {'ms/q':>7}")
    for task, runs in results["tasks"].items():
        for name, m in runs.items():
            print(f"{task:<11} {name:<22} {m['R@10']:>7.4f} {m['R@20']:>7.4f} {m['R@50']:>7.4f} {m['nDCG@10']:>8.4f} {m['ms_per_query']:>7.1f}")
    full = results.get("full_collection_bm25")
    if full:
        print(f"BM25 on the full collection ({full['documents']:,} documents):")
        for task in ("paragraphs", "sentences", "abstracts"):
            m = full[task]
            print(f"{task:<11} {'bm25 (full)':<22} {m['R@10']:>7.4f} {m['R@20']:>7.4f} {m['R@50']:>7.4f} {m['nDCG@10']:>8.4f} {m['ms_per_query']:>7.1f}")
    print("published (full collection): paragraphs BM25 R@10 0.3358 nDCG@10 0.2827; "
          "sentences BM25+SciBERT R@10 0.4030 nDCG@10 0.3231")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    mk = sub.add_parser("make-subset", help="write the subset collection (.bib.gz)")
    mk.add_argument("--data", type=Path, default=DATA)
    mk.add_argument("--out", type=Path, required=True)
    mk.add_argument("--distractors", type=int, default=6000)
    mk.add_argument("--seed", type=int, default=0)
    ev = sub.add_parser("evaluate", help="evaluate an indexed knowledge base directory")
    ev.add_argument("--data", type=Path, default=DATA)
    ev.add_argument("--kb", type=Path, required=True, help="knowledge base directory (<data-dir>/<kb-name>)")
    ev.add_argument("--mode-label", default="full", help="'full' or 'subset' (recorded in the JSON)")
    ev.add_argument("--full-bm25", action="store_true", help="also BM25 over the whole collection")
    ev.add_argument("--fusion", action="append", default=None,
                    help="fusion runs: rrf, convex:<alpha> (repeatable; default rrf, convex:0.5, convex:0.7)")
    ev.add_argument("--out", type=Path, default=RESULTS / "retrieval_quality.json")
    args = parser.parse_args(argv)
    if args.command == "make-subset":
        print(json.dumps(make_subset(args.data, args.out, args.distractors, args.seed), indent=2))
        return 0
    results = evaluate(args.kb, args.data, args.mode_label, args.full_bm25,
                       args.fusion or ["rrf", "convex:0.5", "convex:0.7"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print_table(results)
    print(f"written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
