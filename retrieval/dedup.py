"""Duplicate detection across sources and merging of duplicate records.

Two records are the same paper when they share a DOI, else an arXiv id, else the normalised title
+ first-author surname + year. Merging keeps the richest value of each field. Records of the same
title and first author in other years (a journal version, a reprint) stay apart in the knowledge
base but are one work to cite (:func:`one_version_each`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from relatex.retrieval.record_store import title_key
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, work_key


def identity_keys(record: PaperRecord) -> list[str]:
    """Keys in decreasing strength: ``doi:…``, ``arxiv:…``, ``title:…``."""
    keys: list[str] = []
    if doi := normalise_doi(record.doi):
        keys.append(f"doi:{doi}")
    if arx := normalise_arxiv_id(record.arxiv_id):
        keys.append(f"arxiv:{arx}")
    if tkey := title_key(record):
        keys.append(f"title:{tkey}")
    return keys


def _first(values: Iterable[object]) -> object | None:
    for value in values:
        if value not in (None, "", (), {}):
            return value
    return None


def _longest(values: Iterable[str | None]) -> str | None:
    best: str | None = None
    for value in values:
        if value and (best is None or len(value.strip()) > len(best.strip())):
            best = value
    return best


def merge_records(parts: Sequence[PaperRecord], record_id: str | None = None) -> PaperRecord:
    """One record from several descriptions of the same paper.

    Title, venue, abstract: the longest; authors: the longest list; year, DOI, arXiv id, URL:
    the first known (parts are given in a stable order); references: the union in order;
    citation count: the maximum; BibTeX key, type and fields: from the first
    part that is a BibTeX entry (else the first with BibTeX fields).
    """
    if not parts:
        raise ValueError("merge_records needs at least one record")
    if len(parts) == 1 and (record_id is None or parts[0].id == record_id):
        return parts[0]
    authors = max((p.authors for p in parts), key=len)
    references = tuple(dict.fromkeys(ref for p in parts for ref in p.references))
    counts = [p.citation_count for p in parts if p.citation_count is not None]
    bib = next((p for p in parts if p.bibtex_key), None) or next((p for p in parts if p.bibtex_fields), None)
    full_text = max((p.full_text for p in parts), key=len)
    sources = "+".join(dict.fromkeys(s for p in parts for s in p.source.split("+") if s))
    return PaperRecord(
        id=record_id or parts[0].id,
        title=_longest(p.title for p in parts) or parts[0].title,
        authors=authors,
        year=_first(p.year for p in parts),  # type: ignore[arg-type]
        venue=_longest(p.venue for p in parts),
        abstract=_longest(p.abstract for p in parts),
        doi=_first(normalise_doi(p.doi) for p in parts),  # type: ignore[arg-type]
        arxiv_id=_first(normalise_arxiv_id(p.arxiv_id) for p in parts),  # type: ignore[arg-type]
        url=_first(p.url for p in parts),  # type: ignore[arg-type]
        references=references,
        source=sources,
        bibtex_type=bib.bibtex_type if bib else None,
        bibtex_key=bib.bibtex_key if bib else None,
        bibtex_fields=dict(bib.bibtex_fields) if bib else {},
        full_text=full_text,
        citation_count=max(counts) if counts else None,
    )


def deduplicate(records: Iterable[PaperRecord]) -> list[PaperRecord]:
    """Merge duplicates in memory (first occurrence keeps its id and position)."""
    groups: list[list[PaperRecord]] = []
    owner: dict[str, int] = {}
    for record in records:
        keys = identity_keys(record) or [f"id:{record.id}"]
        index = next((owner[k] for k in keys if k in owner), None)
        if index is None:
            index = len(groups)
            groups.append([])
        groups[index].append(record)
        for key in keys:
            owner.setdefault(key, index)
    return [merge_records(group, group[0].id) for group in groups]


class _Candidate(Protocol):
    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=_Candidate)


def one_version_each(candidates: Sequence[C], record_of: Callable[[C], PaperRecord],
                     cited: Mapping[str, str], citing: Mapping[str, int] | None = None) -> list[C]:
    """The ranked candidates with one version of each work (:func:`work_key`), at the place of its
    best-ranked version: those the draft cites (all of them), else the version most papers of the
    citation graph cite (``citing``: id -> count), the most cited by its record, the earliest.
    Candidates without a work key are all kept."""
    citing = citing or {}
    keys = [work_key(record_of(candidate)) for candidate in candidates]
    groups: dict[str, list[C]] = {}
    for candidate, key in zip(candidates, keys, strict=True):
        if key is not None:
            groups.setdefault(key, []).append(candidate)

    def preferred(members: list[C]) -> list[C]:
        own = [m for m in members if m.id in cited]
        return own or [min(members, key=lambda m: (-citing.get(m.id, 0), -(record_of(m).citation_count or 0),
                                                   record_of(m).year or 9999))]

    out: list[C] = []
    placed: set[str] = set()
    for candidate, key in zip(candidates, keys, strict=True):
        if key is None or len(groups[key]) == 1:
            out.append(candidate)
        elif key not in placed:
            placed.add(key)
            out.extend(preferred(groups[key]))
    return out
