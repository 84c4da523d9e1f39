"""Reranking on ACM-CR with the citation model, on what 2 CPU cores can embed in a session.

A dense index of the full collection (111k records) takes about 70 minutes of CPU to build, so
this benchmark does not measure hybrid-then-rerank on the full collection. It measures reranking
of BM25 candidates instead: BM25 over every @article/@inproceedings record of the full collection
(the product's BM25), the top N candidates of each test query, and only those candidates embedded
with the product embedder. Rankings compared on the same candidates: BM25's order, cosine of the
product embedder's query vector (dense rerank), cosine of the citation model's claim vector
(model rerank), and reciprocal-rank fusion of BM25 and the model. Recall is bounded by BM25@N.
Queries: the test half of ACM-CR by query paper (``bench/splits.py``).

    python bench/rerank_quality.py [--depth 20] [--abstract-depth 50] [--embed-cache FILE]

Prints a table and writes bench/results/rerank_quality.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_embedders import CachedEmbedder, make_embedder
from retrieval_quality import DATA, RESULTS, _doc_key, blacklist, ndcg_at, read_queries, recall_at, tasks
from splits import acm_topic_papers, half_of, title_index

from relatex.analysis.claims.citation_model import CitationReranker, ClaimEncoder
from relatex.analysis.claims.cross_encoder import CrossEncoder


def test_topics(data: Path) -> dict[str, tuple[dict[str, str], dict[str, set[str]]]]:
    """The tasks restricted to topics of test-half query papers (``bench/splits.py``)."""
    titles = title_index(read_queries(data / "queries.jsonl"))
    owner = {**acm_topic_papers(data / "topics+qrels/contexts.topics", titles),
             **acm_topic_papers(data / "topics+qrels/sentences.topics", titles)}
    out: dict[str, tuple[dict[str, str], dict[str, set[str]]]] = {}
    for task, (queries, qrels) in tasks(data).items():
        keep: dict[str, str] = {}
        for qid, text in queries.items():
            doi = qid.lower() if task == "abstracts" else owner.get(qid)
            if doi is not None and half_of(doi) == "test":
                keep[qid] = text
        out[task] = (keep, {q: r for q, r in qrels.items() if q in keep})
    return out


def collection(data: Path) -> Iterator[tuple[str, str, str]]:
    """(doc key, BM25 text, embedding text) of every @article/@inproceedings record, once each."""
    from relatex.retrieval.record_store import lexical_text
    from relatex.retrieval.sources.bibtex_source import BibSource

    seen: set[str] = set()
    for record in BibSource(data / "acm-dl.bib.gz", name="acm-dl", entry_types={"article", "inproceedings"}):
        key = _doc_key(record)
        if key not in seen:
            seen.add(key)
            yield key, lexical_text(record), record.embedding_text()


def rrf(*rankings: Sequence[str], k: int = 60) -> list[str]:
    scores: dict[str, float] = {}
    for ranking in rankings:
        for i, doc in enumerate(ranking):
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + i + 1)
    return sorted(scores, key=lambda d: -scores[d])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--depth", type=int, default=20, help="BM25 candidates per paragraph/sentence query")
    parser.add_argument("--abstract-depth", type=int, default=50, help="BM25 candidates per abstract query")
    parser.add_argument("--max-queries", type=int, default=150, help="test queries per task at most")
    parser.add_argument("--embed-cache", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=None, help="int8 ONNX claim encoder (default: shipped)")
    parser.add_argument("--cross", type=Path, default=None, help="int8 ONNX cross-encoder (default: shipped)")
    parser.add_argument("--out", type=Path, default=RESULTS / "rerank_quality.json")
    args = parser.parse_args(argv)
    from relatex.retrieval.lexical import LexicalIndex

    started = time.perf_counter()
    texts: dict[str, str] = {}

    def documents() -> Iterator[tuple[str, str]]:
        for key, lexical, embedding in collection(args.data):
            texts[key] = embedding
            yield key, lexical

    index = LexicalIndex.build(documents())
    print(f"BM25 over {len(index)} records in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    excluded = blacklist(args.data)
    inner, embedder_name = make_embedder()
    embedder = CachedEmbedder(inner, args.embed_cache)
    reranker = CitationReranker(ClaimEncoder(args.model))
    card = reranker.encoder.card  # the cross-encoder reads papers as the card says, as in the product
    cross = CrossEncoder(args.cross, max_tokens=card.cross_max_tokens, focus_words=card.cross_focus_words)
    results: dict = {"embedder": embedder_name, "model": reranker.encoder.model_id, "records": len(index),
                     "depth": args.depth, "abstract_depth": args.abstract_depth, "tasks": {}}
    for task, (queries, qrels) in test_topics(args.data).items():
        depth = args.abstract_depth if task == "abstracts" else args.depth
        chosen = sorted(qrels)[: args.max_queries]
        candidates = {q: [d for d, _ in index.search(queries[q], depth, excluded)] for q in chosen}
        needed = sorted({d for c in candidates.values() for d in c})
        vectors = dict(zip(needed, embedder.embed([texts[d] for d in needed]), strict=True)) if needed else {}
        embedder.save()
        runs: dict[str, list[float]] = {}
        for q in chosen:
            docs = candidates[q]
            if not docs:
                continue
            matrix = np.vstack([vectors[d] for d in docs])
            dense = matrix @ embedder.embed([queries[q]])[0]
            model = reranker.scores(queries[q], matrix)
            by_model = [docs[i] for i in np.argsort(-model, kind="stable")]
            by_cross = [docs[i] for i in np.argsort(-cross.logits(queries[q], [texts[d] for d in docs]),
                                                    kind="stable")]
            orders = {"bm25": docs, "dense rerank": [docs[i] for i in np.argsort(-dense, kind="stable")],
                      "model rerank": by_model, "rrf(bm25, model)": rrf(docs, by_model),
                      "cross-encoder rerank": by_cross, "rrf(bm25, cross-encoder)": rrf(docs, by_cross)}
            for name, order in orders.items():
                runs.setdefault(f"{name}|R@10", []).append(recall_at(order, qrels[q], 10))
                runs.setdefault(f"{name}|nDCG@10", []).append(ndcg_at(order, qrels[q], 10))
                runs.setdefault(f"{name}|R@{depth}", []).append(recall_at(order, qrels[q], depth))
        table: dict[str, dict[str, float]] = {}
        for key, values in runs.items():
            name, metric = key.split("|")
            table.setdefault(name, {})[metric] = round(float(np.mean(values)), 4)
        results["tasks"][task] = {"queries": len(chosen), "embedded_candidates": len(needed), "runs": table}
        for name, row in table.items():
            print(f"{task:10} {name:18} " + "  ".join(f"{m} {v:.3f}" for m, v in row.items()))
    embedder.save()
    results["elapsed_seconds"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
