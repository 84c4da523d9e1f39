"""DBLP publication search client (``/search/publ/api?format=json``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from relatex.retrieval.online.common import arxiv_from_doi, as_int, clean_text, last_first
from relatex.retrieval.online.http import ScholarlyHttp, SourceError
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id

DBLP_URL = "https://dblp.org"

_TYPE_TO_BIBTEX = {
    "Conference and Workshop Papers": "inproceedings",
    "Journal Articles": "article",
    "Informal and Other Publications": "misc",
    "Informal Publications": "misc",
    "Books and Theses": "book",
    "Parts in Books or Collections": "incollection",
    "Editorship": "proceedings",
    "Reference Works": "misc",
}


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _author_name(author: Any) -> str:
    if isinstance(author, Mapping):
        return str(author.get("text") or "")
    return str(author or "")


def hit_to_record(info: Mapping[str, Any]) -> PaperRecord:
    """Map one DBLP hit's ``info`` object to a :class:`PaperRecord`."""
    title = clean_text(str(info.get("title") or "")) or ""
    title = title[:-1] if title.endswith(".") else title
    authors = tuple(
        last_first(name) for a in _as_list((info.get("authors") or {}).get("author")) if (name := _author_name(a))
    )
    doi = normalise_doi(info.get("doi"))
    ees = [str(e) for e in _as_list(info.get("ee"))]
    arxiv = normalise_arxiv_id(arxiv_from_doi(doi))
    for ee in ees:
        if doi is None and "doi.org/" in ee:
            doi = normalise_doi(ee)
        if arxiv is None and "arxiv.org/abs/" in ee:
            arxiv = normalise_arxiv_id(ee)
    venue = info.get("venue")
    venue_text = ", ".join(str(v) for v in _as_list(venue)) or None
    key = str(info.get("key") or "")
    fields: dict[str, str] = {}
    if info.get("pages"):
        fields["pages"] = re.sub(r"\s*-+\s*", "--", str(info["pages"]))
    for name in ("volume", "number"):
        if info.get(name):
            fields[name] = str(info[name])
    if key:
        fields["biburl"] = f"https://dblp.org/rec/{key}.bib"
    bibtex_type = _TYPE_TO_BIBTEX.get(str(info.get("type") or ""), "misc")
    if key.startswith("journals/corr/"):
        bibtex_type = "misc"
    return PaperRecord(
        id=record_id(doi, arxiv, "dblp", key),
        title=title,
        authors=authors,
        year=as_int(info.get("year")),
        venue=venue_text,
        doi=doi,
        arxiv_id=arxiv,
        url=ees[0] if ees else (str(info.get("url")) if info.get("url") else None),
        source="dblp",
        bibtex_type=bibtex_type,
        bibtex_key=f"DBLP:{key}" if key else None,
        bibtex_fields=fields,
    )


class DblpClient:
    """Publications from DBLP's search API (https://dblp.org/faq/13501473.html)."""

    name = "dblp"

    def __init__(self, http: ScholarlyHttp, base_url: str = DBLP_URL) -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")

    def search_title(self, title: str, limit: int = 5) -> list[PaperRecord]:
        """Publications matching the words of ``title``, DBLP's order (best first)."""
        query = " ".join(re.sub(r"[^\w\s'-]", " ", title).split())
        if not query or limit <= 0:
            return []
        data = self.http.get_json(
            f"{self.base_url}/search/publ/api", {"q": query, "format": "json", "h": min(limit, 1000)}
        )
        result = data.get("result") if isinstance(data, Mapping) else None
        if not isinstance(result, Mapping) or not isinstance(result.get("hits"), Mapping):
            raise SourceError("DBLP returned no 'result.hits'")
        hits = _as_list(result["hits"].get("hit"))
        return [hit_to_record(h["info"]) for h in hits if isinstance(h, Mapping) and isinstance(h.get("info"), Mapping)][
            :limit
        ]
