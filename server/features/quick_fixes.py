"""Quick fixes for relatex diagnostics, computed from the latest snapshot and background results.

- undefined key: add the entry when the knowledge base has the paper (key words / search);
- mismatch or published preprint: apply the authority's values to the entry;
- duplicate key or work: merge into the first entry and rename its citations project-wide;
- unsupported claim: replace or supplement the citation with a better-supported candidate.

Edits are planned on the snapshot's texts and pinned to the document versions those texts
came from, so a fix planned on stale text is refused by the client instead of corrupting it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from relatex.analysis.bib import bib_edits
from relatex.analysis.bib.bib_identity import same_work
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.edits import TextEdit
from relatex.analysis.findings import Code
from relatex.analysis.verification.bib_findings import correction_edit
from relatex.retrieval.records import PaperRecord, normalise_doi
from relatex.server.workspace_state import WorkspaceState
from relatex.workflows.check_project import ProjectSnapshot
from relatex.workflows.search import supporting_papers
from relatex.writing import citation_keys
from relatex.writing.bibtex_render import render_entry

log = logging.getLogger(__name__)

MAX_CANDIDATES = 5


def short_title(title: str, limit: int) -> str:
    """``title`` in at most ``limit`` characters, cut at a word boundary and marked with "…"."""
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    cut = title[:limit].rsplit(" ", 1)[0] if " " in title[:limit] else title[:limit]
    return cut.rstrip(" ,;:.-") + "…"


def text_edit(path: Path, start: int, end: int, new_text: str) -> TextEdit:
    return TextEdit(path, start, end, new_text)


def target_bib(snapshot: ProjectSnapshot) -> BibFile | None:
    """The .bib new entries go to: the first declared one that was loaded."""
    if snapshot.project is None:
        return None
    for path in snapshot.project.bib_paths():
        if path in snapshot.bibs:
            return snapshot.bibs[path]
    return next(iter(snapshot.bibs.values()), None)


def new_key_for(record: PaperRecord, snapshot: ProjectSnapshot) -> str:
    taken = set(snapshot.entries_by_key())
    style = citation_keys.detect_key_style(list(taken))
    return str(citation_keys.unique_key(citation_keys.base_key(record, style), taken, style))


def render(record: PaperRecord, key: str) -> str:
    return str(render_entry(record, key))


def add_entry_edits(snapshot: ProjectSnapshot, record: PaperRecord, key: str) -> list[Any]:
    """Edits that add ``record`` under ``key``: appended to the draft's .bib, or a new references.bib."""
    entry_text = render(record, key)
    bib = target_bib(snapshot)
    if bib is not None:
        return [bib_edits.append_entry_edit(bib, entry_text)]
    if snapshot.project is None:
        raise RuntimeError("no project to add the entry to")
    return new_bibliography_edits(snapshot, entry_text)


def new_bibliography_edits(snapshot: ProjectSnapshot, entry_text: str) -> list[Any]:
    """Create references.bib next to the root and declare it before ``\\end{document}``."""
    project = snapshot.project
    assert project is not None
    root_text = snapshot.texts.get(project.root, "")
    bib_path = project.root_dir / "references.bib"
    if project.citation_package == "biblatex":
        line, anchor = "\\addbibresource{references.bib}\n", root_text.find("\\begin{document}")
    else:
        line, anchor = "\\bibliographystyle{plain}\n\\bibliography{references}\n", root_text.rfind("\\end{document}")
    if anchor < 0:
        anchor = len(root_text)
    return [text_edit(bib_path, 0, 0, entry_text), text_edit(project.root, anchor, anchor, line)]


def key_of_diagnostic(data: Mapping[str, Any], snapshot: ProjectSnapshot) -> str | None:
    for name in ("key", "entry_key", "citation_key"):
        if isinstance(data.get(name), str):
            return str(data[name])
    path = Path(str(data.get("path", "")))
    text = snapshot.texts.get(path)
    start, end = data.get("start"), data.get("end")
    if text is not None and isinstance(start, int) and isinstance(end, int):
        from relatex.server.features.cite_scan import cite_key_at

        found = cite_key_at(text, start)
        if found is not None:
            return found.key
        value = text[start:end].strip()
        return value or None
    return None


