"""BibTeX verification for `relatex check --bib` / `--fix` (and the language server).

Authorities come from the settings: the local knowledge base when one exists, then, when
online sources are enabled, Crossref, arXiv, OpenAlex and DBLP (cached on disk). ``fix``
applies the proposed corrections as targeted edits of the .bib files and says on stderr
what changed; nothing else in the files is touched.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.edits import TextEdit
from relatex.analysis.findings import Finding
from relatex.analysis.latex.project_model import LatexProject
from relatex.analysis.text_files import UnwritableText, write_edits
from relatex.analysis.verification.bib_verification import (
    Authority,
    BibVerdict,
    correction_edit,
    verdict_findings,
    verify_entry,
)
from relatex.config.settings import Settings
from relatex.retrieval.authorities import KnowledgeBaseAuthority, online_authorities
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.online.http import OnlineStatus
from relatex.workflows.kb_status import index_command

log = logging.getLogger(__name__)


def _open_kb(settings: Settings) -> KnowledgeBase:
    """The configured knowledge base, read-only. Verification needs no vectors, so a knowledge
    base built with another embedding model than the configured one is still used."""
    from relatex.workflows.knowledge_bases import open_knowledge_base

    try:
        return open_knowledge_base(settings, read_only=True)
    except ValueError:
        return KnowledgeBase.open(settings.knowledge_base.resolved_data_dir(), read_only=True)


def build_authorities(
    settings: Settings, stack: ExitStack, status: OnlineStatus | None = None
) -> list[Authority]:
    """The knowledge base (read-only, when it exists) and, if enabled, the online sources."""
    authorities: list[Authority] = []
    data_dir = settings.knowledge_base.resolved_data_dir()
    if settings.knowledge_base.qdrant_url or (data_dir / "records.sqlite").exists():
        try:
            kb = _open_kb(settings)
            stack.callback(kb.close)
            authorities.append(KnowledgeBaseAuthority(kb))
        except Exception as exc:  # a broken or busy knowledge base must not stop the check
            print(f"relatex: knowledge base not used for verification: {exc}", file=sys.stderr)
    if settings.online.enabled:
        authorities.extend(
            online_authorities(
                settings.online.resolved_cache_dir() / "http",
                timeout=settings.online.timeout,
                mailto=settings.online.mailto,
                status=status,
            )
        )
    return authorities


def verify_bibliographies(
    bibs: Mapping[Path, BibFile],
    authorities: Sequence[Authority],
    progress: Callable[[int, int], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> list[tuple[BibEntry, BibVerdict]]:
    """Verdicts for the first entry of every key of every .bib file, in file order."""
    entries = [entry for bib in bibs.values() for entry in bib.by_key().values()]
    results: list[tuple[BibEntry, BibVerdict]] = []
    for done, entry in enumerate(entries, 1):
        if cancel is not None and cancel():
            break
        results.append((entry, verify_entry(entry, authorities)))
        if progress is not None and (done % 25 == 0 or done == len(entries)):
            progress(done, len(entries))
    return results


def apply_corrections(
    bibs: Mapping[Path, BibFile], edits: Sequence[TextEdit], err: TextIO | None = None,
    root_dir: Path | None = None,
) -> list[Path]:
    """Apply correction edits to the .bib files on disk; files changed since parsing, and files
    outside the project folder ``root_dir``, are skipped."""
    from relatex.analysis.latex.project_boundary import write_refusal

    err = err or sys.stderr
    changed: list[Path] = []
    by_path: dict[Path, list[TextEdit]] = {}
    for edit in edits:
        by_path.setdefault(edit.path, []).append(edit)
    for path, file_edits in by_path.items():
        bib = bibs[path]
        refusal = write_refusal(root_dir, path) if root_dir is not None else None
        if refusal is not None:
            print(f"relatex: {refusal}; not fixed", file=err)
            continue
        try:
            write_edits(file_edits, {path: bib.text})
        except UnwritableText as exc:
            print(f"relatex: {exc}; not fixed", file=err)
            continue
        except (OSError, ValueError) as exc:
            print(f"relatex: cannot fix {path}: {exc}", file=err)
            continue
        changed.append(path)
    return changed


def _describe_fix(entry: BibEntry, verdict: BibVerdict) -> str:
    parts = []
    for name, value in verdict.corrected_fields.items():
        if name == "@type":
            parts.append(f"type -> @{value}")
        elif value:
            old = entry.fields.get(name)
            parts.append(f"{name}: {old!r} -> {value!r}" if old else f"{name} added: {value!r}")
        else:
            parts.append(f"{name} removed")
    return f"relatex: fixed '{entry.key}' in {entry.path.name}: " + "; ".join(parts)


def bib_findings(
    project: LatexProject,
    bibs: Mapping[Path, BibFile],
    settings: Settings,
    fix: bool,
    *,
    authorities: Sequence[Authority] | None = None,
    err: TextIO | None = None,
) -> list[Finding]:
    """Verify every entry; findings on the entries and their citations. With ``fix``, write the
    corrections to disk (findings of fixed entries are not returned; they are printed)."""
    err = err or sys.stderr
    status = OnlineStatus(notify=lambda message: print(message, file=err))
    with ExitStack() as stack:
        if authorities is None:
            authorities = build_authorities(settings, stack, status)
        if not authorities:
            print("relatex: no knowledge base and online sources are off: the bibliography was not verified "
                  f"(build a knowledge base with `{index_command(settings)}` in the project folder, or use --online)", file=err)
            return []

        def progress(done: int, total: int) -> None:
            if total >= 50:
                print(f"relatex: verified {done}/{total} entries", file=err)

        results = verify_bibliographies(bibs, authorities, progress)
    counts: dict[str, int] = {}
    findings: list[Finding] = []
    edits: list[TextEdit] = []
    fixed: list[tuple[BibEntry, BibVerdict]] = []
    for entry, verdict in results:
        counts[verdict.status] = counts.get(verdict.status, 0) + 1
        edit = correction_edit(entry, verdict, bibs[entry.path].text) if fix else None
        if edit is not None:
            edits.append(edit)
            fixed.append((entry, verdict))
        else:
            findings.extend(verdict_findings(verdict, entry, project.citations))
    if edits:
        changed = set(apply_corrections(bibs, edits, err, project.root_dir))
        for entry, verdict in fixed:
            if entry.path in changed:
                print(_describe_fix(entry, verdict), file=err)
            else:
                findings.extend(verdict_findings(verdict, entry, project.citations))
    labels = {"absent": "not in the knowledge base (not checked online)"}
    summary = ", ".join(f"{n} {labels.get(status, status.replace('_', ' '))}" for status, n in sorted(counts.items()))
    print(f"relatex: bibliography verification: {summary or 'no entries'}", file=err)
    return findings
