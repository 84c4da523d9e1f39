"""The whole offline "Generate related work" path on ACM-CR and ACL: citations earned, sentences supported.

Each ACM-CR query paper with a related-work text becomes a draft made of its title and abstract
(unseeded; ``--seeded`` also gives 30% of its in-collection references as existing citations).
The knowledge base is a subset index: every in-collection reference of every query paper plus
``--distractors`` random ACM records with abstracts (``--authors-papers``: and every other paper
the query papers' authors wrote, as a real knowledge base holds them), embedded with the product's
default embedder
(all-MiniLM-L6-v2, int8; vectors memoised in ``--embed-cache``), so "hybrid" below is MiniLM + BM25
as a user's knowledge base has it (``--embedder hashing``: the model-free HashingEmbedder). The
judge is the one the product builds for that knowledge base (the citation model over MiniLM, the
feature scorer over hashing vectors), and the selection uses the product's settings
(``graph.*``, relevance floor included; ``--floor`` sets another).
Query papers are split as every ACM-CR benchmark is (``bench/splits.py``, by DOI): the
development half calibrates the relevance floor (``--floors``: the lowest floor whose selection reaches
precision 0.55 with recall at least hybrid search's at the same size), the test half is reported. Per section:

- citation precision (cited papers among the query's gold references) and recall at the section's
  own size K, against hybrid search top-K for the same draft text;
- support: share of sentences with citations the judge calls supported, and warnings (sentences
  the claim checker would flag) after the gate;
- longest run of words copied from any cited abstract or the draft; garbled sentences; distinct
  sentence openings (first two words); paragraphs that end by relating their theme to the draft;
  paragraphs that use one sentence frame three times or more (``bench/sentence_frames.py``);
  ROUGE-1/2 against the gold related-work text next to LexRank and TextRank over the same cited
  abstracts at the same length; generate time (warm); a draw of cited sentences and one of closings
  for reading by hand (``bench/audit_draws.py``).

With ``--dataset acl`` the drafts are ACL Anthology citing papers (title only: papers of that
era have no abstract in the Anthology file) and the gold references are the ScisummNet papers
they cite, from the real citation edges, which the graph step may follow (minus the draft's own
edges); split by the citing paper's ACL id. There is no gold related-work text, so no ROUGE.
``--acl-abstracts`` drafts only the citing papers that are ScisummNet papers themselves, whose
abstracts ScisummNet has (a title and an abstract, as the ACM-CR drafts). The ScisummNet gold holds
only the references among ScisummNet's ~1,000 papers (about 6 per draft), so each section also
reports its precision ceiling: min(gold, K) / K, the best precision a section of its size can reach.
Each ACL draft sees the knowledge base as it stood in its year (``bench/as_of.py``): papers published
later are invisible to the searches and the citation edges (the knowledge base runs to 2016).

    python bench/section_quality.py [--dataset acm|acl [--acl-abstracts]] [--distractors 3000] [--floors 0 0.7 0.8] [--seeded]
        [--authors-papers] [--embedder minilm|hashing] [--embed-cache .cache/section-quality-embed.pkl]
        [--cited-weights 0.5 0.7 0.8 0.9]   (with --seeded: the development half's sweep of selection.cited_weight)
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from as_of import KnowledgeBaseAsOf, SourceAsOf  # noqa: E402
from audit_draws import claim_pool, closing_pool, draw  # noqa: E402
from bench_embedders import CachedEmbedder, make_embedder  # noqa: E402
from closing_kinds import closing_kinds  # noqa: E402
from graph_bench_data import acm_authors_papers, load_acl, without_draft  # noqa: E402
from graph_expansion import Task, build_kb, load_acm  # noqa: E402
from paragraph_fit import label_fit, paragraph_labels  # noqa: E402
from sentence_frames import repeated_frames  # noqa: E402
from splits import half_of  # noqa: E402
from writing_baselines import extractive, plain, truncate_words  # noqa: E402
from writing_quality import load_queries  # noqa: E402

from relatex.analysis.claims.claim_support import SUPPORTED, UNKNOWN, check_claims  # noqa: E402
from relatex.analysis.latex.project_model import LatexProject  # noqa: E402
from relatex.analysis.sentences import split_sentences  # noqa: E402
from relatex.config.settings import Settings  # noqa: E402
from relatex.retrieval.acl_citations import AclCitationSource  # noqa: E402
from relatex.retrieval.draft import DraftContext  # noqa: E402
from relatex.retrieval.selection import SelectionParams, default_sources, select_papers  # noqa: E402
from relatex.retrieval.sources.bibtex_source import acl_id_from_url  # noqa: E402
from relatex.workflows.claim_judges import make_claim_judge  # noqa: E402
from relatex.workflows.engines import Engines  # noqa: E402
from relatex.workflows.related_papers import selection_params  # noqa: E402
from relatex.writing.citation_keys import assign_keys  # noqa: E402
from relatex.writing.copy_guard import CopyGuard, longest_copied_run  # noqa: E402
from relatex.writing.generate import build_plan, generate_related_work, key_index_for  # noqa: E402
from relatex.writing.sentence_checks import sentences_garbled  # noqa: E402
from relatex.writing.support_gate import WARNING_LABELS, evidence_lookup, section_claims  # noqa: E402

RESULTS = REPO / "bench" / "results" / "section_quality.json"
PRODUCT = selection_params(Settings())  # the selection "Generate related work" runs with by default
PAPER_FIT = Engines(Settings()).paper_fit()  # the cross-encoder the product mixes into relevance
# with hashing vectors (cosines far lower than MiniLM's) earlier runs used more hits and a lower threshold
HASHING = replace(PRODUCT, seed_hits=50, semantic_k=5, semantic_threshold=0.3)
OTHER_OWN_WORK: set[str] = set()  # with --authors-papers: the ids of the authors' papers added (none is gold)


def pr(chosen: Sequence[str], gold: set[str]) -> tuple[float, float]:
    hits = len(set(chosen) & gold)
    return (hits / len(chosen) if chosen else 0.0, hits / len(gold) if gold else 0.0)


def as_of(kb: Any, task: Task) -> Any:
    """The knowledge base as it stood in the draft's year (ACL drafts), else the whole of it."""
    return KnowledgeBaseAsOf(kb, task.year) if task.year else kb


