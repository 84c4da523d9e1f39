"""`relatex generate`: write a related-work section for a draft, with BibTeX entries for new papers.

Prints the section and the new entries to stdout, or with ``--write`` applies the same targeted
edits the language server would (section after the introduction, entries appended to the .bib)
and lists the changed files. Progress, warnings and the token/cost estimate go to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from relatex.config.settings import Settings
from relatex.server.commands.related import params_from
from relatex.workflows.engines import Engines
from relatex.workflows.kb_status import index_command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tex", help="the draft's root .tex file (or any file of the project)")
    parser.add_argument("--breadth", type=int, help="papers cited (default: settings graph.breadth, 30)")
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


def _write_section(args: argparse.Namespace, settings: Settings, project: Any, bibs: Any,
                   section: Any) -> int:
    """Apply the section and entries to the files (all or nothing) and say where and what."""
    from relatex.analysis.latex.project_boundary import check_writable
    from relatex.analysis.text_files import write_edits
    from relatex.writing.placement import describe_edits, find_related_section, plan_insertion

    title = args.title or settings.writing.section_title
    edits = plan_insertion(project, bibs, section, placement=args.placement or settings.writing.placement,
                           section_title=title, replace=args.replace)
    expected = {p: f.text for p, f in project.files.items()} | {p: b.text for p, b in bibs.items()}
    existing = find_related_section(project, title)
    try:
        check_writable(project.root_dir, {edit.path for edit in edits})
        write_edits(edits, expected)
    except (OSError, ValueError) as exc:
        _print_err(f"nothing written: {exc}")
        return 1
    if existing is None and args.replace:
        print("relatex: the draft has no related-work part to replace; a new section was added", file=sys.stderr)
    if existing is not None and not args.replace:
        print(f"relatex: kept the existing \"{existing.title}\" ({existing.path.name}); the new text follows it "
              "between '% relatex:' marker lines (--replace replaces it instead)", file=sys.stderr)
    for line in describe_edits(edits, expected):
        print(f"relatex: {line}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace, engines: Engines) -> int:
    settings = engines.settings
    from relatex.analysis.latex.latex_project import find_root, load_project
    from relatex.analysis.verification.project_checks import load_bibliographies
    from relatex.retrieval.authorities import KnowledgeBaseAuthority
    from relatex.retrieval.draft import draft_context
    from relatex.retrieval.selection import SelectionCancelled, default_sources, select_papers
    from relatex.workflows.knowledge_bases import open_knowledge_base
    from relatex.workflows.language_models import make_llm
    from relatex.writing.generate import GenerationCancelled, WritingOptions, generate_related_work
    from relatex.writing.llm import LLMError
    from relatex.writing.verified_citations import verify_cited_entries
    started = time.perf_counter()
    try:
        params = params_from(args, settings)
    except ValueError as exc:
        _print_err(str(exc))
        return 2
    if args.replace and not args.write:
        _print_err("--replace only goes with --write")
        return 2
    path = Path(args.tex).expanduser().resolve()
    try:
        project = load_project(find_root(path))
    except FileNotFoundError:
        _print_err(f"{path} does not exist")
        return 2
    if not (project.abstract or "").strip():
        _print_err(f"{project.root.name} has no abstract: write \\begin{{abstract}} ... \\end{{abstract}} first; "
                   "the papers are chosen and positioned against it")
        return 2
    bibs = load_bibliographies(project)
    try:
        llm = None if args.no_llm else make_llm(settings)
    except LLMError as exc:
        _print_err(str(exc))
        return 2

    def progress(message: str, fraction: float) -> None:
        if args.verbose:
            print(f"relatex: {message}", file=sys.stderr)

    try:
        kb = open_knowledge_base(settings, read_only=True)
    except FileNotFoundError as exc:
        _print_err(str(exc))
        return 2
    except Exception as exc:  # a locked or broken index is reported, not a traceback
        _print_err(f"cannot open the knowledge base: {exc}")
        return 1
    try:
        if len(kb) == 0:
            data_dir = settings.knowledge_base.resolved_data_dir()
            _print_err(f"the knowledge base at {data_dir} is empty; run `{index_command(settings)}` in the "
                       "project folder first")
            return 2
        print(f"relatex: choosing papers among {len(kb)} in the knowledge base", file=sys.stderr)
        draft = draft_context(project, bibs, kb)
        try:
            selection = select_papers(draft, kb, params, None, progress=progress, sources=default_sources(kb))
        except SelectionCancelled:
            _print_err("cancelled")
            return 130
        verdicts = verify_cited_entries(selection, bibs, [KnowledgeBaseAuthority(kb)])  # the draft's own entries
    finally:
        kb.close()
    if not selection.papers:
        _print_err("no related papers were found in the knowledge base")
        return 1
    print(f"relatex: writing about {len(selection.papers)} papers in {len(selection.themes)} themes"
          + (f" with {getattr(llm, 'model', 'a language model')}" if llm is not None else " (offline writer)"),
          file=sys.stderr)
    streamed = llm is not None and not args.write
    options = WritingOptions(
        section_title=args.title or settings.writing.section_title,
        depth=params.depth,
        memory_tokens=settings.writing.memory_tokens,
        on_text=(lambda text: print(text, end="", file=sys.stderr, flush=True)) if streamed and args.verbose else None,
        fallback_offline=bool(args.fallback_offline),
    )
    try:
        from relatex.server.commands.check_claims import make_judge  # the judge `relatex check` uses

        section = generate_related_work(project, bibs, selection, llm=llm, options=options, progress=progress,
                                        judge=make_judge(settings), bib_verdicts=verdicts)
    except LLMError as exc:
        hint = "" if args.fallback_offline else "; nothing written (--fallback-offline uses the offline writer)"
        _print_err(f"{exc}{hint}")
        return 1
    except GenerationCancelled:
        _print_err("cancelled")
        return 130
    for warning in section.warnings:
        print(f"relatex: warning: {warning}", file=sys.stderr)
    title = options.section_title
    if args.write:
        if _write_section(args, settings, project, bibs, section) != 0:
            return 1
    else:
        print(f"\\section{{{title}}}\n\\label{{sec:related-work}}\n\n{section.latex.rstrip()}\n")
        if section.new_entries:
            from relatex.writing.placement import target_bib

            found = target_bib(project, bibs)
            target = found.name if found is not None else "references.bib"
            print(f"% ---- {len(section.new_entries)} new BibTeX entries for {target} ----\n")
            print("\n\n".join(e.bibtex.strip() for e in section.new_entries))
    elapsed = time.perf_counter() - started
    print(f"relatex: {len(section.cited_keys)} papers cited, {len(section.new_entries)} new entries, "
          f"{elapsed:.1f}s", file=sys.stderr)
    if section.used_llm and section.usage:
        from relatex.writing.llm import UsageMeter

        meter = UsageMeter(model=str(section.usage.get("model", "")))
        for name in ("calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens"):
            setattr(meter, name, int(section.usage.get(name, 0)))
        print(f"relatex: {meter.describe()} (an estimate from list prices)", file=sys.stderr)
    return 0