def kb_candidates_for_key(state: WorkspaceState, key: str, context: str = "") -> list[PaperRecord]:
    """Knowledge-base papers a key may stand for: DOI/arXiv keys, then a search of its words."""
    kb = state.knowledge_base()
    if kb is None:
        return []
    with state.kb_lock:
        doi = normalise_doi(key)
        if doi and (found := kb.find_by_doi(doi)) is not None:
            return [found]
        words = " ".join(w for w in re.split(r"[^A-Za-z]+|(?<=[a-z])(?=[A-Z])", key) if len(w) > 1)
        if not words:
            return []
        hits = kb.search(f"{words} {context}".strip(), k=MAX_CANDIDATES)
    years = re.findall(r"(?:19|20)\d\d", key)
    result = []
    for hit in hits:
        record = hit.record
        surname = record.first_author_surname().lower()
        if surname and surname in key.lower() and (not years or str(record.year) in years):
            result.append(record)
    return result or [hit.record for hit in hits[:1] if hit.score > 0 and len(words.split()) >= 2][:1]


def merge_entries(entries: Sequence[BibEntry]) -> tuple[BibEntry, dict[str, str]]:
    """The kept entry (first) and the fields the others add to it."""
    kept = entries[0]
    added: dict[str, str] = {}
    for other in entries[1:]:
        for name, value in other.fields.items():
            if name not in kept.fields and name not in added and value:
                added[name] = value
    return kept, added


def duplicate_fix(snapshot: ProjectSnapshot, data: Mapping[str, Any], code: Code) -> tuple[str, list[Any]] | None:
    """Merge duplicates into the first entry; rename citations of the removed keys."""
    all_entries = [e for bib in snapshot.bibs.values() for e in bib.entries]
    key = key_of_diagnostic(data, snapshot)
    path = Path(str(data.get("path", "")))
    start = data.get("start")
    anchor = next((e for e in all_entries if e.path == path and isinstance(start, int) and e.start <= start < e.end),
                  None)
    if anchor is None:
        anchor = next((e for e in all_entries if e.key == key), None)
    if anchor is None:
        return None
    if code == Code.DUPLICATE_KEY:
        group = [e for e in all_entries if e.key == anchor.key]
    else:
        listed = data.get("other_keys")
        others = {str(k) for k in listed} if isinstance(listed, list) else set()
        group = [e for e in all_entries if e.key in others or e is anchor or
                 (e.key != anchor.key and same_work(e, anchor))]
        group = list({(e.path, e.start): e for e in group}.values())
    group.sort(key=lambda e: (str(e.path), e.start))
    if len(group) < 2:
        return None
    kept, added = merge_entries(group)
    edits: list[Any] = []
    if added:
        fields = {**kept.fields, **added}
        edits.append(bib_edits.replace_entry_edit(kept, bib_edits.format_entry(kept.entry_type, kept.key, fields)))
    for other in group[1:]:
        edits.append(bib_edits.remove_entry_edit(other))
    renamed = {e.key for e in group[1:] if e.key != kept.key}
    if renamed and snapshot.project is not None:
        for site in snapshot.project.citations:
            for cite in site.keys:
                if cite.key in renamed:
                    edits.append(text_edit(cite.path, cite.start, cite.end, kept.key))
    title = (f"Merge the duplicate entries of '{kept.key}'" if code == Code.DUPLICATE_KEY else
             f"Merge {', '.join(sorted(renamed))} into '{kept.key}' and rename their citations")
    return title, edits