def draft_of(task: Task, kb: Any, seeded: bool, rng: random.Random) -> tuple[DraftContext, set[str]]:
    """The draft and the gold references it does not already cite."""
    if not seeded:
        return DraftContext(title=task.title, abstract=task.abstract), set(task.references)
    seeds = rng.sample(task.references, max(1, round(0.3 * len(task.references))))
    records = kb.get_many(seeds)
    cited = {f"s{i}": records[s] for i, s in enumerate(seeds) if s in records}
    return (DraftContext(title=task.title, abstract=task.abstract, cited=cited, in_kb=frozenset(cited)),
            set(task.references) - set(seeds))


def new_papers(draft: DraftContext, kb: Any, params: SelectionParams, sources: Any) -> list[str]:
    """The ids of the papers the selection adds to those the draft already cites."""
    return [p.record.id for p in select_papers(draft, kb, params, sources=sources, paper_fit=PAPER_FIT).papers
            if p.draft_key is None]


def hybrid_at(kb: Any, draft: DraftContext, k: int) -> list[str]:
    """Hybrid search's top ``k`` for the draft's text, without the papers it already cites and
    without the draft's own record (which the selection never proposes either)."""
    cited = {r.id for r in draft.cited.values()}
    return [h.record.id for h in kb.search(draft.query_text(), k=k + len(cited) + 5)
            if h.record.id not in cited and not draft.is_self(h.record)][:k]


def openings(latex: str) -> list[str]:
    body = "\n".join(line for line in latex.splitlines() if not line.lstrip().startswith("%"))
    return [" ".join(body[a:b].split()[:2]).lower() for a, b in split_sentences(body)]


def closings(latex: str) -> tuple[int, list[str]]:
    """The paragraphs that discuss papers, and the sentences that close them by relating the theme
    to the draft: the last sentence, when it cites nothing and speaks of "our" work ("See also"
    pointers set aside)."""
    body = "\n".join(line for line in latex.splitlines() if not line.lstrip().startswith("%"))
    paragraphs = [p for p in body.split("\n\n") if "\\cite" in p]
    out = []
    for paragraph in paragraphs:
        said = [paragraph[a:b].strip() for a, b in split_sentences(paragraph)]
        said = [x for x in said if not x.startswith("See also")]
        if len(said) > 1 and "\\cite" not in said[-1] and re.search(r"\b(?:[Oo]ur|[Ww]e)\b", said[-1]):
            out.append(said[-1])
    return len(paragraphs), out


