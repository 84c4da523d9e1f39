"""Verify BibTeX entries against authorities (knowledge base, Crossref, arXiv, OpenAlex, DBLP).

An entry is matched first by identifier (DOI, arXiv id; the identifier's record must agree
with the entry's title or authors, else the identifier itself is wrong), then by title plus
at least one shared author surname and a year within one; a title alone never matches.
The verdict lists every field that differs with the authority's value, the evidence
(source and record id), and the corrected fields a quick fix may apply. Nothing is rewritten
here: :func:`correction_edit` only proposes an edit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from relatex.analysis.bib.bib_field_edits import rewrite_entry
from relatex.analysis.bib.bib_identity import normalise_arxiv_id, normalise_doi
from relatex.analysis.bib.bib_matching import (
    author_difference,
    is_preprint_venue,
    page_range,
    pages_equal,
    plain,
    same_person,
    title_similarity,
    titles_equal,
    venues_compatible,
)
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.edits import TextEdit
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.project_model import CitationKey, CitationSite

Status = Literal["verified", "mismatch", "preprint", "not_found", "absent", "ambiguous", "unchecked"]
PAPER_TYPES = {"article", "inproceedings", "incollection", "conference", "misc", "unpublished", "inbook"}
FUZZY_TITLE = 0.75  # a different title is still the same work with this similarity and the same authors


class AuthorityUnavailable(Exception):
    """An authority cannot answer now (offline, failing); the entry stays unchecked by it."""


@dataclass(frozen=True)
class AuthorityRecord:
    """A work as an authority knows it. ``authors`` are 'Last, First'."""

    source: str
    record_id: str
    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    pages: str | None = None
    entry_type: str | None = None
    is_preprint: bool = False
    published_doi: str | None = None

    def describe(self) -> str:
        year = f" ({self.year})" if self.year else ""
        return f"{self.source} {self.record_id}: \"{self.title}\"{year}"


ALL_LOOKUPS = frozenset({"doi", "arxiv", "title"})


class Authority(Protocol):
    """A source of truth for bibliographic records. May raise :class:`AuthorityUnavailable`.

    An authority may declare ``lookups`` (a subset of "doi", "arxiv", "title"); it is only
    asked those, and counts as consulted for an entry only when it could be asked something.
    An authority may declare ``exhaustive = True`` (the online registries): only when such an
    authority was asked and knows nothing of the work is it reported as possibly not existing.
    A local knowledge base is not exhaustive: a real paper it lacks is ``absent``, not a suspect.
    """

    name: str

    def by_doi(self, doi: str) -> list[AuthorityRecord]: ...

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]: ...

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]: ...


@dataclass(frozen=True)
class FieldMismatch:
    field: str  # title | authors | year | venue | doi | pages
    entry_value: str
    authority_value: str
    detail: str = ""


@dataclass(frozen=True)
class BibVerdict:
    status: Status
    entry_key: str
    mismatches: tuple[FieldMismatch, ...] = ()
    evidence: tuple[AuthorityRecord, ...] = ()
    corrected_fields: dict[str, str] = field(default_factory=dict)  # "" removes a field; "@type" the type
    checked: tuple[str, ...] = ()  # authorities that answered
    unavailable: tuple[str, ...] = ()  # authorities that could not be asked
    note: str = ""


# -- the entry as compared ------------------------------------------------------------------


@dataclass(frozen=True)
class _View:
    key: str
    title: str
    authors: tuple[str, ...]
    year: int | None
    doi: str | None
    arxiv_id: str | None
    venue: str | None
    pages: str | None
    is_preprint: bool


def _view(entry: BibEntry) -> _View:
    fields = entry.fields
    venue = next((fields[n] for n in ("booktitle", "journal", "journaltitle") if fields.get(n)), None)
    doi = entry.doi or normalise_doi(fields.get("doi"))
    arxiv = entry.arxiv_id or normalise_arxiv_id(fields.get("eprint"))
    if doi and doi.startswith("10.48550/arxiv."):
        arxiv = arxiv or normalise_arxiv_id(doi.removeprefix("10.48550/arxiv."))
    venue_text = " ".join(filter(None, (venue, fields.get("howpublished"), fields.get("publisher"))))
    preprint_by_venue = is_preprint_venue(venue_text) or bool(doi and doi.startswith("10.48550/"))
    is_preprint = preprint_by_venue or (bool(arxiv) and not venue and entry.entry_type in {"misc", "unpublished", "article"})
    return _View(
        key=entry.key,
        title=entry.title_plain or plain(fields.get("title")),
        authors=entry.authors,
        year=entry.year,
        doi=doi,
        arxiv_id=arxiv,
        venue=plain(venue) or None,
        pages=fields.get("pages"),
        is_preprint=is_preprint,
    )


def _same_authors_strongly(view: _View, record: AuthorityRecord) -> bool:
    """First author and at least half of the listed authors agree."""
    names = [a for a in view.authors if a.strip().lower() != "others"]
    if not names or not record.authors or not same_person(names[0], record.authors[0]):
        return False
    shared = sum(1 for n in names if any(same_person(n, r) for r in record.authors))
    return shared * 2 >= len(names)


def _shares_author(view: _View, record: AuthorityRecord) -> bool:
    return any(same_person(n, r) for n in view.authors for r in record.authors)


def _year_close(view: _View, record: AuthorityRecord) -> bool:
    return view.year is None or record.year is None or abs(view.year - record.year) <= 1


def _accepts(view: _View, record: AuthorityRecord) -> bool:
    """Title + at least one shared surname + year within one (title-only never accepted)."""
    if not view.authors or not record.authors or not _year_close(view, record):
        return False
    if titles_equal(view.title, record.title):
        return _shares_author(view, record)
    return title_similarity(view.title, record.title) >= FUZZY_TITLE and _same_authors_strongly(view, record)


def _identifier_agrees(view: _View, record: AuthorityRecord) -> bool:
    """The record found by the entry's identifier describes the entry's work."""
    if titles_equal(view.title, record.title) or title_similarity(view.title, record.title) >= 0.6:
        return True
    return _same_authors_strongly(view, record)


def _compare(view: _View, record: AuthorityRecord, *, venue: bool = True) -> list[FieldMismatch]:
    found: list[FieldMismatch] = []
    if view.title and record.title and not titles_equal(view.title, record.title):
        found.append(FieldMismatch("title", view.title, record.title))
    if (why := author_difference(view.authors, record.authors)) is not None:
        found.append(FieldMismatch("authors", "; ".join(view.authors), "; ".join(record.authors), why))
    # a published entry compared with the preprint record: year and pages legitimately differ
    other_version = record.is_preprint and not view.is_preprint
    if view.year is not None and record.year is not None and view.year != record.year and not other_version:
        found.append(FieldMismatch("year", str(view.year), str(record.year)))
    if venue and not view.is_preprint and not record.is_preprint and not venues_compatible(view.venue, record.venue):
        found.append(FieldMismatch("venue", view.venue or "", record.venue or ""))
    if view.doi and record.doi and view.doi != record.doi and not record.is_preprint:
        found.append(FieldMismatch("doi", view.doi, record.doi))
    if not other_version and not pages_equal(view.pages, record.pages):
        found.append(FieldMismatch("pages", view.pages or "", record.pages or ""))
    return found


def _corrections(entry: BibEntry, record: AuthorityRecord, mismatches: Iterable[FieldMismatch]) -> dict[str, str]:
    fixes: dict[str, str] = {}
    for mismatch in mismatches:
        if mismatch.field == "title":
            fixes["title"] = record.title
        elif mismatch.field == "authors":
            names = list(record.authors)
            if entry.authors and entry.authors[-1].strip().lower() == "others":
                names = names[: max(len(entry.authors) - 1, 1)] + ["others"]
            fixes["author"] = " and ".join(names)
        elif mismatch.field == "year" and record.year:
            fixes["year"] = str(record.year)
        elif mismatch.field == "doi" and record.doi:
            fixes["doi"] = record.doi
        elif mismatch.field == "pages" and (pages := page_range(record.pages)):
            fixes["pages"] = f"{pages[0]}--{pages[1]}" if pages[0] != pages[1] else pages[0]
    return fixes


def _published_fields(entry: BibEntry, record: AuthorityRecord) -> dict[str, str]:
    """Fields that turn a preprint entry into its published version (keeping eprint fields)."""
    entry_type = record.entry_type if record.entry_type in {"article", "inproceedings", "incollection"} else None
    entry_type = entry_type or ("inproceedings" if "proceedings" in (record.venue or "").lower() else "article")
    fixes: dict[str, str] = {"@type": entry_type}
    venue_field = "journal" if entry_type == "article" else "booktitle"
    if record.venue:
        fixes[venue_field] = record.venue
        for other in ("journal", "booktitle", "howpublished"):
            if other != venue_field and entry.fields.get(other):
                fixes[other] = ""
        if entry.fields.get("volume", "").lower().startswith("abs/"):
            fixes["volume"] = ""
    if record.year:
        fixes["year"] = str(record.year)
    if record.doi:
        fixes["doi"] = record.doi
    if (pages := page_range(record.pages)) is not None:
        fixes["pages"] = f"{pages[0]}--{pages[1]}" if pages[0] != pages[1] else pages[0]
    return fixes


def _dedupe(records: Iterable[AuthorityRecord]) -> list[AuthorityRecord]:
    seen: set[str] = set()
    unique = []
    for record in records:
        key = f"doi:{record.doi}" if record.doi else record.record_id
        if key not in seen:
            seen.add(key)
            unique.append(record)
    return unique


# -- verification -----------------------------------------------------------------------------


@dataclass
class _Outcome:
    verdict: BibVerdict | None = None
    near: list[AuthorityRecord] = field(default_factory=list)


def _exhaustive(authority: Authority) -> bool:
    return bool(getattr(authority, "exhaustive", False))


def _applicable(view: _View, authority: Authority) -> bool:
    lookups = getattr(authority, "lookups", ALL_LOOKUPS)
    return bool((view.doi and "doi" in lookups) or (view.arxiv_id and "arxiv" in lookups)
                or (view.title and "title" in lookups))


def _consult(entry: BibEntry, view: _View, authority: Authority) -> _Outcome:
    lookups = getattr(authority, "lookups", ALL_LOOKUPS)
    by_id: list[AuthorityRecord] = []
    aliased: set[str] = set()  # records the entry's DOI resolves to although they carry another DOI
    if view.doi and "doi" in lookups:
        for record in authority.by_doi(view.doi):
            by_id.append(record)
            if record.doi and record.doi != view.doi and not record.is_preprint:
                aliased.add(record.record_id)
    if view.arxiv_id and "arxiv" in lookups:
        by_id.extend(authority.by_arxiv(view.arxiv_id))
    identified = next((r for r in by_id if _identifier_agrees(view, r)), None)
    conflict = next((r for r in by_id if not _identifier_agrees(view, r)), None) if identified is None else None
    titled: list[AuthorityRecord] = []
    if view.title and "title" in lookups and (identified is None or view.is_preprint or identified.is_preprint):
        titled = [r for r in authority.by_title(view.title, 10) if r.title]
    accepted = _dedupe(r for r in titled if _accepts(view, r))
    key = view.key

    if view.is_preprint:
        candidates = ([identified] if identified else []) + accepted
        published = next((r for r in candidates if not r.is_preprint and (r.doi or r.venue)), None)
        if published is None and identified is not None and identified.published_doi:
            published = next((r for r in authority.by_doi(identified.published_doi) if _accepts(view, r)), None)
            if published is None:
                link = AuthorityRecord(identified.source, f"doi:{identified.published_doi}", identified.title,
                                       identified.authors, None, None, identified.published_doi)
                return _Outcome(BibVerdict("preprint", key, (), (identified, link),
                                           {"doi": identified.published_doi}))
        if published is not None:
            mismatches = [m for m in _compare(view, published, venue=False) if m.field in ("title", "authors")]
            fixes = _published_fields(entry, published) | _corrections(entry, published, mismatches)
            evidence = (published,) + ((identified,) if identified and identified is not published else ())
            return _Outcome(BibVerdict("preprint", key, tuple(mismatches), evidence, fixes))

    if identified is not None:
        mismatches = _compare(view, identified)
        if identified.record_id in aliased:
            # the authority merged this DOI into another record of the same work (e.g. the same
            # paper in two proceedings): only title and authors can be compared
            mismatches = [m for m in mismatches if m.field in ("title", "authors")]
        if not mismatches:
            return _Outcome(BibVerdict("verified", key, (), (identified,)))
        return _Outcome(BibVerdict("mismatch", key, tuple(mismatches), (identified,),
                                   _corrections(entry, identified, mismatches)))

    if conflict is not None:
        right = accepted[0] if len(accepted) == 1 else None
        if right is not None:
            mismatches = [FieldMismatch("doi" if view.doi else "eprint", view.doi or view.arxiv_id or "",
                                        right.doi or right.arxiv_id or "",
                                        f"the identifier belongs to \"{conflict.title}\"")]
            mismatches += [m for m in _compare(view, right) if m.field != "doi"]
            fixes = _corrections(entry, right, mismatches)
            if view.doi and right.doi:
                fixes["doi"] = right.doi
            elif view.doi:
                fixes["doi"] = ""
            return _Outcome(BibVerdict("mismatch", key, tuple(mismatches), (right, conflict), fixes))
        ident = view.doi or view.arxiv_id or ""
        mismatch = FieldMismatch("doi" if view.doi else "eprint", ident, "",
                                 f"the identifier belongs to \"{conflict.title}\"")
        return _Outcome(BibVerdict("mismatch", key, (mismatch,), (conflict, *accepted)))

    if accepted:
        if not view.is_preprint and any(not r.is_preprint for r in accepted):
            accepted = [r for r in accepted if not r.is_preprint]
        compared = [(r, _compare(view, r)) for r in accepted]
        exact = [r for r, m in compared if not m]
        if exact:
            return _Outcome(BibVerdict("verified", key, (), (exact[0],)))
        if len(compared) == 1:
            record, mismatches = compared[0]
            return _Outcome(BibVerdict("mismatch", key, tuple(mismatches), (record,),
                                       _corrections(entry, record, mismatches)))
        return _Outcome(BibVerdict("ambiguous", key, (), tuple(r for r, _ in compared)))
    return _Outcome(near=[r for r in titled if title_similarity(view.title, r.title) >= 0.6])


def verify_entry(entry: BibEntry, authorities: Sequence[Authority]) -> BibVerdict:
    """Check one entry against the authorities in order (first decisive answer wins)."""
    view = _view(entry)
    if not view.title and not view.doi and not view.arxiv_id:
        return BibVerdict("unchecked", entry.key, note="the entry has no title, DOI or arXiv id")
    checked: list[str] = []
    unavailable: list[str] = []
    near: list[AuthorityRecord] = []
    for authority in authorities:
        if not _applicable(view, authority):
            continue
        try:
            outcome = _consult(entry, view, authority)
        except AuthorityUnavailable:
            unavailable.append(authority.name)
            continue
        checked.append(authority.name)
        if outcome.verdict is not None:
            verdict = outcome.verdict
            return BibVerdict(verdict.status, verdict.entry_key, verdict.mismatches, verdict.evidence,
                              verdict.corrected_fields, tuple(checked), tuple(unavailable), verdict.note)
        near.extend(outcome.near)
    if not checked:
        note = "no authority available" if not unavailable else f"unavailable: {', '.join(unavailable)}"
        return BibVerdict("unchecked", entry.key, unavailable=tuple(unavailable), note=note)
    exhaustive = any(_exhaustive(a) for a in authorities if a.name in checked)
    note = "" if exhaustive else "only local authorities were asked"
    return BibVerdict("not_found" if exhaustive else "absent", entry.key, evidence=tuple(_dedupe(near))[:3],
                      checked=tuple(checked), unavailable=tuple(unavailable), note=note)


# -- findings and edits -----------------------------------------------------------------------

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
