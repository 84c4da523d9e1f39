"""Verify a draft's bibliography against authorities: one rule, one cache, one set of findings.

Both front ends call :func:`verify_bibliography`: the language server in its background pass
(with a verdict cache that outlives the pass) and ``relatex check --bib [--fix]``.

- Which entries: :func:`entries_to_verify` (the first entry of each key the draft cites, every
  key with ``\\nocite{*}`` or when a .bib file is checked alone; at most
  :data:`MAX_VERIFIED_ENTRIES`).
- Against what: ``engines.authorities(status)`` (the knowledge base, then, when enabled, the
  online registries).
- Cached by entry text: :class:`EntryVerdicts` (path + the entry's source text).
- Findings: :func:`relatex.analysis.verification.bib_findings.verdict_findings`, on the entry and
  on each citation of its key.
- ``fix``: the corrections are written to the .bib files (files changed since parsing, and files
  outside the project folder, are skipped); fixed entries get no findings.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from relatex.analysis.bib.bibliography_index import bibliography_index
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.analysis.edits import TextEdit
from relatex.analysis.findings import Finding
from relatex.analysis.latex.project_boundary import write_refusal
from relatex.analysis.latex.project_model import CitationSite, LatexProject
from relatex.analysis.text_files import UnwritableText, write_edits
from relatex.analysis.verification.bib_findings import correction_edit, verdict_findings
from relatex.analysis.verification.bib_verdicts import Authority, BibVerdict
from relatex.analysis.verification.bib_verification import verify_entry
from relatex.retrieval.online.http import OnlineStatus
from relatex.workflows.engines import Engines
from relatex.workflows.progress import ProgressCallback, no_progress

log = logging.getLogger(__name__)

#: At most this many entries are verified per pass (a large \nocite{*} bibliography).
MAX_VERIFIED_ENTRIES = 2000
#: Progress is reported every this many entries, for bibliographies of at least twice as many.
PROGRESS_EVERY = 25


def entry_digest(entry: BibEntry, text: str) -> str:
    """What a verdict of ``entry`` depends on: its file and its source text (``text`` is the file's)."""
    data = f"{entry.path}\x1f{text[entry.start:entry.end]}"
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def first_entries(bibs: Mapping[Path, BibFile]) -> Mapping[str, BibEntry]:
    """The first entry of each key over all .bib files, in file order: the bibliography index's,
    built once per content (a 100k-entry .bib is not walked again on every pass)."""
    return bibliography_index(bibs).defined


def entries_to_verify(project: LatexProject | None, bibs: Mapping[Path, BibFile]) -> list[BibEntry]:
    """The entries a verification pass checks (the one rule both front ends apply)."""
    by_key = first_entries(bibs)
    if project is None or not project.files:
        keys = list(by_key)  # a .bib file checked on its own
    elif any(k.key == "*" for site in project.citations for k in site.keys):
        keys = list(by_key)
    else:
        keys = list(project.cited_keys())
    return [by_key[k] for k in keys if k in by_key][:MAX_VERIFIED_ENTRIES]


class EntryVerdicts:
    """Verdicts by entry text, shared between passes and threads (the editor keeps one)."""

    def __init__(self, store: MutableMapping[str, BibVerdict] | None = None,
                 lock: threading.Lock | threading.RLock | None = None) -> None:
        self.store: MutableMapping[str, BibVerdict] = store if store is not None else {}
        self.lock = lock or threading.Lock()

    def get(self, digest: str) -> BibVerdict | None:
        with self.lock:
            return self.store.get(digest)

    def put(self, digest: str, verdict: BibVerdict) -> None:
        with self.lock:
            self.store[digest] = verdict


@dataclass(frozen=True)
class VerifyRequest:
    """Verify the bibliography of ``project`` (its loaded .bib files ``bibs``); ``fix`` writes
    the corrections. ``texts`` are the texts the entries' offsets refer to (default: the bibs')."""

    project: LatexProject | None
    bibs: Mapping[Path, BibFile]
    fix: bool = False
    texts: Mapping[Path, str] | None = None

    def text_of(self, path: Path) -> str:
        if self.texts is not None and path in self.texts:
            return self.texts[path]
        bib = self.bibs.get(path)
        return bib.text if bib is not None else ""


@dataclass(frozen=True)
class FixedEntry:
    """An entry whose corrections were written, and what changed."""

    entry: BibEntry
    verdict: BibVerdict
    description: str


@dataclass(frozen=True)
class VerifyResult:
    """Verdicts by key, findings, how many entries got each status, and what ``fix`` did."""

    verdicts: dict[str, BibVerdict] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)
    fixed: tuple[FixedEntry, ...] = ()
    notes: tuple[str, ...] = ()  # corrections that could not be written, and why
    had_authorities: bool = True
    complete: bool = True


