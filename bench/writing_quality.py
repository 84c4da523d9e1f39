"""Quality of the offline related-work writer on ACM-CR, against LexRank and TextRank.

For every ACM-CR query paper of the test half (``bench/splits.py``; ``--half all`` for every one)
with a related-work text and cited papers in the collection, every system gets the same inputs:
the abstracts of exactly those cited papers (records from acm-dl.bib.gz) and the query paper's
abstract (the draft; an extra document for the extractive baselines). Systems: the offline writer,
LexRank, TextRank and the lead sentence of each cited abstract, each at the gold section's length
and at the offline writer's length ("-same-length"). Reported per system: ROUGE-1/2/L F1 against the gold
related-work text (every system truncated to the gold length in words), and for the offline
writer: citation validity, retention (share of given papers cited), the co-citation graph of
the written paragraphs (SRW's graph metrics), the longest verbatim run of words shared with an
abstract, and the time per section. The LLM path (Select-Read-Write) is run against the local
Messages API server with scripted answers: its token counts show the cost structure of a run,
they are NOT quality numbers.

    python bench/writing_quality.py [--data ../shared/data] [--limit N] [--llm-sections 5] [--baseline OLD.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # tests.fakes (the local Messages API server)

from bench.writing_baselines import (  # noqa: E402
    extractive,
    gold_graph_metrics,
    graph_metrics,
    lead_sentences,
    mean,
    plain,
    truncate_words,
)
from relatex.analysis.bib.bibtex import parse_bib_text  # noqa: E402
from relatex.analysis.latex.project_model import LatexProject  # noqa: E402
from relatex.retrieval.communities import detect_communities  # noqa: E402
from relatex.retrieval.layers import assign_layers  # noqa: E402
from relatex.retrieval.records import PaperRecord  # noqa: E402
from relatex.retrieval.selection import SelectedPaper, Selection, Theme  # noqa: E402
from relatex.retrieval.sources.bibtex_source import bib_entry_record  # noqa: E402
from relatex.retrieval.theme_labels import label_communities  # noqa: E402
from relatex.writing.generate import WritingOptions, generate_related_work  # noqa: E402
from relatex.writing.latex_validator import cited_keys  # noqa: E402
from relatex.writing.offline_writer import longest_copied_run  # noqa: E402

RESULTS = REPO / "bench" / "results" / "writing_quality.json"


# -- data ------------------------------------------------------------------------------------
def load_queries(data: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (data / "acm-cr" / "queries.jsonl").open(encoding="utf-8")]
    return [r for r in rows if (r.get("related_work_text") or "").strip() and r.get("related_work_cited_in_collection")]


def load_records(data: Path, wanted: set[str]) -> dict[str, PaperRecord]:
    """Records of the wanted keys/DOIs, by scanning acm-dl.bib.gz once and parsing only those blocks."""
    blocks: list[str] = []
    current: list[str] = []
    keep = False
    head = re.compile(r"@\w+\s*\{\s*([^,\s]+)\s*,")
    with gzip.open(data / "acm-cr" / "acm-dl.bib.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("@"):
                if keep:
                    blocks.append("".join(current))
                match = head.match(line)
                keep = bool(match and match.group(1).lower() in wanted)
                current = [line]
            elif keep:
                current.append(line)
    if keep:
        blocks.append("".join(current))
    bib = parse_bib_text("\n".join(blocks), Path("acm-dl.bib"))
    out: dict[str, PaperRecord] = {}
    for entry in bib.entries:
        made = bib_entry_record(entry, "acm")
        if isinstance(made, tuple):
            out.setdefault(entry.key.lower(), made[0])
    return out


# -- selection like the product's: semantic graph, Louvain themes, SurveyG layers ------------------
def make_selection(records: list[PaperRecord], embed: Any) -> Selection:
    vectors_arr = embed([r.embedding_text() for r in records])
    vectors = {r.id: vectors_arr[i] for i, r in enumerate(records)}
    graph = nx.DiGraph()
    undirected = nx.Graph()
    for r in records:
        graph.add_node(r.id, record=r)
        undirected.add_node(r.id)
    sims = vectors_arr @ vectors_arr.T
    np.fill_diagonal(sims, -1.0)
    for i, r in enumerate(records):
        for j in np.argsort(-sims[i])[:3]:
            if sims[i, j] >= 0.3:
                other = records[int(j)].id
                graph.add_edge(r.id, other, kinds={"semantic": float(sims[i, j])}, weight=float(sims[i, j]))
                undirected.add_edge(r.id, other, weight=float(sims[i, j]))
    by_id = {r.id: r for r in records}
    communities = detect_communities(undirected, vectors)
    labels = label_communities(communities, by_id)
    layers, _ = assign_layers(by_id, {}, foundation_k=max(1, len(records) // 4))
    theme_of = {pid: c for c, members in enumerate(communities) for pid in members}
    themes = tuple(Theme(id=c, label=labels[c][0], terms=labels[c][1], paper_ids=tuple(m), order=c)
                   for c, m in enumerate(communities))
    order = tuple(sorted(by_id, key=lambda p: (theme_of.get(p, 0), by_id[p].year or 0)))
    papers = tuple(SelectedPaper(record=r, score=1.0, relevance=float(sims[i].max()), centrality=0.0,
                                 layer=layers.get(r.id, "development"), theme=theme_of.get(r.id, 0))
                   for i, r in enumerate(records))
    return Selection(papers=papers, themes=themes, reading_order=order, graph=graph)


def make_project(query: dict[str, Any]) -> LatexProject:
    root = Path("/nonexistent/acm-cr") / f"{query['doi'].replace('/', '_')}.tex"
    return LatexProject(root=root, root_dir=root.parent, files={}, file_order=(), title=query.get("title"),
                        abstract=query.get("abstract") or "", citation_package="natbib")



# -- the LLM path on the local Messages API server -----------------------------------------------
def llm_usage(cases: list[tuple[LatexProject, Selection]]) -> list[dict[str, Any]]:
    from relatex.writing.anthropic_llm import AnthropicLLM
    from tests.fakes.messages_server import MessagesServer, ScriptedAgents

    rows = []
    for project, selection in cases:
        agents = ScriptedAgents(reads=len(selection.papers))
        with MessagesServer(responder=agents) as server:
            llm = AnthropicLLM("claude-sonnet-5-5", base_url=server.url, api_key="bench", max_retries=0)
            started = time.perf_counter()
            section = generate_related_work(project, {}, selection, llm=llm)
            elapsed = time.perf_counter() - started
        usage = dict(section.usage)
        entry_keys = {e.key for e in section.new_entries}
        usage.update(papers=len(selection.papers), seconds=round(elapsed, 2),
                     citations_resolving=all(k in entry_keys for k in cited_keys(section.latex)))
        rows.append(usage)
    return rows


SYSTEMS = ("offline", "lexrank", "textrank", "lead", "lexrank-same-length", "textrank-same-length",
           "lead-same-length")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--limit", type=int, default=0, help="only the first N query papers")
    parser.add_argument("--llm-sections", type=int, default=5, help="sections written through the fake server")
    parser.add_argument("--hashing", action="store_true", help="model-free embeddings for the themes")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the JSON goes")
    parser.add_argument("--baseline", type=Path, help="an earlier JSON of this script: print the change against it")
    parser.add_argument("--half", choices=("test", "dev", "all"), default="test", help="ACM-CR query papers used")
    return parser.parse_args(argv)


def evaluate_query(query: dict[str, Any], records: dict[str, PaperRecord], embedder: Any, scorer: Any,
                   rouge: dict[str, dict[str, list[float]]]) -> tuple[dict[str, Any], LatexProject, Selection] | None:
    """Every system on one query paper: ROUGE into ``rouge``; the offline writer's row, or None without abstracts."""
    cited = [records[d.lower()] for d in query["related_work_cited_in_collection"] if d.lower() in records]
    cited = [r for r in cited if r.abstract]
    if not cited:
        return None
    selection = make_selection(cited, embedder.embed)
    project = make_project(query)
    t0 = time.perf_counter()
    section = generate_related_work(project, {}, selection, options=WritingOptions())
    seconds = time.perf_counter() - t0
    gold = query["related_work_text"]
    budget = len(gold.split())
    abstracts = [r.abstract or "" for r in cited]
    offline_text = truncate_words(plain(section.latex), budget)
    same = len(offline_text.split())
    inputs = abstracts + [project.abstract or ""]  # the same inputs as the offline writer
    outputs = {"offline": offline_text}
    for length, words in (("", budget), ("-same-length", same)):
        outputs[f"lexrank{length}"] = extractive(inputs, words, "lexrank")
        outputs[f"textrank{length}"] = extractive(inputs, words, "textrank")
        outputs[f"lead{length}"] = lead_sentences(inputs, words)
    for system, text in outputs.items():
        scores = scorer.score(gold, text)
        for metric in rouge[system]:
            rouge[system][metric].append(scores[metric].fmeasure)
    keys = cited_keys(section.latex)
    given = {p.record.id for p in selection.papers}
    entry_keys = {e.key for e in section.new_entries}  # no .bib in this setting: every key needs an entry
    resolved = [k for k in keys if k in entry_keys]
    row = {
        "doi": query["doi"], "papers": len(cited), "gold_words": budget,
        "offline_words": len(plain(section.latex).split()), "seconds": round(seconds, 3),
        "citations": len(keys), "valid_share": len(resolved) / len(keys) if keys else 1.0,
        "retention": len(set(section.cited_keys)) / len(given),
        "longest_copied_run": longest_copied_run(section.latex, abstracts),
        "longest_copied_run_lexrank": longest_copied_run(outputs["lexrank"], abstracts),
        **graph_metrics(section.latex),
        **{f"gold_{k}": v for k, v in gold_graph_metrics(gold).items()},
    }
    return row, project, selection


