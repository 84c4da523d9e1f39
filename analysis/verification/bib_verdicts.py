"""The vocabulary of bibliography verification: authorities, their records, and verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

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
