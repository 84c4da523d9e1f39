"""`relatex generate`: write a related-work section for a draft, with BibTeX entries for new papers.

Prints the section and the new entries to stdout, or with ``--write`` applies the same targeted
edits the language server would (section after the introduction, entries appended to the .bib)
and lists the changed files. Progress, warnings and the token/cost estimate go to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from relatex.analysis.latex.project_boundary import check_writable
from relatex.analysis.text_files import write_edits
from relatex.config.settings import GraphSettings
from relatex.server.commands.related import knobs_from
from relatex.workflows.engines import Engines
from relatex.workflows.failures import (
    BAD_REQUEST,
    EMPTY_KNOWLEDGE_BASE,
    MODEL_FAILED,
    NO_KNOWLEDGE_BASE,
    UseCaseCancelled,
    UseCaseFailed,
)
from relatex.workflows.generate_section import GenerateRequest, GenerateResult, generate_section
from relatex.workflows.related_papers import Draft, load_draft
from relatex.writing.llm import UsageMeter
from relatex.writing.placement import describe_edits


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tex", help="the draft's root .tex file (or any file of the project)")
    parser.add_argument("--breadth", type=int, help="most papers cited (default: settings graph.breadth, 30)")
    parser.add_argument("--relevance-floor", type=float, metavar="SHARE",
                        help="share of the best paper's relevance a paper needs to be cited, so the section is "
                             "as broad as the papers close to the draft (0: always --breadth; default: settings "
                             f"graph.relevance_floor, {GraphSettings().relevance_floor})")
    parser.add_argument("--floor-exempt-links", type=int, metavar="N",
                        help="a paper that cites or is cited by N of the seed papers (the draft's cited papers "
                             "and top search hits) is cited whatever the floor (0: none; default: settings "
                             f"graph.floor_exempt_links, {GraphSettings().floor_exempt_links})")
    parser.add_argument("--depth", type=int, help="abstract sentences read per paper (default 3)")
    parser.add_argument("--diversity", type=float, help="MMR weight in [0, 1]: 0 relevance only (default 0.3)")
    parser.add_argument("--hops", type=int, choices=(0, 1, 2), help="citation hops from the seeds (default 1)")
    parser.add_argument("--no-llm", action="store_true", help="use the offline writer even if a model is set")
    parser.add_argument("--placement", choices=("after-introduction", "before-conclusion", "end"),
                        help="where --write puts the section (default: settings writing.placement)")
    parser.add_argument("--title", help="section title (default: settings writing.section_title)")
    parser.add_argument("--write", action="store_true", help="insert the section and entries into the files "
                        "(an existing related-work part is kept: the new text is added after it)")
    parser.add_argument("--replace", action="store_true", help="with --write: replace the body of the existing "
                        "related-work part instead, printing every line removed")
    parser.add_argument("--fallback-offline", action="store_true",
                        help="if the language model fails for good, use the offline writer instead of stopping")


def _print_err(message: str) -> None:
    print(f"relatex generate: {message}", file=sys.stderr)


def _write_section(args: argparse.Namespace, draft: Draft, result: GenerateResult) -> int:
    """Apply the planned edits to the files (all or nothing) and say where and what."""
    project, bibs = draft.project, draft.bibs
    edits = list(result.edits)
    expected = {p: f.text for p, f in project.files.items()} | {p: b.text for p, b in bibs.items()}
    try:
        check_writable(project.root_dir, {edit.path for edit in edits})
        write_edits(edits, expected)
    except (OSError, ValueError) as exc:
        _print_err(f"nothing written: {exc}")
        return 1
    existing = result.existing
    if existing is None and args.replace:
        print("relatex: the draft has no related-work part to replace; a new section was added", file=sys.stderr)
    if existing is not None and not args.replace:
        print(f"relatex: kept the existing \"{existing.title}\" ({existing.path.name}); the new text follows it "
              "between '% relatex:' marker lines (--replace replaces it instead)", file=sys.stderr)
    for line in describe_edits(edits, expected):
        print(f"relatex: {line}", file=sys.stderr)
    return 0


def _entries(count: int, kind: str = "BibTeX ") -> str:
    """"1 new BibTeX entry", "3 new BibTeX entries" (``kind`` "": "1 new entry")."""
    return f"{count} new {kind}{'entry' if count == 1 else 'entries'}"


def _print_section(result: GenerateResult) -> None:
    print(result.section_text())
    if result.section.new_entries:
        target = result.target_bib.name if result.target_bib is not None else "references.bib"
        print(f"% ---- {_entries(len(result.section.new_entries))} for {target} ----\n")
        print(result.entries_text())


def _report_usage(result: GenerateResult, elapsed: float) -> None:
    section = result.section
    for warning in section.warnings:
        print(f"relatex: warning: {warning}", file=sys.stderr)
    cited = len(section.cited_keys)
    print(f"relatex: {cited} paper{'' if cited == 1 else 's'} cited, {_entries(len(section.new_entries), '')}, "
          f"{elapsed:.1f}s", file=sys.stderr)
    if section.used_llm and section.usage:
        meter = UsageMeter(model=str(section.usage.get("model", "")))
        for name in ("calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens"):
            setattr(meter, name, int(section.usage.get(name, 0)))
        print(f"relatex: {meter.describe()} (an estimate from list prices)", file=sys.stderr)


def _streamer(args: argparse.Namespace) -> Callable[[str], None] | None:
    if args.write or not args.verbose:
        return None
    return lambda text: print(text, end="", file=sys.stderr, flush=True)


def _progress(args: argparse.Namespace) -> Callable[[str, float | None], None]:
    """Stages on stderr: with -v all of them, otherwise the choice of the writer."""

    def show(message: str, fraction: float | None) -> None:
        if args.verbose or message.startswith("writing about"):
            print(f"relatex: {message}", file=sys.stderr)

    return show


def _exit_status(exc: UseCaseFailed) -> int:
    return 2 if exc.kind in (BAD_REQUEST, NO_KNOWLEDGE_BASE, EMPTY_KNOWLEDGE_BASE) else 1


def request_from(args: argparse.Namespace, draft: Draft) -> GenerateRequest:
    return GenerateRequest(draft, knobs_from(args), use_llm=not args.no_llm,
                           fallback_offline=bool(args.fallback_offline), section_title=args.title,
                           placement=args.placement, replace=bool(args.replace), on_text=_streamer(args))


def run(args: argparse.Namespace, engines: Engines) -> int:
    started = time.perf_counter()
    if args.replace and not args.write:
        _print_err("--replace only goes with --write")
        return 2
    try:
        draft = load_draft(Path(args.tex), engines.settings.max_document_bytes)
        result = generate_section(request_from(args, draft), engines, progress=_progress(args))
    except UseCaseFailed as exc:
        hint = "; nothing written (--fallback-offline uses the offline writer)" \
            if exc.kind == MODEL_FAILED and not args.fallback_offline else ""
        _print_err(f"{exc}{hint}")
        return _exit_status(exc)
    except UseCaseCancelled:
        _print_err("cancelled")
        return 130
    if args.write:
        if _write_section(args, draft, result) != 0:
            return 1
    else:
        _print_section(result)
    _report_usage(result, time.perf_counter() - started)
    return 0
