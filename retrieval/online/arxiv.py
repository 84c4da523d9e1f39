"""arXiv API client (Atom feed of /api/query): papers by id and title search."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from relatex.retrieval.online.common import as_int, clean_text, last_first
from relatex.retrieval.online.http import ScholarlyHttp, SourceError
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id

ARXIV_URL = "https://export.arxiv.org/api"
ARXIV_HOST_RATE = 1 / 3.0  # arXiv asks for no more than one request every three seconds
_NS = {"atom": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}


def _validate_atom(text: str) -> str | None:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return f"not XML ({exc})"
    if root.tag != f"{{{_NS['atom']}}}feed":
        return "not an Atom feed"
    return None


def _text(element: ET.Element, path: str) -> str | None:
    found = element.find(path, _NS)
    return clean_text(found.text) if found is not None and found.text else None


@dataclass(frozen=True)
class ArxivEntry:
    """A paper from the feed plus what the authors say about its published version."""

    record: PaperRecord
    published_doi: str | None = None
    journal_ref: str | None = None


def entry_to_record(entry: ET.Element) -> ArxivEntry | None:
    """Map one Atom ``<entry>``; None for arXiv's error entries."""
    abs_url = _text(entry, "atom:id") or ""
    arxiv = normalise_arxiv_id(abs_url)
    title = _text(entry, "atom:title")
    if arxiv is None or not title or title == "Error":
        return None
    published = _text(entry, "atom:published") or ""
    doi = normalise_doi(_text(entry, "arxiv:doi"))
    journal_ref = _text(entry, "arxiv:journal_ref")
    fields: dict[str, str] = {"eprint": arxiv, "archiveprefix": "arXiv"}
    category = entry.find("arxiv:primary_category", _NS)
    if category is not None and category.get("term"):
        fields["primaryclass"] = str(category.get("term"))
    authors = tuple(
        last_first(name) for author in entry.findall("atom:author", _NS) if (name := _text(author, "atom:name"))
    )
    record = PaperRecord(
        id=record_id(None, arxiv, "arxiv", arxiv),
        title=title,
        authors=authors,
        year=as_int(published[:4]),
        venue="arXiv",
        abstract=_text(entry, "atom:summary"),
        doi=None,
        arxiv_id=arxiv,
        url=f"https://arxiv.org/abs/{arxiv}",
        source="arxiv",
        bibtex_type="misc",
        bibtex_fields=fields,
    )
    return ArxivEntry(record, doi, journal_ref)


def parse_feed(text: str) -> list[ArxivEntry]:
    """All paper entries of an arXiv Atom feed."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise SourceError(f"arXiv returned malformed XML: {exc}") from exc
    return [item for entry in root.findall("atom:entry", _NS) if (item := entry_to_record(entry))]


class ArxivClient:
    """Papers from the arXiv API. The record's ``doi`` stays None (the arXiv DOI is implied);
    the published version's DOI and journal reference, when the authors gave them, are in
    :class:`ArxivEntry` (:meth:`entry`)."""

    name = "arxiv"

    def __init__(self, http: ScholarlyHttp, base_url: str = ARXIV_URL) -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")

    def _query(self, **params: object) -> list[ArxivEntry]:
        text = self.http.get_text(f"{self.base_url}/query", params, validate=_validate_atom)
        return parse_feed(text)

    def entry(self, arxiv_id: str) -> ArxivEntry | None:
        """One paper by arXiv id (any version, URL or 'arXiv:' form) with its publication links."""
        norm = normalise_arxiv_id(arxiv_id.removeprefix("arxiv:"))
        if norm is None:
            raise ValueError(f"not an arXiv id: {arxiv_id!r}")
        return next((e for e in self._query(id_list=norm, max_results=1) if e.record.arxiv_id == norm), None)

    def paper(self, arxiv_id: str) -> PaperRecord | None:
        """One paper by arXiv id; None when arXiv does not know it."""
        found = self.entry(arxiv_id)
        return found.record if found else None

    def search_title(self, title: str, limit: int = 5) -> list[PaperRecord]:
        """Papers whose title contains the words of ``title`` (``ti:`` phrase query)."""
        return [e.record for e in self.search_entries(title, limit)]

    def search_entries(self, title: str, limit: int = 5) -> list[ArxivEntry]:
        """Like :meth:`search_title`, with publication links."""
        words = re.sub(r"[^\w\s]", " ", title).split()
        if not words or limit <= 0:
            return []
        return self._query(search_query=f'ti:"{" ".join(words)}"', start=0, max_results=min(limit, 50))[:limit]
