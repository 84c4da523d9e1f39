"""Semantic Scholar papers as JSON lines (Graph API ``/paper`` objects or dataset ``papers``)."""

from __future__ import annotations

from typing import Any

from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id
from relatex.retrieval.sources.base import (
    JsonLinesSource,
    clean_text,
    parse_year,
)


def _external(obj: dict[str, Any]) -> dict[str, Any]:
    ids = obj.get("externalIds") or obj.get("externalids")
    return ids if isinstance(ids, dict) else {}


def s2_reference_id(ref: Any) -> str | None:
    """The best identifier of a reference object: DOI, arXiv id, else the S2 paper id."""
    if not isinstance(ref, dict):
        return f"s2:{ref}" if isinstance(ref, str) and ref else None
    ext = _external(ref)
    if doi := normalise_doi(ext.get("DOI")):
        return f"doi:{doi}"
    if arx := normalise_arxiv_id(ext.get("ArXiv")):
        return f"arxiv:{arx}"
    if isinstance(ext.get("ACL"), str) and ext["ACL"].strip():
        return f"acl:{ext['ACL'].strip()}"
    paper_id = ref.get("paperId") or ref.get("citedPaperId")
    return f"s2:{paper_id}" if isinstance(paper_id, str) and paper_id else None


def s2_record(obj: dict[str, Any], source: str) -> tuple[PaperRecord, tuple[str, ...]] | str:
    """A record and its aliases from one paper object, or the reason it is skipped."""
    paper_id = obj.get("paperId") or obj.get("paperid")
    ext = _external(obj)
    if not isinstance(paper_id, str) or not paper_id:
        corpus = ext.get("CorpusId") or obj.get("corpusid")
        if corpus is None:
            return "missing paperId"
        paper_id = f"corpus{corpus}"
    title = clean_text(obj.get("title"))
    if not title:
        return "missing title"
    doi = normalise_doi(ext.get("DOI"))
    arxiv_id = normalise_arxiv_id(ext.get("ArXiv"))
    acl = clean_text(ext.get("ACL"))
    aliases = [f"s2:{paper_id}"]
    if acl:
        aliases.append(f"acl:{acl}")
    if ext.get("CorpusId") is not None:
        aliases.append(f"s2corpus:{ext['CorpusId']}")
    authors = tuple(
        name for name in (clean_text(a.get("name")) for a in obj.get("authors") or [] if isinstance(a, dict)) if name
    )
    references = tuple(r for r in (s2_reference_id(ref) for ref in obj.get("references") or []) if r)
    venue = clean_text(obj.get("venue"))
    if not venue and isinstance(obj.get("journal"), dict):
        venue = clean_text(obj["journal"].get("name"))
    count = obj.get("citationCount", obj.get("citationcount"))
    local = f"acl:{acl}" if acl else f"s2:{paper_id}"
    source_name, local_key = local.split(":", 1)
    url = clean_text(obj.get("url"))
    if acl and not doi:
        url = f"https://aclanthology.org/{acl}"
    record = PaperRecord(
        id=record_id(doi, arxiv_id, source_name, local_key),
        title=title,
        authors=authors,
        year=parse_year(obj.get("year")),
        venue=venue,
        abstract=clean_text(obj.get("abstract")),
        doi=doi,
        arxiv_id=arxiv_id,
        url=url or f"https://www.semanticscholar.org/paper/{paper_id}",
        references=references,
        source=source,
        citation_count=count if isinstance(count, int) and not isinstance(count, bool) else None,
    )
    return record, tuple(aliases)


class SemanticScholarSource(JsonLinesSource):
    """Semantic Scholar paper objects, one a line (plain or .gz)."""

    kind = "s2"

    def convert(self, obj: dict[str, Any]) -> tuple[PaperRecord, tuple[str, ...]] | str:
        return s2_record(obj, self.name)