def summarise(args: argparse.Namespace, rouge: dict[str, dict[str, list[float]]], per_section: list[dict[str, Any]],
              llm_rows: list[dict[str, Any]], embedder: Any) -> dict[str, Any]:
    return {
        "sections": len(per_section),
        "rouge": {s: {m: round(mean(v), 4) for m, v in ms.items()} for s, ms in rouge.items()},
        "offline": {
            "citation_validity": round(mean([r["valid_share"] for r in per_section]), 4),
            "retention": round(mean([r["retention"] for r in per_section]), 4),
            "paragraph_edges": round(mean([r["paragraph_edges"] for r in per_section]), 2),
            "paragraph_avg_degree": round(mean([r["paragraph_avg_degree"] for r in per_section]), 2),
            "paragraph_clustering": round(mean([r["paragraph_clustering"] for r in per_section]), 3),
            "sentence_edges": round(mean([r["sentence_edges"] for r in per_section]), 2),
            "sentence_avg_degree": round(mean([r["sentence_avg_degree"] for r in per_section]), 2),
            "sentence_clustering": round(mean([r["sentence_clustering"] for r in per_section]), 3),
            "longest_copied_run_max": max((r["longest_copied_run"] for r in per_section), default=0),
            "longest_copied_run_mean": round(mean([r["longest_copied_run"] for r in per_section]), 2),
            "seconds_per_section": round(mean([r["seconds"] for r in per_section]), 3),
            "words_per_section": round(mean([r["offline_words"] for r in per_section]), 1),
        },
        "gold": {
            "sentence_edges": round(mean([r["gold_sentence_edges"] for r in per_section]), 2),
            "sentence_avg_degree": round(mean([r["gold_sentence_avg_degree"] for r in per_section]), 2),
            "sentence_clustering": round(mean([r["gold_sentence_clustering"] for r in per_section]), 3),
            "words_per_section": round(mean([r["gold_words"] for r in per_section]), 1),
        },
        "lexrank_longest_copied_run_mean": round(mean([r["longest_copied_run_lexrank"] for r in per_section]), 1),
        "llm_fake_server": {
            "note": "scripted answers from tests/fakes/messages_server.py: token counts and call structure only, "
                    "not quality",
            "sections": llm_rows,
        },
        "embedder": getattr(embedder, "model_id", type(embedder).__name__),
        "half": args.half,
        "inputs": "every system: the cited abstracts in the collection and the query paper's abstract",
    }


