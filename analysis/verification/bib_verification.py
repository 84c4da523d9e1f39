"""Verify BibTeX entries against authorities (knowledge base, Crossref, arXiv, OpenAlex, DBLP).

An entry is matched first by identifier (DOI, arXiv id; the identifier's record must agree
with the entry's title or authors, else the identifier itself is wrong), then by title plus
at least one shared author surname and a year within one; a title alone never matches.
The verdict lists every field that differs with the authority's value, the evidence
(source and record id), and the corrected fields a quick fix may apply. Nothing is rewritten
here: :func:`correction_edit` only proposes an edit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

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
from relatex.analysis.verification.bib_findings import correction_edit, verdict_findings, verdict_message
from relatex.analysis.verification.bib_verdicts import (
    ALL_LOOKUPS,
    FUZZY_TITLE,
    PAPER_TYPES,
    Authority,
    AuthorityRecord,
    AuthorityUnavailable,
    BibVerdict,
    FieldMismatch,
    Status,
)

__all__ = [
    "ALL_LOOKUPS",
    "FUZZY_TITLE",
    "PAPER_TYPES",
    "Authority",
    "AuthorityRecord",
    "AuthorityUnavailable",
    "BibVerdict",
    "FieldMismatch",
    "Status",
    "correction_edit",
    "verdict_findings",
    "verdict_message",
    "verify_entry",
]

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


