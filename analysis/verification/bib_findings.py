"""Verdicts of bibliography verification as findings and as the edits their quick fixes apply."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from relatex.analysis.bib.bib_field_edits import rewrite_entry
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.edits import TextEdit
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.project_model import CitationKey, CitationSite
from relatex.analysis.verification.bib_verdicts import PAPER_TYPES, AuthorityRecord, BibVerdict

_CODES = {
    "mismatch": (Code.BIB_MISMATCH, Severity.WARNING),
    "not_found": (Code.BIB_UNKNOWN, Severity.WARNING),
    "absent": (Code.BIB_NOT_IN_KB, Severity.INFORMATION),
    "preprint": (Code.BIB_PREPRINT_PUBLISHED, Severity.INFORMATION),
    "ambiguous": (Code.BIB_AMBIGUOUS, Severity.INFORMATION),
}


def verdict_message(verdict: BibVerdict, entry: BibEntry) -> str:
    key = verdict.entry_key
    source = verdict.evidence[0].source if verdict.evidence else ""
    if verdict.status == "mismatch":
        parts = []
        for m in verdict.mismatches:
            if m.field == "authors":
                parts.append(f"authors: {m.detail}")
            elif m.detail:
                parts.append(f"{m.field}: {m.detail}" + (f" (should be {m.authority_value})" if m.authority_value else ""))
            else:
                parts.append(f"{m.field} is '{m.entry_value}', {source} has '{m.authority_value}'")
        return f"'{key}' does not match {verdict.evidence[0].describe()}: " + "; ".join(parts)
    if verdict.status == "preprint":
        pub = verdict.evidence[0]
        where = ", ".join(str(v) for v in (pub.venue, pub.year, f"doi:{pub.doi}" if pub.doi else None) if v)
        return f"'{key}' cites a preprint; a published version exists ({where or pub.record_id})"
    if verdict.status == "ambiguous":
        options = "; ".join(r.describe() for r in verdict.evidence[:4])
        return f"'{key}' matches several works ({options}); add a DOI to say which"
    checked = ", ".join(verdict.checked)
    near = f"; closest: {verdict.evidence[0].describe()}" if verdict.evidence else ""
    if verdict.status == "absent":
        online = (f"; online sources could not be asked ({', '.join(verdict.unavailable)})"
                  if verdict.unavailable else "; enable online verification to check that it exists")
        return f"'{key}' is not in the {checked}{online}{near}"
    return f"'{key}' was not found in {checked} (it may not exist: check title, authors and year){near}"


def _evidence_data(record: AuthorityRecord) -> dict[str, Any]:
    return {"source": record.source, "record_id": record.record_id, "title": record.title,
            "authors": list(record.authors), "year": record.year, "venue": record.venue, "doi": record.doi}


def verdict_findings(
    verdict: BibVerdict, entry: BibEntry, citations: Iterable[CitationSite | CitationKey] = ()
) -> list[Finding]:
    """Findings on the .bib entry and on each citation of its key (none when verified/unchecked)."""
    if verdict.status not in _CODES:
        return []
    code, severity = _CODES[verdict.status]
    if verdict.status == "not_found" and entry.entry_type not in PAPER_TYPES:
        severity = Severity.INFORMATION
    message = verdict_message(verdict, entry)
    data: dict[str, Any] = {
        "key": entry.key,
        "status": verdict.status,
        "bib_path": str(entry.path),
        "entry_start": entry.start,
        "entry_end": entry.end,
        "corrected_fields": dict(verdict.corrected_fields),
        "mismatches": [
            {"field": m.field, "entry": m.entry_value, "authority": m.authority_value, "detail": m.detail}
            for m in verdict.mismatches
        ],
        "evidence": [_evidence_data(r) for r in verdict.evidence],
    }
    start, end = (entry.key_start, entry.key_end) if entry.key_end > entry.key_start else (entry.start, entry.start + 1)
    findings = [Finding(code, severity, message, entry.path, start, end, data)]
    keys: list[CitationKey] = []
    for item in citations:
        keys.extend(item.keys if isinstance(item, CitationSite) else (item,))
    for cited in keys:
        if cited.key == entry.key:
            findings.append(Finding(code, severity, message, cited.path, cited.start, cited.end, data))
    return findings


def correction_edit(entry: BibEntry, verdict: BibVerdict, source_text: str | None = None) -> TextEdit | None:
    """The edit applying ``verdict.corrected_fields`` to exactly this entry's range, or None.

    With the file's ``source_text`` the other fields keep their exact formatting; without it
    the entry is re-formatted canonically. The key and fields the authority does not know stay.
    """
    if not verdict.corrected_fields or verdict.status not in ("mismatch", "preprint"):
        return None
    fixes: Mapping[str, str] = verdict.corrected_fields
    original = source_text[entry.start : entry.end] if source_text is not None else None
    new_text = rewrite_entry(entry, fixes, original)
    if original is not None and new_text == original:
        return None
    return TextEdit(entry.path, entry.start, entry.end, new_text)