def write_one(task: Task, query: dict[str, Any] | None, kb: Any, sources: Any, params: SelectionParams, judge: Any,
              scorer: Any, seeded: bool, rng: random.Random) -> dict[str, Any]:
    """One section for ``task``'s draft; ``query`` holds the gold related-work text (ROUGE), when any."""
    kb = as_of(kb, task)
    draft, gold = draft_of(task, kb, seeded, rng)
    selection = select_papers(draft, kb, params, sources=sources, paper_fit=PAPER_FIT)
    project = LatexProject(root=Path("/nonexistent/draft.tex"), root_dir=Path("/nonexistent"), files={},
                           file_order=(), title=task.title, abstract=task.abstract, citation_package="natbib")
    generate_related_work(project, {}, selection, judge=judge)  # warm caches (judge, embeddings)
    started = time.perf_counter()
    section = generate_related_work(project, {}, selection, judge=judge)
    seconds = time.perf_counter() - started
    keys, _ = assign_keys([p.record for p in selection.papers], key_index_for({}),
                          {p.record.id: p.draft_key for p in selection.papers}, None)
    plan = build_plan(project, selection, keys)
    key_to_id = {k: b.record.id for k, b in plan.papers.items()}
    cited_ids = [key_to_id[k] for k in dict.fromkeys(section.cited_keys) if k in key_to_id]
    new_ids = [i for i in cited_ids if i not in {r.id for r in draft.cited.values()}]
    k = len(new_ids)
    hybrid = hybrid_at(kb, draft, k)
    results = check_claims(section_claims(section.latex), evidence_lookup(plan.papers), judge)
    sentences = {(r.claim.start, r.claim.end): r.verdict.label for r in results}
    abstracts = [plan.papers[k].record.abstract or "" for k in dict.fromkeys(section.cited_keys) if k in plan.papers]
    text = plain(section.latex)
    budget = len(text.split())
    rouge = {} if query is None else {name: scorer.score(query["related_work_text"], out) for name, out in (
        ("offline", truncate_words(text, budget)), ("lexrank", extractive(abstracts, budget, "lexrank")),
        ("textrank", extractive(abstracts, budget, "textrank")))}
    opened = openings(section.latex)
    paragraphs, closed = closings(section.latex)
    return {
        "doi": task.name, "papers_selected": len(selection.papers), "cited": k,
        "precision": pr(new_ids, gold)[0], "recall": pr(new_ids, gold)[1],
        "hybrid_precision": pr(hybrid, gold)[0], "hybrid_recall": pr(hybrid, gold)[1],
        "authors_other_papers": sum(1 for i in new_ids if i in OTHER_OWN_WORK),
        "hybrid_authors_other_papers": sum(1 for i in hybrid if i in OTHER_OWN_WORK),
        # the best precision a section of this size can reach: the gold may hold fewer papers than it cites
        "gold": len(gold), "precision_ceiling": min(len(gold), k) / k if k else 0.0,
        "sentences_judged": len(sentences),
        "supported": sum(1 for v in sentences.values() if v == SUPPORTED),
        "labels": dict(Counter(sentences.values())),
        "warnings": sum(1 for v in sentences.values() if v in WARNING_LABELS),
        "gate": section.usage.get("support_gate", {}),
        "longest_copied_run": longest_copied_run(section.latex, abstracts + [task.abstract]),
        "copied_runs_of_8": [s for s in CopyGuard(abstracts + [task.abstract], 8).copied_text(section.latex)],
        "garbled": [f"{reason}: {sentence}" for sentence, reason in sentences_garbled(section.latex)],
        "sentences": len(opened), "distinct_openings": len(set(opened)), "openings": opened,
        "paragraphs": paragraphs, "closings": closed, "closing_kinds": closing_kinds(closed, task.title),
        "label_fit": label_fit(plan, section.latex), "paragraph_labels": paragraph_labels(section.latex),
        "repeated_frames": repeated_frames(section.latex),
        "rouge": {name: {"rouge1": s["rouge1"].fmeasure, "rouge2": s["rouge2"].fmeasure} for name, s in rouge.items()},
        "seconds": round(seconds, 3), "latex": section.latex,
        "_audit_pool": claim_pool(section.latex, results, plan.papers),
        "_closing_pool": closing_pool(section.latex, closed, f"{task.title}. {task.abstract}"),
    }


