"""OpenAlex works API client: works by id/DOI, references, citing works, title search."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from relatex.retrieval.online.common import arxiv_from_doi, as_int, last_first, strip_url_prefix
from relatex.retrieval.online.http import ScholarlyHttp, SourceError, SourceNotFound
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id

OPENALEX_URL = "https://api.openalex.org"
_WORK_ID = re.compile(r"^(?:https?://openalex\.org/)?(W\d+)$", re.I)
_BATCH = 50  # OpenAlex accepts up to 100 OR-ed values per filter

_TYPE_TO_BIBTEX = {
    "article": "article",
    "book-chapter": "incollection",
    "book": "book",
    "dissertation": "phdthesis",
    "preprint": "misc",
    "report": "techreport",
    "dataset": "misc",
}


def rebuild_abstract(inverted: Mapping[str, Any] | None) -> str | None:
    """Rebuild an abstract from OpenAlex's ``abstract_inverted_index`` (word -> positions)."""
    if not inverted:
        return None
    slots: dict[int, str] = {}
    for word, positions in inverted.items():
        if isinstance(positions, list):
            for position in positions:
                if isinstance(position, int):
                    slots[position] = word
    return " ".join(slots[i] for i in sorted(slots)) or None


def openalex_work_id(value: str | None) -> str | None:
    """``W123`` from ``W123`` / ``https://openalex.org/W123`` / ``openalex:W123``."""
    if not value:
        return None
    match = _WORK_ID.match(value.strip().removeprefix("openalex:"))
    return match.group(1).upper() if match else None


def work_to_record(work: Mapping[str, Any]) -> PaperRecord:
    """Map one OpenAlex work object to a :class:`PaperRecord`."""
    work_id = openalex_work_id(str(work.get("id") or "")) or ""
    doi = normalise_doi(work.get("doi"))
    ids = work.get("ids") or {}
    arxiv = None
    locations = [loc for loc in (work.get("locations") or []) if isinstance(loc, Mapping)]
    for loc in locations:
        landing = str(loc.get("landing_page_url") or "")
        if "arxiv.org/abs/" in landing:
            arxiv = normalise_arxiv_id(landing)
            break
    arxiv = arxiv or normalise_arxiv_id(arxiv_from_doi(doi))
    primary = work.get("primary_location") or {}
    source = primary.get("source") or {}
    venue = source.get("display_name") or None
    authors = tuple(
        last_first(str((a.get("author") or {}).get("display_name") or a.get("raw_author_name") or ""))
        for a in (work.get("authorships") or [])
        if isinstance(a, Mapping)
    )
    work_type = str(work.get("type") or "")
    bibtex_type = _TYPE_TO_BIBTEX.get(work_type)
    if work_type == "article" and source.get("type") == "conference":
        bibtex_type = "inproceedings"
    biblio = work.get("biblio") or {}
    fields: dict[str, str] = {}
    first_page, last_page = biblio.get("first_page"), biblio.get("last_page")
    if first_page:
        fields["pages"] = f"{first_page}--{last_page}" if last_page and last_page != first_page else str(first_page)
    for name in ("volume", "issue"):
        if biblio.get(name):
            fields["number" if name == "issue" else name] = str(biblio[name])
    if source.get("host_organization_name"):
        fields["publisher"] = str(source["host_organization_name"])
    references = tuple(
        f"openalex:{wid}" for ref in (work.get("referenced_works") or []) if (wid := openalex_work_id(str(ref)))
    )
    local_id = work_id or str(ids.get("openalex") or "")
    return PaperRecord(
        id=record_id(doi, arxiv, "openalex", local_id),
        title=" ".join(str(work.get("display_name") or work.get("title") or "").split()),
        authors=tuple(a for a in authors if a),
        year=as_int(work.get("publication_year")),
        venue=venue,
        abstract=rebuild_abstract(work.get("abstract_inverted_index")),
        doi=doi,
        arxiv_id=arxiv,
        url=f"https://doi.org/{doi}" if doi else (str(work.get("id")) if work.get("id") else None),
        references=references,
        source="openalex",
        bibtex_type=bibtex_type,
        bibtex_fields=fields,
        citation_count=as_int(work.get("cited_by_count")),
    )


