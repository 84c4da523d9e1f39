"""Crossref REST API client: works by DOI and bibliographic search."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from relatex.retrieval.online.common import arxiv_from_doi, as_int, clean_text, first, last_first
from relatex.retrieval.online.http import ScholarlyHttp, SourceError, SourceNotFound
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id

CROSSREF_URL = "https://api.crossref.org"

_TYPE_TO_BIBTEX = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "book-chapter": "incollection",
    "book-section": "incollection",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "posted-content": "misc",
    "report": "techreport",
    "dissertation": "phdthesis",
    "dataset": "misc",
}


def issued_year(message: Mapping[str, Any]) -> int | None:
    """The year of ``issued`` (else published-print / published-online / created)."""
    for name in ("issued", "published-print", "published-online", "published", "created"):
        parts = (message.get(name) or {}).get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = as_int(parts[0][0])
            if year:
                return year
    return None


def published_version_doi(message: Mapping[str, Any]) -> str | None:
    """For a preprint, the DOI of its published version (``relation.is-preprint-of``)."""
    relation = message.get("relation") or {}
    for item in relation.get("is-preprint-of") or []:
        if isinstance(item, Mapping) and item.get("id-type") == "doi":
            return normalise_doi(str(item.get("id")))
    return None


def message_to_record(message: Mapping[str, Any]) -> PaperRecord:
    """Map one Crossref work ``message`` to a :class:`PaperRecord`."""
    doi = normalise_doi(message.get("DOI"))
    arxiv = normalise_arxiv_id(arxiv_from_doi(doi))
    authors = []
    for author in message.get("author") or []:
        if not isinstance(author, Mapping):
            continue
        family, given = author.get("family"), author.get("given")
        if family:
            authors.append(f"{family}, {given}" if given else str(family))
        elif author.get("name"):
            authors.append(last_first(str(author["name"])))
    work_type = str(message.get("type") or "")
    fields: dict[str, str] = {}
    if page := message.get("page"):
        fields["pages"] = str(page).replace("-", "--")
    for source, target in (("volume", "volume"), ("issue", "number"), ("publisher", "publisher")):
        if message.get(source):
            fields[target] = str(message[source])
    container = first(message.get("container-title"))
    if work_type == "posted-content" and not container:
        container = first(message.get("institution", [{}])[0].get("name") if message.get("institution") else None)
    references = tuple(
        f"doi:{ref_doi}"
        for ref in (message.get("reference") or [])
        if isinstance(ref, Mapping) and (ref_doi := normalise_doi(ref.get("DOI")))
    )
    return PaperRecord(
        id=record_id(doi, arxiv, "crossref", str(message.get("DOI") or "")),
        title=" ".join((clean_text(first(message.get("title"))) or "").split()),
        authors=tuple(authors),
        year=issued_year(message),
        venue=clean_text(container),
        abstract=clean_text(message.get("abstract")),
        doi=doi,
        arxiv_id=arxiv,
        url=f"https://doi.org/{doi}" if doi else message.get("URL"),
        references=references,
        source="crossref",
        bibtex_type=_TYPE_TO_BIBTEX.get(work_type, "misc"),
        bibtex_fields=fields,
        citation_count=as_int(message.get("is-referenced-by-count")),
    )


class CrossrefClient:
    """Works registered with Crossref (https://api.crossref.org/swagger-ui)."""

    name = "crossref"

    def __init__(self, http: ScholarlyHttp, base_url: str = CROSSREF_URL, mailto: str = "") -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")
        self.mailto = mailto

    def _params(self, **params: Any) -> dict[str, Any]:
        if self.mailto:
            params["mailto"] = self.mailto
        return params

    def work_message(self, doi: str) -> Mapping[str, Any] | None:
        """The raw ``message`` of ``/works/{doi}``; None when Crossref does not know the DOI."""
        norm = normalise_doi(doi.removeprefix("doi:"))
        if norm is None:
            raise ValueError(f"not a DOI: {doi!r}")
        try:
            data = self.http.get_json(f"{self.base_url}/works/{quote(norm, safe='/:()')}", self._params())
        except SourceNotFound:
            return None
        message = data.get("message") if isinstance(data, Mapping) else None
        if not isinstance(message, Mapping):
            raise SourceError("Crossref returned a work without 'message'")
        return message

    def work(self, doi: str) -> PaperRecord | None:
        """One work by DOI; None when Crossref does not know it."""
        message = self.work_message(doi)
        return message_to_record(message) if message is not None else None

    def search_messages(self, title: str, author: str | None = None, limit: int = 5) -> list[Mapping[str, Any]]:
        """Raw messages of ``/works?query.bibliographic=...`` (best first)."""
        if not title.strip() or limit <= 0:
            return []
        params = self._params(**{"query.bibliographic": " ".join(title.split()), "rows": min(limit, 100)})
        if author:
            params["query.author"] = author
        data = self.http.get_json(f"{self.base_url}/works", params)
        message = data.get("message") if isinstance(data, Mapping) else None
        items = message.get("items") if isinstance(message, Mapping) else None
        if not isinstance(items, list):
            raise SourceError("Crossref search returned no 'items'")
        return [item for item in items if isinstance(item, Mapping)][:limit]

    def search_title(self, title: str, author: str | None = None, limit: int = 5) -> list[PaperRecord]:
        """Works matching a title (and optionally an author), best first."""
        return [message_to_record(m) for m in self.search_messages(title, author, limit)]