def calibrate(tasks: Sequence[Task], kb: Any, sources_for: Callable[[Task], Any], floors: Sequence[float],
              seeded: bool, base: SelectionParams = PRODUCT) -> dict[str, Any]:
    """Selection precision/recall/F1 per floor on the development half, and hybrid search's
    precision/recall at each draft's same K (no writing needed)."""
    out: dict[str, Any] = {}
    for floor in floors:
        params = replace(base, relevance_floor=floor)
        rows = []
        for task in tasks:
            view = as_of(kb, task)
            draft, gold = draft_of(task, view, seeded, random.Random(0))
            chosen = new_papers(draft, view, params, sources_for(task))
            rows.append((*pr(chosen, gold), len(chosen), *pr(hybrid_at(view, draft, len(chosen)), gold)))
        p, r, size, hp, hr = (sum(row[i] for row in rows) / len(rows) for i in range(5))
        out[str(floor)] = {"precision": round(p, 4), "recall": round(r, 4),
                           "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "size": round(size, 1),
                           "hybrid_precision": round(hp, 4), "hybrid_recall": round(hr, 4)}
        print(f"floor {floor}: {out[str(floor)]}", file=sys.stderr)
    return out


def chosen_floor(calibration: dict[str, Any], target: float) -> float:
    """The lowest floor (the broadest section) whose development precision reaches ``target`` with
    recall at least hybrid search's at the same size; without one, the floor of the best F1."""
    earning = [float(f) for f, row in calibration.items()
               if row["precision"] >= target and row["recall"] >= row["hybrid_recall"]]
    if earning:
        return min(earning)
    return float(max(calibration, key=lambda f: calibration[f]["f1"]))


def sweep_cited_weight(tasks: Sequence[Task], kb: Any, sources_for: Callable[[Task], Any], weights: Sequence[float],
                       floor: float, base: SelectionParams = PRODUCT) -> dict[str, Any]:
    """Seeded drafts of the development half: the selection's new papers against hybrid search at
    the same K, per ``cited_weight`` (the share of "similar to the papers the draft cites" in relevance)."""
    out: dict[str, Any] = {}
    for weight in weights:
        params = replace(base, relevance_floor=floor, cited_weight=weight)
        rows = []
        for task in tasks:
            view = as_of(kb, task)
            draft, gold = draft_of(task, view, True, random.Random(0))
            chosen = new_papers(draft, view, params, sources_for(task))
            rows.append((*pr(chosen, gold), *pr(hybrid_at(view, draft, len(chosen)), gold)))
        means = [round(sum(r[i] for r in rows) / len(rows), 4) for i in range(4)]
        out[str(weight)] = dict(zip(("precision", "recall", "hybrid_precision", "hybrid_recall"), means, strict=True))
        print(f"cited_weight {weight}: {out[str(weight)]}", file=sys.stderr)
    return out


