"""Seeded recall of graph expansion against plain hybrid search, on ACM-CR and the ACL Anthology.

Task: a draft gives its abstract plus a random 30% of its true in-collection references as
existing citations; the system must find the remaining references. Recall@20/50 of the
hidden references, mean over papers, then mean and spread over 3 random seeds.

- ACM-CR (``acm-cr/queries.jsonl``): records carry no reference lists, so the graph has only
  draft-citation, co-citation (from the query paper's own citation contexts, seed keys only)
  and semantic edges.
- ACL (``acl-anthology/citations.jsonl.gz``): real citation edges; a citing paper is the draft,
  its cited ACL papers the references. Its own edges are removed from the graph (leave one out).

The knowledge base is a subset index (every reference, every citing paper for ACL, plus random
distractors with abstracts), embedded with the model-free HashingEmbedder (MiniLM runs at a few
documents per second on this shared machine). Run: ``python bench/graph_expansion.py``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.retrieval.acl_citations import AclCitationIndex, AclCitationSource
from relatex.retrieval.citation_graph import EDGE_TYPES, graph_metrics
from relatex.retrieval.draft import DraftContext
from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.expansion import expand, rank_candidates
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.neighbour_sources import NeighbourSource
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.selection import SelectionParams, default_sources, ppr_types
from relatex.retrieval.sources.bibtex_source import acl_id_from_url, bib_entry_record

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "bench" / "results" / "graph_expansion.json"
_KEY = re.compile(r"@\w+\s*\{\s*([^,\s]+)\s*,")
_DOI = re.compile(r"\bdoi\s*=\s*\{([^}]*)\}", re.I)
_URL = re.compile(r"\burl\s*=\s*\{([^}]*)\}", re.I)


def bib_blocks(path: Path) -> Iterator[str]:
    """Raw entry blocks of a (gzipped) .bib file: each starts at a line beginning with '@'."""
    block: list[str] = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("@") and block:
                yield "".join(block)
                block = []
            block.append(line)
    if block:
        yield "".join(block)


def records_from_blocks(blocks: Sequence[str], source: str) -> list[PaperRecord]:
    bib = parse_bib_text("\n".join(blocks), Path(f"{source}.bib"))
    out = []
    for entry in bib.entries:
        result = bib_entry_record(entry, source)
        if not isinstance(result, str):
            out.append(result[0])
    return out


@dataclass
class Task:
    """One draft: its text, its true references (record ids) and co-citation groups (record ids)."""

    name: str
    title: str
    abstract: str
    references: list[str]
    exclude: set[str]
    groups: list[tuple[str, ...]]


def load_acm(distractors: int, rng: random.Random) -> tuple[list[PaperRecord], list[Task]]:
    queries = [json.loads(line) for line in (DATA / "acm-cr" / "queries.jsonl").read_text(encoding="utf-8").splitlines()]
    wanted = {r["target"].lower() for q in queries for r in q["references"].values() if r["in_collection"]}
    blacklist = {q["doi"].lower() for q in queries}
    kept: dict[str, str] = {}
    reservoir: list[str] = []
    seen = 0
    for block in bib_blocks(DATA / "acm-cr" / "acm-dl.bib.gz"):
        match = _KEY.match(block)
        key = match.group(1).lower() if match else ""
        doi_match = _DOI.search(block)
        doi = doi_match.group(1).strip().lower() if doi_match else key
        if key in blacklist or doi in blacklist:
            continue
        if key in wanted or doi in wanted:
            kept.setdefault(doi, block)
            continue
        if "abstract =" not in block or not block.startswith(("@inproceedings", "@article")):
            continue
        seen += 1
        if len(reservoir) < distractors:
            reservoir.append(block)
        elif (j := rng.randrange(seen)) < distractors:
            reservoir[j] = block
    records = records_from_blocks(list(kept.values()) + reservoir, "acm")
    by_doi = {r.doi: r.id for r in records if r.doi}
    tasks = []
    for q in queries:
        refs = {}
        for marker, ref in q["references"].items():
            rid = by_doi.get(ref["target"].lower()) if ref["in_collection"] else None
            if rid:
                refs[marker] = rid
        if len(refs) < 3:
            continue
        groups = []
        for context in q["contexts"]:
            for sentence in context["sentences"]:
                ids = tuple(dict.fromkeys(refs[c] for c in sentence["cites"] if c in refs))
                if len(ids) > 1:
                    groups.append(ids)
        tasks.append(Task(q["doi"], q["title"], q["abstract"], sorted(set(refs.values())), set(), groups))
    return records, tasks


_YEAR = re.compile(r"\byear\s*=\s*\{(\d{4})\}")


def load_acl(distractors: int, drafts: int, rng: random.Random) -> tuple[list[PaperRecord], list[Task], AclCitationIndex]:
    """Anthology records of every citing and cited paper plus same-era distractors (<= 2016).

    Papers of that era have no abstract in the Anthology file: the cited papers get theirs from
    ScisummNet; a draft (citing paper) is represented by its title only.
    """
    pairs = set()
    with gzip.open(DATA / "acl-anthology" / "citations.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["citing"] != row["cited"]:
                pairs.add((row["citing"], row["cited"]))
    abstracts = {}
    with gzip.open(DATA / "scisummnet" / "reference_papers.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row.get("abstract"):
                abstracts[row["acl_id"]] = " ".join(row["abstract"].split())
    wanted = {a for a, _ in pairs} | {b for _, b in pairs}
    kept: dict[str, str] = {}
    reservoir: list[str] = []
    seen = 0
    for block in bib_blocks(DATA / "acl-anthology" / "anthology+abstracts.bib.gz"):
        url = _URL.search(block)
        acl = acl_id_from_url(url.group(1)) if url else None
        if acl is None:
            continue
        if acl in wanted:
            kept[acl] = block
            continue
        year = _YEAR.search(block)
        if not year or int(year.group(1)) > 2016:
            continue
        seen += 1
        if len(reservoir) < distractors:
            reservoir.append(block)
        elif (j := rng.randrange(seen)) < distractors:
            reservoir[j] = block
    records = []
    for record in records_from_blocks(list(kept.values()) + reservoir, "acl"):
        acl = acl_id_from_url(record.url)
        if acl in abstracts and not record.abstract:
            record = record.with_changes(abstract=abstracts[acl])
        records.append(record)
    index = AclCitationIndex(pairs)
    by_acl = {acl_id_from_url(r.url): r for r in records if r.url}
    candidates = []
    for citing, cited in index.cites.items():
        draft = by_acl.get(citing)
        refs = sorted({by_acl[c].id for c in cited if c in by_acl})
        if draft is not None and len(refs) >= 5:
            candidates.append(Task(citing, draft.title, draft.abstract or "", refs, {draft.id}, []))
    candidates.sort(key=lambda t: t.name)  # set order varies between runs: sort before sampling
    rng.shuffle(candidates)
    return records, sorted(candidates[:drafts], key=lambda t: t.name), index


def without_draft(index: AclCitationIndex, citing: str) -> AclCitationIndex:
    """The citation index minus the draft's own edges (leave one out)."""
    return AclCitationIndex((a, b) for a, b in index.pairs() if a != citing)


