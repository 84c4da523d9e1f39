"""`relatex related`: the papers chosen for a draft's related work, by theme and layer, with reasons."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from relatex.config.settings import Settings
from relatex.retrieval.expansion import NeighbourSource
from relatex.retrieval.selection import Selection, SelectionCancelled, SelectionParams, default_sources
from relatex.workflows.engines import Engines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tex", help="the draft's root .tex file (or any file of the project)")
    parser.add_argument("--breadth", type=int, help="papers kept (breadth x 3 are considered); default 30")
    parser.add_argument("--depth", type=int, help="sentences read per paper; default 3")
    parser.add_argument("--diversity", type=float, help="MMR weight in [0, 1]: 0 relevance only; default 0.3")
    parser.add_argument("--hops", type=int, choices=(0, 1, 2), help="citation hops from the seeds; default 1")
    parser.add_argument("--landmark-year", type=int, help="first year of the frontier layer (0: derive)")
    parser.add_argument("--alpha", type=float, help="weight of relevance against graph centrality; default 0.3")
    parser.add_argument("--per-section", action="store_true", help="also search the knowledge base per section")
    parser.add_argument("--citation-edges", action="append", default=[], metavar="FILE",
                        help="ACL citation edges (JSON lines citing/cited, .gz allowed); repeatable")
    parser.add_argument("--online-budget", type=float, default=20.0, metavar="SECONDS",
                        help="time limit for online expansion (with --online)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def params_from(args: argparse.Namespace, settings: Settings) -> SelectionParams:
    """Command-line values override ``settings.graph``."""
    graph = settings.graph

    def pick(name: str, default: Any) -> Any:
        value = getattr(args, name, None)
        return default if value is None else value

    return SelectionParams(
        breadth=pick("breadth", graph.breadth),
        depth=pick("depth", graph.depth),
        diversity=pick("diversity", graph.diversity),
        hops=pick("hops", graph.hops),
        landmark_year=pick("landmark_year", graph.landmark_year),
        alpha=pick("alpha", graph.alpha),
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


def _sources(args: argparse.Namespace, settings: Settings, kb: Any) -> list[NeighbourSource]:
    from relatex.retrieval.acl_citations import AclCitationIndex, AclCitationSource

    sources: list[NeighbourSource] = default_sources(kb)
    for path in (*settings.graph.citation_edges, *args.citation_edges):
        index = AclCitationIndex.load(Path(path))
        print(f"relatex: {len(index)} citation edges from {path}", file=sys.stderr)
        sources.append(AclCitationSource(index, kb))
    return sources


def run(args: argparse.Namespace, engines: Engines) -> int:
    settings = engines.settings
    from relatex.analysis.latex.latex_project import find_root, load_project
    from relatex.analysis.verification.project_checks import load_bibliographies
    from relatex.retrieval.draft import draft_context
    from relatex.retrieval.selection import select_papers
    from relatex.workflows.knowledge_bases import open_knowledge_base

    try:
        params = params_from(args, settings)
    except ValueError as exc:
        print(f"relatex related: {exc}", file=sys.stderr)
        return 2
    path = Path(args.tex).expanduser().resolve()
    try:
        project = load_project(find_root(path))
    except FileNotFoundError:
        print(f"relatex related: {path} does not exist", file=sys.stderr)
        return 1
    bibs = load_bibliographies(project)
    try:  # writable when online: papers found online are added to the knowledge base
        kb = open_knowledge_base(settings, read_only=not settings.online.enabled)
    except Exception as exc:  # a missing or locked index must be reported, not a traceback
        print(f"relatex related: cannot open the knowledge base: {exc}", file=sys.stderr)
        return 1
    try:
        if len(kb) == 0:
            print("relatex related: the knowledge base is empty; run `relatex index FILE` first", file=sys.stderr)
            return 1
        try:
            sources = _sources(args, settings, kb)
        except OSError as exc:
            print(f"relatex related: cannot read citation edges: {exc}", file=sys.stderr)
            return 1
        from relatex.retrieval.online_expansion import expander_from_settings

        expander = expander_from_settings(settings, kb, budget_s=params.online_budget_s,
                                          notify=lambda message: print(message, file=sys.stderr))

        def progress(message: str, fraction: float) -> None:
            print(f"relatex: {message}", file=sys.stderr)

        draft = draft_context(project, bibs, kb)
        if not draft.query_text().strip() and not draft.cited:
            print("relatex related: the draft has no title, abstract, text or citations to start from",
                  file=sys.stderr)
            return 1
        try:
            selection = select_papers(draft, kb, params, expander, progress=progress if args.verbose else None,
                                      sources=sources)
        except SelectionCancelled:
            print("relatex related: cancelled", file=sys.stderr)
            return 130
    finally:
        kb.close()
    if args.format == "json":
        print(json.dumps(selection_to_json(selection), indent=2, ensure_ascii=False))
    else:
        print(format_text(selection, path.name))
    return 0