def _repeats(labels: Sequence[str]) -> bool:
    """Whether two paragraphs of a section name the same label in their topic sentences."""
    said = [label.lower() for label in labels if label]
    return len(set(said)) < len(said)


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    def avg(key: str) -> float:
        return round(sum(r[key] for r in rows) / len(rows), 4) if rows else 0.0

    judged = sum(r["sentences_judged"] for r in rows)
    labels: Counter[str] = Counter()
    for r in rows:
        labels.update(r.get("labels", {}))
    common = Counter(o for r in rows for o in r["openings"]).most_common(5)
    return {
        "sections": len(rows), "cited_per_section": avg("cited"),
        "precision": avg("precision"), "recall": avg("recall"),
        "hybrid_precision": avg("hybrid_precision"), "hybrid_recall": avg("hybrid_recall"),
        "gold_per_section": avg("gold"), "precision_ceiling": avg("precision_ceiling"),
        **({"authors_other_papers_per_section": avg("authors_other_papers"),
            "hybrid_authors_other_papers_per_section": avg("hybrid_authors_other_papers")}
           if OTHER_OWN_WORK else {}),
        "support_rate": round(sum(r["supported"] for r in rows) / judged, 4) if judged else 0.0,
        "labels": dict(labels),
        # sentences citing only papers without an abstract cannot be checked (a title alone is too little)
        "support_rate_checkable": round(sum(r["supported"] for r in rows) / (judged - labels[UNKNOWN]), 4)
        if judged > labels[UNKNOWN] else 0.0,
        "warnings": sum(r["warnings"] for r in rows), "sentences_judged": judged,
        "longest_copied_run_max": max((r["longest_copied_run"] for r in rows), default=0),
        "garbled": sum(len(r["garbled"]) for r in rows),
        "distinct_openings_share": round(sum(r["distinct_openings"] for r in rows)
                                         / max(1, sum(r["sentences"] for r in rows)), 4),
        "most_common_openings": common,
        # item 6: each paragraph ends by relating its theme to the draft, never twice the same way
        "paragraphs_with_closing": round(sum(len(r["closings"]) for r in rows)
                                         / max(1, sum(r["paragraphs"] for r in rows)), 4),
        "sections_repeating_a_closing": sum(1 for r in rows if len(set(r["closings"])) < len(r["closings"])),
        "sections_repeating_a_label": sum(1 for r in rows if _repeats(r["paragraph_labels"])),
        "paragraphs_repeating_a_frame": sum(len(r["repeated_frames"]) for r in rows),
        "closing_kinds": dict(sum((Counter(r["closing_kinds"]) for r in rows), Counter())),
        # coherence: cited papers whose text names their paragraph's label; the others set apart or not
        "label_fit": {k: sum(r["label_fit"][k] for r in rows) for k in ("on_label", "off_label", "off_label_set_apart")},
        "rouge": {name: {m: round(sum(r["rouge"][name][m] for r in rows) / len(rows), 4)
                         for m in ("rouge1", "rouge2")} for name in ("offline", "lexrank", "textrank")}
        if rows and rows[0]["rouge"] else None,
        "seconds_mean": avg("seconds"), "seconds_max": max((r["seconds"] for r in rows), default=0.0),
        "seconds_sections_25_plus_papers": [r["seconds"] for r in rows if r["papers_selected"] >= 25],
    }