def print_summary(summary: dict[str, Any], llm_rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    systems = SYSTEMS
    print(f"\nACM-CR related-work sections ({args.half} half): {summary['sections']} (every system given the cited "
          "papers in the collection and the draft's abstract)\n")
    print("budget: the gold section's length in words; '-same-length': the offline writer's output length")
    print(f"{'system':<22} {'ROUGE-1':>8} {'ROUGE-2':>8} {'ROUGE-L':>8}")
    for system in systems:
        r = summary["rouge"][system]
        print(f"{system:<22} {r['rouge1']:>8.4f} {r['rouge2']:>8.4f} {r['rougeL']:>8.4f}")
    o = summary["offline"]
    g = summary["gold"]
    print(f"\noffline writer: citation validity {o['citation_validity']:.0%}, retention {o['retention']:.0%}, "
          f"longest copied run {o['longest_copied_run_max']} words (mean {o['longest_copied_run_mean']}; "
          f"LexRank mean {summary['lexrank_longest_copied_run_mean']}), {o['seconds_per_section']:.3f} s/section, "
          f"{o['words_per_section']:.0f} words (gold {g['words_per_section']:.0f})")
    print(f"{'co-citation graph':<26} {'edges':>7} {'avg degree':>11} {'clustering':>11}")
    print(f"{'offline, paragraph level':<26} {o['paragraph_edges']:>7.2f} {o['paragraph_avg_degree']:>11.2f} "
          f"{o['paragraph_clustering']:>11.3f}")
    print(f"{'offline, sentence level':<26} {o['sentence_edges']:>7.2f} {o['sentence_avg_degree']:>11.2f} "
          f"{o['sentence_clustering']:>11.3f}")
    print(f"{'gold, sentence level':<26} {g['sentence_edges']:>7.2f} {g['sentence_avg_degree']:>11.2f} "
          f"{g['sentence_clustering']:>11.3f}")
    if llm_rows:
        print("\nLLM path on the local fake Messages API (scripted answers; token counts only, not quality):")
        print(f"{'papers':>6} {'calls':>6} {'input':>8} {'cache read':>11} {'cache write':>12} {'output':>7} {'est. $':>7}")
        for row in llm_rows:
            print(f"{row['papers']:>6} {row['calls']:>6} {row['input_tokens']:>8} {row['cache_read_tokens']:>11} "
                  f"{row['cache_creation_tokens']:>12} {row['output_tokens']:>7} {row['estimated_cost_usd']:>7.3f}")


def compare_baseline(summary: dict[str, Any], baseline: Path) -> None:
    """Print the change against an earlier JSON of this script and record it in ``summary``."""
    systems = SYSTEMS
    before = json.loads(baseline.read_text(encoding="utf-8"))["summary"]
    print(f"\nagainst {baseline.name}:")
    print(f"{'system':<22} {'metric':<8} {'before':>8} {'after':>8} {'change':>8}")
    for system in systems:
        for metric in ("rouge1", "rouge2", "rougeL"):
            old_value = before["rouge"].get(system, {}).get(metric)
            new_value = summary["rouge"][system][metric]
            if old_value is not None:
                print(f"{system:<22} {metric:<8} {old_value:>8.4f} {new_value:>8.4f} {new_value - old_value:>+8.4f}")
    summary["baseline"] = {"file": baseline.name, "rouge": before["rouge"],
                           "offline": {k: before["offline"].get(k) for k in
                                       ("citation_validity", "longest_copied_run_max", "words_per_section")}}


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    from rouge_score import rouge_scorer

    from bench.splits import half_of

    queries = [q for q in load_queries(args.data) if args.half == "all" or half_of(q["doi"]) == args.half]
    if args.limit:
        queries = queries[: args.limit]
    wanted = {d.lower() for q in queries for d in q["related_work_cited_in_collection"]}
    started = time.perf_counter()
    records = load_records(args.data, wanted)
    print(f"{len(queries)} query papers, {len(records)}/{len(wanted)} cited papers found in acm-dl.bib.gz "
          f"({time.perf_counter() - started:.0f}s)", file=sys.stderr)
    if args.hashing:
        from relatex.retrieval.embedding import HashingEmbedder

        embedder: Any = HashingEmbedder()
    else:
        from relatex.retrieval.embedding import FastEmbedEmbedder

        embedder = FastEmbedEmbedder()
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    rouge: dict[str, dict[str, list[float]]] = {s: {m: [] for m in ("rouge1", "rouge2", "rougeL")} for s in SYSTEMS}
    per_section: list[dict[str, Any]] = []
    llm_cases: list[tuple[LatexProject, Selection]] = []
    for query in queries:
        evaluated = evaluate_query(query, records, embedder, scorer, rouge)
        if evaluated is None:
            continue
        row, project, selection = evaluated
        per_section.append(row)
        if len(llm_cases) < args.llm_sections:
            llm_cases.append((project, selection))
    llm_rows = llm_usage(llm_cases)
    summary = summarise(args, rouge, per_section, llm_rows, embedder)
    print_summary(summary, llm_rows, args)
    if args.baseline and args.baseline.exists():
        compare_baseline(summary, args.baseline)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "sections": per_section}, indent=2), encoding="utf-8")
    print(f"\nwrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
