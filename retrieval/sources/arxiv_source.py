"""The arXiv metadata snapshot (Kaggle ``arxiv-metadata-oai-snapshot.json``): one JSON object a line."""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from typing import Any

from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id
from relatex.retrieval.sources.base import JsonLinesSource, clean_text


def _authors(obj: dict[str, Any]) -> tuple[str, ...]:
    parsed = obj.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        names = []
        for part in parsed:
            if isinstance(part, list) and part and isinstance(part[0], str):
                last = part[0].strip()
                first = part[1].strip() if len(part) > 1 and isinstance(part[1], str) else ""
                names.append(f"{last}, {first}" if first else last)
        if names:
            return tuple(names)
    text = clean_text(obj.get("authors"))
    if not text:
        return ()
    return tuple(a.strip() for a in re.split(r",\s*|\s+and\s+", text) if a.strip())


def _year(obj: dict[str, Any], arxiv_id: str) -> int | None:
    versions = obj.get("versions")
    if isinstance(versions, list) and versions and isinstance(versions[0], dict):
        created = versions[0].get("created")
        if isinstance(created, str):
            try:
                return parsedate_to_datetime(created).year
            except (TypeError, ValueError):
                pass
    match = re.match(r"(\d{2})(\d{2})\.", arxiv_id) or re.search(r"/(\d{2})(\d{2})\d{3}$", arxiv_id)
    if match:
        yy = int(match.group(1))
        return 1900 + yy if yy > 90 else 2000 + yy
    date = obj.get("update_date")
    return int(date[:4]) if isinstance(date, str) and date[:4].isdigit() else None


def arxiv_record(obj: dict[str, Any], source: str) -> PaperRecord | str:
    """A record from one snapshot object, or the reason it is skipped."""
    arxiv_id = normalise_arxiv_id(str(obj.get("id") or ""))
    if not arxiv_id:
        return "missing or invalid arXiv id"
    title = clean_text(obj.get("title"))
    if not title:
        return "missing title"
    doi = normalise_doi(clean_text(obj.get("doi")))
    journal = clean_text(obj.get("journal-ref"))
    categories = clean_text(obj.get("categories"))
    fields = {"eprint": arxiv_id, "archiveprefix": "arXiv"}
    if categories:
        fields["primaryclass"] = categories.split()[0]
    return PaperRecord(
        id=record_id(doi, arxiv_id, source, arxiv_id),
        title=title,
        authors=_authors(obj),
        year=_year(obj, arxiv_id),
        venue=journal or "arXiv",
        abstract=clean_text(obj.get("abstract")),
        doi=doi,
        arxiv_id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        source=source,
        bibtex_fields=fields,
    )


class ArxivSnapshotSource(JsonLinesSource):
    """arXiv metadata snapshot JSON lines (plain or .gz)."""

    kind = "arxiv"

    def convert(self, obj: dict[str, Any]) -> tuple[PaperRecord, tuple[str, ...]] | str:
        result = arxiv_record(obj, self.name)
        return result if isinstance(result, str) else (result, (f"arxiv:{result.arxiv_id}",))
