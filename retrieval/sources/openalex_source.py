"""OpenAlex works as JSON lines (API results or snapshot ``works`` files)."""

from __future__ import annotations

from typing import Any

from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id
from relatex.retrieval.sources.base import (
    JsonLinesSource,
    clean_text,
    parse_year,
)


def openalex_short_id(value: Any) -> str | None:
    """``W2741809807`` from ``https://openalex.org/W2741809807`` (or the bare id)."""
    if not isinstance(value, str) or not value:
        return None
    tail = value.rstrip("/").rsplit("/", 1)[-1]
    return tail if tail[:1] in {"W", "w"} and tail[1:].isdigit() else None


def rebuild_abstract(inverted: Any) -> str | None:
    """The abstract text from OpenAlex's ``abstract_inverted_index`` (word -> positions)."""
    if not isinstance(inverted, dict) or not inverted:
        return None
    positions: dict[int, str] = {}
    for word, places in inverted.items():
        if not isinstance(places, list):
            continue
        for place in places:
            if isinstance(place, int) and place >= 0:
                positions[place] = str(word)
    if not positions:
        return None
    return clean_text(" ".join(positions[i] for i in sorted(positions)))


def _arxiv_from_locations(obj: dict[str, Any]) -> str | None:
    locations = obj.get("locations")
    if not isinstance(locations, list):
        return None
    for loc in locations:
        if not isinstance(loc, dict):
            continue
        for key in ("landing_page_url", "pdf_url"):
            url = loc.get(key)
            if isinstance(url, str) and "arxiv.org" in url:
                found = normalise_arxiv_id(url)
                if found:
                    return found
    return None


def openalex_record(obj: dict[str, Any], source: str) -> tuple[PaperRecord, tuple[str, ...]] | str:
    """A record and its aliases from one work object, or the reason it is skipped."""
    work_id = openalex_short_id(obj.get("id"))
    if not work_id:
        return "missing OpenAlex id"
    title = clean_text(obj.get("title")) or clean_text(obj.get("display_name"))
    if not title:
        return "missing title"
    raw_ids = obj.get("ids")
    ids: dict[str, Any] = raw_ids if isinstance(raw_ids, dict) else {}
    doi = normalise_doi(obj.get("doi") or ids.get("doi"))
    arxiv_id = normalise_arxiv_id(ids.get("arxiv")) or _arxiv_from_locations(obj)
    authors = []
    for authorship in obj.get("authorships") or []:
        if isinstance(authorship, dict):
            author = authorship.get("author") or {}
            name = clean_text(author.get("display_name")) if isinstance(author, dict) else None
            name = name or clean_text(authorship.get("raw_author_name"))
            if name:
                authors.append(name)
    venue = None
    primary = obj.get("primary_location")
    if isinstance(primary, dict) and isinstance(primary.get("source"), dict):
        venue = clean_text(primary["source"].get("display_name"))
    references = tuple(
        f"openalex:{ref}" for ref in (openalex_short_id(r) for r in obj.get("referenced_works") or []) if ref
    )
    count = obj.get("cited_by_count")
    url = None
    if isinstance(primary, dict):
        url = clean_text(primary.get("landing_page_url"))
    record = PaperRecord(
        id=record_id(doi, arxiv_id, "openalex", work_id),
        title=title,
        authors=tuple(authors),
        year=parse_year(obj.get("publication_year")),
        venue=venue,
        abstract=rebuild_abstract(obj.get("abstract_inverted_index")),
        doi=doi,
        arxiv_id=arxiv_id,
        url=url or (f"https://doi.org/{doi}" if doi else f"https://openalex.org/{work_id}"),
        references=references,
        source=source,
        citation_count=count if isinstance(count, int) and not isinstance(count, bool) else None,
    )
    return record, (f"openalex:{work_id}",)


class OpenAlexWorksSource(JsonLinesSource):
    """OpenAlex work objects, one a line (plain or .gz)."""

    kind = "openalex"

    def convert(self, obj: dict[str, Any]) -> tuple[PaperRecord, tuple[str, ...]] | str:
        return openalex_record(obj, self.name)