def recall(ranked: Sequence[str], hidden: set[str], k: int) -> float:
    return len(hidden & set(ranked[:k])) / len(hidden) if hidden else 0.0


def build_kb(records: Iterable[PaperRecord], directory: Path, dim: int) -> KnowledgeBase:
    kb = KnowledgeBase.open(directory, embedder=HashingEmbedder(dim))
    kb.add_records(list(records), source="bench")
    return kb


VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("no graph: re-rank hybrid hits by draft+citations vector", {"hops": 0, "edge_types": ("draft_cites",),
                                                                 "alpha": 1.0}),
    ("graph hops=1 (all edges)", {"hops": 1}),
    ("graph hops=2 (all edges)", {"hops": 2}),
    ("graph hops=1 without cites", {"hops": 1, "edge_types": tuple(e for e in EDGE_TYPES if e != "cites")}),
    ("graph hops=1 without draft_cites", {"hops": 1, "edge_types": tuple(e for e in EDGE_TYPES if e != "draft_cites")}),
    ("graph hops=1 without co_cited", {"hops": 1, "edge_types": tuple(e for e in EDGE_TYPES if e != "co_cited")}),
    ("graph hops=1 without semantic", {"hops": 1, "edge_types": tuple(e for e in EDGE_TYPES if e != "semantic")}),
]
ALPHAS = (0.0, 0.3, 0.5, 0.7, 0.9, 1.0)


def run_task(task: Task, kb: KnowledgeBase, sources: list[NeighbourSource], rng: random.Random,
             base: SelectionParams, alpha_sweep: bool) -> dict[str, Any]:
    n_seed = max(1, round(0.3 * len(task.references)))
    seeds = rng.sample(task.references, n_seed)
    hidden = set(task.references) - set(seeds)
    records = kb.get_many(seeds)
    cited = {f"s{i}": records[s] for i, s in enumerate(seeds) if s in records}
    seed_set = set(seeds)
    groups = tuple(tuple(f"s{seeds.index(i)}" for i in g if i in seed_set) for g in task.groups)
    draft = DraftContext(title=task.title, abstract=task.abstract, cited=cited, in_kb=frozenset(cited),
                         sentence_groups=tuple(g for g in groups if len(g) > 1))
    exclude = seed_set | task.exclude
    query = draft.query_text()
    hybrid = [h.record.id for h in kb.search(query, k=50 + len(exclude)) if h.record.id not in exclude][:50]
    out: dict[str, Any] = {"hybrid (abstract)": (recall(hybrid, hidden, 20), recall(hybrid, hidden, 50))}
    for name, changes in VARIANTS:
        params = replace(base, **changes)
        exp = expand(draft, kb, params, sources)
        alphas = ALPHAS if alpha_sweep and name == "graph hops=1 (all edges)" else (params.alpha,)
        for alpha in alphas:
            ranked = [c.id for c in rank_candidates(exp, alpha, ppr_types(params), tuple(exclude))]
            ranked += [h for h in hybrid if h not in set(ranked)]
            label = name if len(alphas) == 1 else f"{name} alpha={alpha}"
            out[label] = (recall(ranked, hidden, 20), recall(ranked, hidden, 50))
            if alpha == params.alpha and name == "graph hops=1 (all edges)":
                full = graph_metrics(exp.graph, ranked[:30])
                plain = graph_metrics(exp.graph, hybrid[:30])
                out["_metrics"] = {"selected": full, "hybrid": plain}
    return out