@contextmanager
def corpus(args: argparse.Namespace, tmp: Path, embedder: Any) -> Iterator[tuple[Any, list[Task], dict[str, Any],
                                                                   Callable[[Task], Any]]]:
    """The knowledge base, the drafts (split into halves), their gold texts (ACM-CR only) and
    each draft's neighbour sources (ACL: the real citation edges, minus the draft's own)."""
    data = REPO.parent / "shared" / "data"
    if args.dataset == "acm":
        queries = {q["doi"]: q for q in load_queries(data)}
        records, tasks = load_acm(args.distractors, random.Random(7))
        if args.authors_papers:
            own = acm_authors_papers(records)
            OTHER_OWN_WORK.update(r.id for r in own)
            records += own
        tasks = sorted((replace(t, half=half_of(t.name)) for t in tasks if t.name in queries), key=lambda t: t.name)
        with build_kb(records, tmp / "acm", 512, embedder) as kb:
            sources = default_sources(kb)
            yield kb, tasks, queries, lambda task: sources
        return
    records, tasks, index = load_acl(args.distractors, args.acl_drafts, random.Random(7), args.acl_abstracts)
    id_map = {k: r.id for r in records if r.url for k in [acl_id_from_url(r.url)] if k}
    with build_kb(records, tmp / "acl", 512, embedder) as kb:
        local = default_sources(kb)
        yield kb, tasks, {}, lambda task: [SourceAsOf(s, task.year) if task.year else s for s in [
            *local, AclCitationSource(without_draft(index, task.name), kb, id_map=id_map)]]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", choices=("acm", "acl"), default="acm")
    parser.add_argument("--distractors", type=int, default=3000)
    parser.add_argument("--acl-drafts", type=int, default=40, help="ACL drafts drawn in each half")
    parser.add_argument("--acl-abstracts", action="store_true",
                        help="ACL drafts made of a title and an abstract: only the citing papers that are "
                             "ScisummNet papers themselves, which have one (21 test / 20 development drafts)")
    parser.add_argument("--floors", type=float, nargs="+", default=[],
                        help="also measure these relevance floors on the development half, and name the one "
                             "the calibration rule picks (the product's graph.relevance_floor is the lowest "
                             "floor it picks on both ACM-CR development halves, seeded and unseeded)")
    parser.add_argument("--target-precision", type=float, default=0.55,
                        help="calibration: the lowest floor reaching this development precision (else best F1)")
    parser.add_argument("--floor", type=float, default=None,
                        help="the floor of the test half (default: the product's graph.relevance_floor)")
    parser.add_argument("--seeded", action="store_true")
    parser.add_argument("--authors-papers", action="store_true",
                        help="ACM-CR: the knowledge base also holds every other paper of the query "
                             "papers' authors")
    parser.add_argument("--cited-weights", type=float, nargs="+", default=[],
                        help="with --seeded: also sweep selection.cited_weight on the development half")
    parser.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    parser.add_argument("--embed-cache", type=Path, default=REPO / ".cache" / "section-quality-embed.pkl",
                        help="pickle file memoising the MiniLM vectors between runs")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--audit", type=int, default=40, help="cited sentences sampled for reading, with abstracts")
    parser.add_argument("--audit-closings", type=int, default=20,
                        help="closings sampled for reading, with their paragraph and the draft")
    parser.add_argument("--out", type=Path, default=None,
                        help="default: bench/results/section_quality[_acl][_seeded].json")
    args = parser.parse_args(argv)
    if args.out is None:
        suffix = ("_acl" if args.dataset == "acl" else "") + ("_abstracts" if args.acl_abstracts else "") \
            + ("_seeded" if args.seeded else "")
        suffix += "_authors_papers" if args.authors_papers else ""
        args.out = RESULTS.with_name(f"section_quality{suffix}.json")
    from rouge_score import rouge_scorer

    embedder: CachedEmbedder | None = None
    base = PRODUCT
    if args.embedder == "minilm":
        inner, embedder_name = make_embedder()
        embedder = CachedEmbedder(inner, args.embed_cache)
    else:
        base, embedder_name = HASHING, "HashingEmbedder(512)"
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2"], use_stemmer=True)
    result: dict[str, Any] = {"dataset": args.dataset, "embedder": embedder_name, "distractors": args.distractors,
                              "authors_papers": args.authors_papers,
                              "seeded": args.seeded, "selection": {k: v for k, v in vars(base).items()
                                                                   if isinstance(v, (int, float, str))}}
    if args.dataset == "acl":
        result["acl_drafts"] = "title and abstract" if args.acl_abstracts else "title only"
    with tempfile.TemporaryDirectory() as tmp, corpus(args, Path(tmp), embedder) as (kb, tasks, queries,
                                                                                   sources_for):
        if embedder is not None:
            embedder.save()
        # the judge the product builds for this knowledge base (its embedder decides which)
        judge = make_claim_judge(Settings(), kb.embed, kb.embedder.model_id)
        result["judge"] = judge.judge_id
        dev = [t for t in tasks if t.half == "dev"]
        test = [t for t in tasks if t.half != "dev"]
        if args.limit:
            dev, test = dev[: args.limit], test[: args.limit]
        result.update(records=len(kb), dev=len(dev), test=len(test))
        if args.floors:
            result["calibration"] = calibrate(dev, kb, sources_for, args.floors, args.seeded, base)
            result["calibration_choice"] = chosen_floor(result["calibration"], args.target_precision)
        floor = base.relevance_floor if args.floor is None else args.floor
        result["floor"] = floor
        if args.seeded and args.cited_weights:
            result["cited_weight_sweep"] = sweep_cited_weight(dev, kb, sources_for, args.cited_weights, floor, base)
        rows = [write_one(t, queries.get(t.name), kb, sources_for(t), replace(base, relevance_floor=floor), judge,
                          scorer, args.seeded, random.Random(0)) for t in test]
    if embedder is not None:
        embedder.save()
    result["audit_sample"] = draw(rows, "_audit_pool", args.audit)
    result["closing_sample"] = draw(rows, "_closing_pool", args.audit_closings)
    result["summary"] = summary(rows)
    result["sections"] = rows
    print(json.dumps(result["summary"], indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