def describe_fix(entry: BibEntry, verdict: BibVerdict) -> str:
    """``fixed 'key' in file.bib: year: '2015' -> '2016'; ...``"""
    parts = []
    for name, value in verdict.corrected_fields.items():
        if name == "@type":
            parts.append(f"type -> @{value}")
        elif value:
            old = entry.fields.get(name)
            parts.append(f"{name}: {old!r} -> {value!r}" if old else f"{name} added: {value!r}")
        else:
            parts.append(f"{name} removed")
    return f"fixed '{entry.key}' in {entry.path.name}: " + "; ".join(parts)


def apply_corrections(bibs: Mapping[Path, BibFile], edits: Sequence[TextEdit],
                      root_dir: Path | None = None) -> tuple[set[Path], list[str]]:
    """Write correction edits to the .bib files; the changed files and notes on those skipped."""
    changed: set[Path] = set()
    notes: list[str] = []
    by_path: dict[Path, list[TextEdit]] = {}
    for edit in edits:
        by_path.setdefault(edit.path, []).append(edit)
    for path, file_edits in by_path.items():
        refusal = write_refusal(root_dir, path) if root_dir is not None else None
        if refusal is not None:
            notes.append(f"{refusal}; not fixed")
            continue
        try:
            write_edits(file_edits, {path: bibs[path].text})
        except UnwritableText as exc:
            notes.append(f"{exc}; not fixed")
            continue
        except (OSError, ValueError) as exc:
            notes.append(f"cannot fix {path}: {exc}")
            continue
        changed.add(path)
    return changed, notes


def _verdict(entry: BibEntry, digest: str, authorities: Sequence[Authority], engines: Engines,
             cache: EntryVerdicts) -> BibVerdict:
    verdict = cache.get(digest)
    if verdict is None:
        with engines.using_knowledge_base():
            verdict = verify_entry(entry, authorities)
        cache.put(digest, verdict)
    return verdict


def _citations_by_key(project: LatexProject | None) -> dict[str, list[CitationSite]]:
    sites: dict[str, list[CitationSite]] = {}
    for site in project.citations if project is not None else ():
        for key in site.keys:
            sites.setdefault(key.key, []).append(site)
    return sites


def verify_bibliography(request: VerifyRequest, engines: Engines, cancel: Cancel = None,
                        progress: ProgressCallback = no_progress,
                        cache: EntryVerdicts | None = None) -> VerifyResult:
    """Verify the entries of :func:`entries_to_verify`; stops between entries when cancelled
    (``complete`` is then False and the verdicts so far are returned, and stay cached)."""
    status = OnlineStatus(notify=lambda message: progress(message, None))
    authorities = engines.authorities(status)
    if not authorities:
        return VerifyResult(had_authorities=False)
    return _verify(request, engines, authorities, cancel, progress, cache if cache is not None else EntryVerdicts())


def _verify(request: VerifyRequest, engines: Engines, authorities: Sequence[Authority], cancel: Cancel,
            progress: ProgressCallback, cache: EntryVerdicts) -> VerifyResult:
    """Verdicts of the entries to verify (cached), then their findings and corrections."""
    entries = entries_to_verify(request.project, request.bibs)
    verdicts: dict[str, BibVerdict] = {}
    complete = True
    for done, entry in enumerate(entries, 1):
        if is_cancelled(cancel):
            complete = False
            break
        digest = entry_digest(entry, request.text_of(entry.path))
        verdicts[entry.key] = _verdict(entry, digest, authorities, engines, cache)
        if len(entries) >= 2 * PROGRESS_EVERY and (done % PROGRESS_EVERY == 0 or done == len(entries)):
            progress(f"verified {done}/{len(entries)} entries", done / len(entries))
    return _results(request, entries, verdicts, complete)


def _results(request: VerifyRequest, entries: Sequence[BibEntry], verdicts: Mapping[str, BibVerdict],
             complete: bool) -> VerifyResult:
    """Findings, counts and (with ``fix``) the written corrections of a pass's verdicts."""
    sites = _citations_by_key(request.project)
    counts: dict[str, int] = {}
    findings: list[Finding] = []
    edits: list[TextEdit] = []
    to_fix: list[tuple[BibEntry, BibVerdict]] = []
    for entry in entries:
        if entry.key not in verdicts:
            continue
        verdict = verdicts[entry.key]
        counts[verdict.status] = counts.get(verdict.status, 0) + 1
        edit = correction_edit(entry, verdict, request.text_of(entry.path)) if request.fix else None
        if edit is not None:
            edits.append(edit)
            to_fix.append((entry, verdict))
        else:
            findings.extend(verdict_findings(verdict, entry, sites.get(entry.key, ())))
    fixed: list[FixedEntry] = []
    notes: list[str] = []
    if edits:
        root_dir = request.project.root_dir if request.project is not None else None
        changed, notes = apply_corrections(request.bibs, edits, root_dir)
        for entry, verdict in to_fix:
            if entry.path in changed:
                fixed.append(FixedEntry(entry, verdict, describe_fix(entry, verdict)))
            else:
                findings.extend(verdict_findings(verdict, entry, sites.get(entry.key, ())))
    return VerifyResult(dict(verdicts), tuple(findings), counts, tuple(fixed), tuple(notes), True, complete)
