"""The one record type of the knowledge base: a paper, from whatever source it came."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace


def normalise_title(title: str) -> str:
    """Lower-case ASCII words of a title, for comparison (LaTeX braces and accents dropped)."""
    text = unicodedata.normalize("NFKD", title)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"\\[a-zA-Z]+\s*", " ", text)
    text = re.sub(r"[^a-zA-Z0-9]+", " ", text).lower()
    return " ".join(text.split())


def normalise_doi(doi: str | None) -> str | None:
    """A DOI without resolver prefix, lower-cased; None when it is not a DOI."""
    if not doi:
        return None
    value = doi.strip().lower()
    value = re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", value)
    value = value.removeprefix("doi:").strip()
    return value if value.startswith("10.") and "/" in value else None


_ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?")
_ARXIV_OLD = re.compile(r"([a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?")


def normalise_arxiv_id(value: str | None) -> str | None:
    """An arXiv identifier without version, URL or 'arXiv:' prefix; None when absent."""
    if not value:
        return None
    text = value.strip()
    text = re.sub(r"^(https?://)?(www\.)?arxiv\.org/(abs|pdf)/", "", text, flags=re.I)
    text = re.sub(r"^arxiv:", "", text, flags=re.I).removesuffix(".pdf")
    match = _ARXIV_NEW.fullmatch(text) or _ARXIV_OLD.fullmatch(text)
    return match.group(1) if match else None


def surname(author: str) -> str:
    """The family name of an author written 'Last, First' or 'First Last'."""
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else ""


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