class OpenAlexClient:
    """Works from OpenAlex (https://docs.openalex.org), as :class:`PaperRecord`s."""

    name = "openalex"

    def __init__(
        self,
        http: ScholarlyHttp,
        base_url: str = OPENALEX_URL,
        mailto: str = "",
        api_key: str | None = None,
    ) -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")
        self.mailto = mailto
        self.api_key = api_key if api_key is not None else os.environ.get("OPENALEX_API_KEY", "")

    def _params(self, **params: Any) -> dict[str, Any]:
        if self.mailto:
            params["mailto"] = self.mailto
        if self.api_key:
            params["api_key"] = self.api_key
        return params

    def _path_id(self, identifier: str) -> str:
        """The ``/works/{id}`` form of a W-id, DOI, arXiv id or record id."""
        if wid := openalex_work_id(identifier):
            return wid
        value = identifier.strip()
        if value.startswith("doi:") or normalise_doi(value):
            doi = normalise_doi(value.removeprefix("doi:"))
            if doi:
                return f"doi:{doi}"
        arxiv = normalise_arxiv_id(strip_url_prefix(value, "arxiv:"))
        if arxiv:
            return f"doi:10.48550/arxiv.{arxiv}"
        raise ValueError(f"not an OpenAlex work id, DOI or arXiv id: {identifier!r}")

    def _work_json(self, identifier: str) -> Mapping[str, Any] | None:
        path_id = self._path_id(identifier)
        try:
            data = self.http.get_json(f"{self.base_url}/works/{quote(path_id, safe=':/')}", self._params())
        except SourceNotFound:
            return None
        if not isinstance(data, Mapping) or "id" not in data:
            raise SourceError("OpenAlex returned an unexpected work object")
        return data

    def work(self, identifier: str) -> PaperRecord | None:
        """One work by OpenAlex id, DOI or arXiv id; None when OpenAlex does not know it."""
        data = self._work_json(identifier)
        return work_to_record(data) if data is not None else None

    def _list(self, **params: Any) -> list[PaperRecord]:
        data = self.http.get_json(f"{self.base_url}/works", self._params(**params))
        results = data.get("results") if isinstance(data, Mapping) else None
        if not isinstance(results, list):
            raise SourceError("OpenAlex returned a list without 'results'")
        return [work_to_record(w) for w in results if isinstance(w, Mapping)]

    def references(self, identifier: str) -> list[PaperRecord]:
        """The works ``identifier`` cites (its ``referenced_works``), fetched in batches."""
        data = self._work_json(identifier)
        if data is None:
            return []
        ids = [wid for ref in (data.get("referenced_works") or []) if (wid := openalex_work_id(str(ref)))]
        records: list[PaperRecord] = []
        for start in range(0, len(ids), _BATCH):
            batch = ids[start : start + _BATCH]
            records.extend(self._list(filter="openalex_id:" + "|".join(batch), **{"per-page": len(batch)}))
        return records

    def cited_by(self, identifier: str, limit: int = 50) -> list[PaperRecord]:
        """Works citing ``identifier``, most cited first (one page, up to 200)."""
        wid = openalex_work_id(identifier)
        if wid is None:
            data = self._work_json(identifier)
            if data is None:
                return []
            wid = openalex_work_id(str(data.get("id")))
        if not wid or limit <= 0:
            return []
        return self._list(filter=f"cites:{wid}", sort="cited_by_count:desc", **{"per-page": min(limit, 200)})[:limit]

    def search_title(self, title: str, limit: int = 5) -> list[PaperRecord]:
        """Works whose title matches ``title`` (OpenAlex ``title.search`` filter)."""
        query = " ".join(re.sub(r"[,|:]", " ", title).split())
        if not query or limit <= 0:
            return []
        return self._list(filter=f"title.search:{query}", **{"per-page": min(limit, 200)})[:limit]
