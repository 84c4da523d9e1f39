"""`relatex related`: the papers chosen for a draft's related work, by theme and layer, with reasons."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from relatex.config.settings import GraphSettings
from relatex.retrieval.selection import Selection
from relatex.workflows.engines import Engines
from relatex.workflows.failures import UseCaseCancelled, UseCaseFailed
from relatex.workflows.progress import ProgressCallback
from relatex.workflows.related_papers import (
    RelatedRequest,
    SelectionKnobs,
    load_draft,
    related_papers,
    selection_params,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tex", help="the draft's root .tex file (or any file of the project)")
    parser.add_argument("--breadth", type=int, help="most papers kept (breadth x 3 are considered); default 30")
    parser.add_argument("--relevance-floor", type=float, metavar="SHARE",
                        help="share of the best paper's relevance a paper needs (0: always --breadth); "
                             f"default {GraphSettings().relevance_floor}")
    parser.add_argument("--floor-exempt-links", type=int, metavar="N",
                        help="a paper that cites or is cited by N seed papers passes the floor (0: none); "
                             f"default {GraphSettings().floor_exempt_links}")
    parser.add_argument("--depth", type=int, help="sentences read per paper; default 3")
    parser.add_argument("--diversity", type=float, help="MMR weight in [0, 1]: 0 relevance only; default 0.3")
    parser.add_argument("--hops", type=int, choices=(0, 1, 2), help="citation hops from the seeds; default 1")
    parser.add_argument("--landmark-year", type=int, help="first year of the frontier layer (0: derive)")
    parser.add_argument("--alpha", type=float, help="weight of relevance against graph centrality; default "
                        f"{GraphSettings().alpha} where citation edges join the candidates, else "
                        f"{GraphSettings().alpha_without_citations} (graph.alphaWithoutCitations)")
    parser.add_argument("--per-section", action="store_true", help="also search the knowledge base per section")
    parser.add_argument("--citation-edges", action="append", default=[], metavar="FILE",
                        help="ACL citation edges (JSON lines citing/cited, .gz allowed); repeatable")
    parser.add_argument("--online-budget", type=float, default=20.0, metavar="SECONDS",
                        help="time limit for online expansion (with --online)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def knobs_from(args: argparse.Namespace) -> SelectionKnobs:
    """The selection knobs given on the command line (None: ``settings.graph``)."""
    return SelectionKnobs(
        breadth=getattr(args, "breadth", None), depth=getattr(args, "depth", None),
        diversity=getattr(args, "diversity", None), hops=getattr(args, "hops", None),
        landmark_year=getattr(args, "landmark_year", None), alpha=getattr(args, "alpha", None),
        relevance_floor=getattr(args, "relevance_floor", None),
        floor_exempt_links=getattr(args, "floor_exempt_links", None),
        per_section=bool(getattr(args, "per_section", False)),
        online_budget_s=float(getattr(args, "online_budget", 20.0)),
    )


def selection_to_json(selection: Selection) -> dict[str, Any]:
    """A JSON-ready view of a selection (the graph itself is summarised by its stats)."""
    return {
        "papers": [
            {
                "id": p.record.id,
                "title": p.record.title,
                "authors": list(p.record.authors),
                "year": p.record.year,
                "venue": p.record.venue,
                "doi": p.record.doi,
                "arxiv_id": p.record.arxiv_id,
                "score": round(p.score, 4),
                "relevance": round(p.relevance, 4),
                "centrality": round(p.centrality, 4),
                "layer": p.layer,
                "theme": p.theme,
                "reasons": list(p.reasons),
                "draft_key": p.draft_key,
                "read_sentences": list(p.read_sentences),
            }
            for p in selection.papers
        ],
        "themes": [
            {"id": t.id, "label": t.label, "terms": list(t.terms), "order": t.order, "paper_ids": list(t.paper_ids)}
            for t in sorted(selection.themes, key=lambda t: t.order)
        ],
        "reading_order": list(selection.reading_order),
        "stats": dict(selection.stats),
    }


def format_text(selection: Selection, name: str) -> str:
    """Themes in order; in each, papers grouped by layer in reading order, with their reasons."""
    lines = [
        f"Related work for {name}: {len(selection.papers)} papers in {len(selection.themes)} themes "
        f"(frontier from {selection.stats.get('landmark_year', '?')}; "
        f"{selection.stats.get('graph_nodes', 0)} papers in the graph)"
    ]
    for theme, papers in selection.by_theme():
        lines.append("")
        lines.append(f"Theme {theme.order + 1}: {theme.label} ({len(papers)} papers)")
        for layer in ("foundation", "development", "frontier"):
            members = [p for p in papers if p.layer == layer]
            if not members:
                continue
            lines.append(f"  {layer}:")
            for p in members:
                r = p.record
                who = r.first_author_surname() or "?"
                cited = f"  [\\cite{{{p.draft_key}}}]" if p.draft_key else ""
                lines.append(f"    - {who} {r.year or 'n.d.'}: {r.title}{cited}")
                lines.append(f"      score {p.score:.3f} (relevance {p.relevance:.3f}, centrality {p.centrality:.3f})")
                if p.reasons:
                    lines.append(f"      why: {'; '.join(p.reasons)}")
    return "\n".join(lines)


def progress_printer(verbose: int) -> ProgressCallback:
    """Progress messages on stderr with ``-v``; nothing otherwise."""

    def show(message: str, fraction: float | None) -> None:
        if verbose:
            print(f"relatex: {message}", file=sys.stderr)

    return show


def run(args: argparse.Namespace, engines: Engines) -> int:
    path = Path(args.tex)
    knobs = knobs_from(args)
    try:
        selection_params(engines.settings, knobs)
    except UseCaseFailed as exc:  # a knob out of range
        print(f"relatex related: {exc}", file=sys.stderr)
        return 2
    try:  # papers found online are added to the knowledge base
        draft = load_draft(path, engines.settings.max_document_bytes)
        request = RelatedRequest(draft, knobs, persist_online=True, citation_edges=tuple(args.citation_edges))
        result = related_papers(request, engines, progress=progress_printer(args.verbose))
    except UseCaseFailed as exc:
        print(f"relatex related: {exc}", file=sys.stderr)
        return 1
    except UseCaseCancelled:
        print("relatex related: cancelled", file=sys.stderr)
        return 130
    for note in result.notes:
        print(f"relatex: {note}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(selection_to_json(result.selection), indent=2, ensure_ascii=False))
    else:
        print(format_text(result.selection, path.name))
    return 0
