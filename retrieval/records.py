"""The one record type of the knowledge base: a paper, from whatever source it came."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

# The identifier and name normalisers are shared with the BibTeX model; re-exported here.
from relatex.analysis.bib.bib_identity import normalise_arxiv_id, normalise_doi, normalise_title, surname

__all__ = ["PaperRecord", "normalise_arxiv_id", "normalise_doi", "normalise_title", "record_id", "surname",
           "work_key"]


@dataclass(frozen=True)
class PaperRecord:
    """A paper: bibliographic fields, abstract, identifiers and known references.

    ``id`` is stable across runs: the DOI when known (``doi:10.x/y``), else the arXiv id
    (``arxiv:2101.00001``), else ``<source>:<source-specific id>``.
    """

    id: str
    title: str
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    abstract: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    references: tuple[str, ...] = ()
    source: str = ""
    bibtex_type: str | None = None
    bibtex_key: str | None = None
    bibtex_fields: Mapping[str, str] = field(default_factory=dict)
    full_text: tuple[str, ...] = ()
    citation_count: int | None = None

    def embedding_text(self) -> str:
        """Title and abstract, the text that is embedded and indexed lexically."""
        return f"{self.title}. {self.abstract}" if self.abstract else self.title

    def first_author_surname(self) -> str:
        return surname(self.authors[0]) if self.authors else ""

    def content_hash(self) -> str:
        """SHA-256 of the normalised content: decides skip / update in incremental indexing."""
        payload = {
            "title": " ".join(self.title.split()),
            "authors": list(self.authors),
            "year": self.year,
            "venue": self.venue,
            "abstract": " ".join((self.abstract or "").split()),
            "doi": self.doi,
            "arxiv_id": self.arxiv_id,
            "url": self.url,
            "references": sorted(self.references),
        }
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
        return hashlib.sha256(blob).hexdigest()

    def with_changes(self, **changes: object) -> PaperRecord:
        return replace(self, **changes)  # type: ignore[arg-type]


def record_id(doi: str | None, arxiv_id: str | None, source: str, local_id: str) -> str:
    """The stable id rule of :class:`PaperRecord`."""
    if (norm := normalise_doi(doi)) is not None:
        return f"doi:{norm}"
    if (arx := normalise_arxiv_id(arxiv_id)) is not None:
        return f"arxiv:{arx}"
    return f"{source}:{local_id}"


_FRONT_MATTER = re.compile(
    r"^\s*(?:table of )?contents\s*$|^\s*(?:front matter|back matter|preface|foreword|author index|index of authors|"
    r"proceedings of\b|program committee|organi[sz]ing committee|sponsors\b|message from)|"
    r"\bchairs'? (?:welcome|message)\b|\bwelcome (?:message|address|and organi[sz]ation)\b|\bwelcome (?:&|and) organi",
    re.I,
)


def is_front_matter(record: PaperRecord) -> bool:
    """A proceedings item that is not a paper (front matter, a chairs' welcome, a committee list):
    never a related-work citation."""
    return bool(_FRONT_MATTER.search(record.title))


def work_key(record: PaperRecord) -> str | None:
    """Normalised title + first-author surname, in any year: a paper and its later version (the
    journal version of a conference paper, a republication) are one work to cite."""
    title = normalise_title(record.title)
    if len(title) < 12 or not record.authors:
        return None
    return f"{title}|{normalise_title(record.first_author_surname())}"
