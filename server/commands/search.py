"""`relatex search "text"`: ranked papers from the knowledge base with scores, year and venue."""

from __future__ import annotations

import argparse
import json
import sys

from relatex.retrieval.indexing import SearchHit
from relatex.retrieval.rerank import RERANK_DEPTH
from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, UseCaseFailed
from relatex.workflows.search import SEARCH_MODES, SearchRequest, search


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="+", help="search text (title, abstract, sentence, keywords)")
    parser.add_argument("-k", type=int, default=10, help="number of results (default 10)")
    parser.add_argument("--mode", choices=SEARCH_MODES, default="hybrid", help="ranking (default hybrid)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--exclude", action="append", default=[], metavar="ID",
                        help="record id to leave out (repeatable)")
    parser.add_argument("--rerank", action="store_true", help="rerank the top hits with the citation model (it lowered recall on the full ACM-CR collection: see bench/README.md)")
    parser.add_argument("--rerank-depth", type=int, default=RERANK_DEPTH, metavar="N",
                        help=f"hits the citation model reranks (default {RERANK_DEPTH})")


def hit_json(rank: int, hit: SearchHit) -> dict[str, object]:
    r = hit.record
    return {
        "rank": rank, "id": r.id, "score": round(hit.score, 6), "title": r.title, "authors": list(r.authors),
        "year": r.year, "venue": r.venue, "doi": r.doi, "arxiv_id": r.arxiv_id, "url": r.url,
        "dense_rank": hit.dense_rank, "bm25_rank": hit.lexical_rank,
    }


def hit_text(rank: int, hit: SearchHit) -> str:
    r = hit.record
    authors = r.authors[0].split(",")[0] + (" et al." if len(r.authors) > 2 else
                                            f" and {r.authors[1].split(',')[0]}" if len(r.authors) == 2 else "") if r.authors else "?"
    where = ", ".join(str(x) for x in (r.year, r.venue) if x)
    ranks = ", ".join(f"{name} #{value}" for name, value in (("dense", hit.dense_rank), ("bm25", hit.lexical_rank)) if value)
    line = f"{rank:>3}. {hit.score:8.4f}  {r.title}\n       {authors} ({where})  [{r.id}]"
    return f"{line}  {ranks}" if ranks else line


def run(args: argparse.Namespace, engines: Engines) -> int:
    request = SearchRequest(" ".join(args.query), k=args.k, mode=args.mode, exclude=tuple(args.exclude),
                            rerank=args.rerank, rerank_depth=args.rerank_depth)
    try:
        result = search(request, engines)
    except UseCaseFailed as exc:
        print(f"relatex search: {exc}", file=sys.stderr)
        return 2 if exc.kind == BAD_REQUEST else 1
    for note in result.notes:
        print(f"relatex search: {note}", file=sys.stderr)
    hits = result.hits
    if args.format == "json":
        print(json.dumps([hit_json(i, h) for i, h in enumerate(hits, 1)], ensure_ascii=False, indent=2))
    else:
        if not hits:
            print("no results", file=sys.stderr)
        for i, hit in enumerate(hits, 1):
            print(hit_text(i, hit))
    return 0