def correction_fix(state: WorkspaceState, snapshot: ProjectSnapshot, data: Mapping[str, Any]) -> tuple[str, list[Any]] | None:
    key = key_of_diagnostic(data, snapshot)
    background = state.background.get(snapshot.root)
    if key is None or background is None or key not in background.verdicts:
        return None
    entry = snapshot.entries_by_key().get(key)
    if entry is None:
        return None
    edit = correction_edit(entry, background.verdicts[key])
    if edit is None:
        return None
    source = ""
    evidence = getattr(background.verdicts[key], "evidence", ()) or ()
    if evidence:
        source = f" from {getattr(evidence[0], 'source', 'the authority')}"
    return f"Apply the verified values{source} to '{key}'", [edit]


def better_citations(state: WorkspaceState, snapshot: ProjectSnapshot, claim: str,
                     cited: Sequence[str]) -> list[tuple[PaperRecord, Any]]:
    """Knowledge-base papers that support ``claim`` better, best first (with their verdicts)."""
    background = state.background.get(snapshot.root)
    cited_ids = {background.records[k].id for k in cited if background and k in background.records}
    try:
        return supporting_papers(claim, state.engines, cited_ids, MAX_CANDIDATES)
    except Exception as exc:  # no judge or knowledge base: no fix, not a failure of the action
        log.warning("better citations unavailable: %s", exc)
        return []


def claim_fixes(state: WorkspaceState, snapshot: ProjectSnapshot, data: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """Replace the unsupported key (single-key citations) or add a better-supported one."""
    claim = str(data.get("claim") or "")
    keys = [str(k) for k in data.get("keys", [])]
    path = Path(str(data.get("path", "")))
    cite_start, cite_end = data.get("cite_start"), data.get("cite_end")
    if not claim or not keys or not isinstance(cite_start, int) or not isinstance(cite_end, int):
        return []

    candidates = better_citations(state, snapshot, claim, keys)
    text = snapshot.texts.get(path, "")
    site = text[cite_start:cite_end]
    brace = site.rfind("{")
    if brace < 0 or not site.endswith("}"):
        return []
    entries = snapshot.entries_by_key()
    fixes: list[tuple[str, list[Any]]] = []
    for record, verdict in candidates[:2]:
        existing = next((k for k, e in entries.items() if (e.doi and record.doi and
                                                           e.doi.lower() == record.doi.lower())), None)
        key = existing or new_key_for(record, snapshot)
        add = [] if existing else add_entry_edits(snapshot, record, key)
        body_start, body_end = cite_start + brace + 1, cite_end - 1
        label = f"{short_title(record.title, 60)} ({verdict.label.replace('_', ' ')}, {verdict.score:.2f})"
        if len(keys) == 1:
            fixes.append((f"Replace '{keys[0]}' with '{key}': {label}",
                          [text_edit(path, body_start, body_end, key), *add]))
        fixes.append((f"Add '{key}' to this citation: {label}",
                      [text_edit(path, body_end, body_end, f", {key}"), *add]))
    return fixes


def fixes_for(state: WorkspaceState, snapshot: ProjectSnapshot, data: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """(title, domain edits) quick fixes for one relatex diagnostic's data (runs in the executor)."""
    try:
        code = Code(str(data.get("code")))
    except ValueError:
        return []
    if code == Code.UNDEFINED_CITATION:
        key = key_of_diagnostic(data, snapshot)
        if not key:
            return []
        fixes = []
        for record in kb_candidates_for_key(state, key)[:2]:
            fixes.append((f"Add '{key}' from the knowledge base: {short_title(record.title, 70)} ({record.year or 'n.d.'})",
                          add_entry_edits(snapshot, record, key)))
        return fixes
    if code in (Code.BIB_MISMATCH, Code.BIB_PREPRINT_PUBLISHED):
        fix = correction_fix(state, snapshot, data)
        return [fix] if fix else []
    if code in (Code.DUPLICATE_KEY, Code.DUPLICATE_WORK):
        fix = duplicate_fix(snapshot, data, code)
        return [fix] if fix else []
    if code in (Code.CLAIM_NOT_SUPPORTED, Code.CLAIM_CONTRADICTED, Code.CLAIM_PARTIALLY_SUPPORTED):
        return claim_fixes(state, snapshot, data)
    return []