def evaluate(name: str, tasks: list[Task], kb: KnowledgeBase, make_sources: Any, seeds: Sequence[int],
             base: SelectionParams) -> dict[str, Any]:
    per_seed: dict[str, list[tuple[float, float]]] = {}
    metrics: dict[str, list[dict[str, float]]] = {"selected": [], "hybrid": []}
    started = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        sums: dict[str, list[tuple[float, float]]] = {}
        for number, task in enumerate(tasks):
            result = run_task(task, kb, make_sources(task), rng, base, alpha_sweep=True)
            found = result.pop("_metrics", None)
            if found and seed == seeds[0]:
                metrics["selected"].append(found["selected"])
                metrics["hybrid"].append(found["hybrid"])
            for label, value in result.items():
                sums.setdefault(label, []).append(value)
            if number % 10 == 9:
                print(f"  {name} seed {seed}: {number + 1}/{len(tasks)} drafts "
                      f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        for label, values in sums.items():
            per_seed.setdefault(label, []).append(
                (statistics.mean(v[0] for v in values), statistics.mean(v[1] for v in values)))
    table = {}
    for label, values in per_seed.items():
        r20 = [v[0] for v in values]
        r50 = [v[1] for v in values]
        table[label] = {
            "recall@20": round(statistics.mean(r20), 4), "recall@20_sd": round(statistics.pstdev(r20), 4),
            "recall@50": round(statistics.mean(r50), 4), "recall@50_sd": round(statistics.pstdev(r50), 4),
        }
    srw = {kind: {k: round(statistics.mean(m[k] for m in rows), 3) for k in rows[0]} if rows else {}
           for kind, rows in metrics.items()}
    return {"drafts": len(tasks), "seeds": list(seeds), "recall": table, "srw_metrics_top30": srw,
            "seconds": round(time.perf_counter() - started, 1)}


def print_table(title: str, result: dict[str, Any]) -> None:
    print(f"\n{title} ({result['drafts']} drafts, seeds {result['seeds']}, {result['seconds']} s)")
    print(f"{'system':62} {'R@20':>15} {'R@50':>15}")
    for label, row in result["recall"].items():
        print(f"{label:62} {row['recall@20']:.3f} ± {row['recall@20_sd']:.3f} "
              f"{row['recall@50']:.3f} ± {row['recall@50_sd']:.3f}")
    for kind, row in result["srw_metrics_top30"].items():
        if row:
            print(f"  SRW metrics, top 30 {kind:9}: edges {row['edges']:.1f}, avg degree {row['avg_degree']:.2f}, "
                  f"clustering {row['clustering']:.3f}, components {row['components']:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--distractors", type=int, default=8000)
    parser.add_argument("--acl-drafts", type=int, default=40)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--only", choices=("acm", "acl"), default=None)
    args = parser.parse_args()
    base = SelectionParams(seed_hits=50, semantic_k=5, semantic_threshold=0.3)
    results: dict[str, Any] = {"embedder": f"HashingEmbedder({args.dim})", "distractors": args.distractors,
                               "params": {"seed_hits": 50, "alpha": base.alpha, "semantic_k": 5,
                                          "semantic_threshold": 0.3, "cited_weight": base.cited_weight}}
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "acm"):
            t0 = time.perf_counter()
            records, tasks = load_acm(args.distractors, random.Random(7))
            with build_kb(records, Path(tmp) / "acm", args.dim) as kb:
                print(f"ACM-CR: {len(kb)} records indexed in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
                sources = default_sources(kb)
                results["acm_cr"] = evaluate("ACM-CR", tasks, kb, lambda task: sources, args.seeds, base)
                results["acm_cr"]["records"] = len(kb)
            print_table("ACM-CR seeded recall (30% of in-collection references given)", results["acm_cr"])
        if args.only in (None, "acl"):
            t0 = time.perf_counter()
            records, tasks, index = load_acl(args.distractors, args.acl_drafts, random.Random(7))
            with build_kb(records, Path(tmp) / "acl", args.dim) as kb:
                print(f"ACL: {len(kb)} records indexed in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
                by_acl = {acl_id_from_url(r.url): r.id for r in records if r.url}
                id_map = {k: v for k, v in by_acl.items() if k}
                local = default_sources(kb)

                def acl_sources(task: Task) -> list[NeighbourSource]:
                    return [*local, AclCitationSource(without_draft(index, task.name), kb, id_map=id_map)]

                results["acl"] = evaluate("ACL", tasks, kb, acl_sources, args.seeds, base)
                results["acl"]["records"] = len(kb)
                results["acl"]["citation_pairs"] = len(index)
            print_table("ACL seeded recall (real citation edges, 30% of cited ACL papers given)", results["acl"])
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
