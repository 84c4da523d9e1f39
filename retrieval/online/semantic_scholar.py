"""Semantic Scholar Academic Graph API client: papers, references, citations, title search."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from relatex.retrieval.online.common import as_int, clean_text, last_first
from relatex.retrieval.online.http import ScholarlyHttp, SourceError, SourceNotFound
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id

S2_URL = "https://api.semanticscholar.org/graph/v1"
PAPER_FIELDS = "paperId,externalIds,title,abstract,year,venue,publicationVenue,journal,authors,citationCount,publicationTypes"
DETAIL_FIELDS = PAPER_FIELDS + ",references.paperId,references.externalIds"
_S2_ID = re.compile(r"^[0-9a-f]{40}$")


def s2_reference_id(paper: Mapping[str, Any]) -> str | None:
    """The record id of a referenced paper: its DOI or arXiv id when known, else ``s2:<paperId>``."""
    ids = paper.get("externalIds") or {}
    pid = paper.get("paperId")
    if not ids and not pid:
        return None
    return record_id(ids.get("DOI"), ids.get("ArXiv"), "s2", str(pid or ""))


def paper_to_record(paper: Mapping[str, Any]) -> PaperRecord:
    """Map one Graph API paper object to a :class:`PaperRecord`."""
    ids = paper.get("externalIds") or {}
    doi = normalise_doi(ids.get("DOI"))
    arxiv = normalise_arxiv_id(ids.get("ArXiv"))
    pid = str(paper.get("paperId") or "")
    journal = paper.get("journal") or {}
    pub_venue = paper.get("publicationVenue") or {}
    venue = pub_venue.get("name") or paper.get("venue") or journal.get("name") or None
    types = [str(t) for t in (paper.get("publicationTypes") or [])]
    bibtex_type = "inproceedings" if "Conference" in types else "article" if "JournalArticle" in types else None
    fields: dict[str, str] = {}
    if journal.get("pages"):
        fields["pages"] = str(journal["pages"]).strip().replace("-", "--")
    if journal.get("volume"):
        fields["volume"] = str(journal["volume"]).strip()
    references = tuple(
        ref_id
        for ref in (paper.get("references") or [])
        if isinstance(ref, Mapping) and (ref_id := s2_reference_id(ref))
    )
    return PaperRecord(
        id=record_id(doi, arxiv, "s2", pid),
        title=" ".join(str(paper.get("title") or "").split()),
        authors=tuple(
            last_first(str(a.get("name") or "")) for a in (paper.get("authors") or []) if isinstance(a, Mapping)
        ),
        year=as_int(paper.get("year")),
        venue=venue or None,
        abstract=clean_text(paper.get("abstract")),
        doi=doi,
        arxiv_id=arxiv,
        url=f"https://www.semanticscholar.org/paper/{pid}" if pid else None,
        references=references,
        source="semantic_scholar",
        bibtex_type=bibtex_type,
        bibtex_fields=fields,
        citation_count=as_int(paper.get("citationCount")),
    )


def s2_identifier(identifier: str) -> str:
    """The Graph API form of an id: ``DOI:...``, ``ARXIV:...``, ``CorpusId:...`` or a paperId."""
    value = identifier.strip()
    if value.startswith("s2:"):
        return value[3:]
    if _S2_ID.match(value) or re.match(r"^(CorpusId|ACL|DBLP|MAG|PMID|URL):", value):
        return value
    if doi := normalise_doi(value.removeprefix("doi:")):
        return f"DOI:{doi}"
    if arxiv := normalise_arxiv_id(value.removeprefix("arxiv:")):
        return f"ARXIV:{arxiv}"
    raise ValueError(f"not a Semantic Scholar paper id, DOI or arXiv id: {identifier!r}")


class SemanticScholarClient:
    """Papers from the Semantic Scholar Graph API; ``api_key`` defaults to env ``S2_API_KEY``."""

    name = "semantic_scholar"

    def __init__(self, http: ScholarlyHttp, base_url: str = S2_URL, api_key: str | None = None) -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("S2_API_KEY", "")

    def _get(self, path: str, **params: Any) -> Any:
        headers = {"x-api-key": self.api_key} if self.api_key else {}
        return self.http.get_json(f"{self.base_url}{path}", params, headers)

    def _path(self, identifier: str) -> str:
        return quote(s2_identifier(identifier), safe=":")

    def paper(self, identifier: str) -> PaperRecord | None:
        """One paper (with its references' ids); None when Semantic Scholar does not know it."""
        try:
            data = self._get(f"/paper/{self._path(identifier)}", fields=DETAIL_FIELDS)
        except SourceNotFound:
            return None
        if not isinstance(data, Mapping) or not data.get("paperId"):
            raise SourceError("Semantic Scholar returned an unexpected paper object")
        return paper_to_record(data)

    def _edges(self, identifier: str, edge: str, inner: str, limit: int) -> list[PaperRecord]:
        try:
            data = self._get(
                f"/paper/{self._path(identifier)}/{edge}", fields=PAPER_FIELDS, limit=max(1, min(limit, 1000))
            )
        except SourceNotFound:
            return []
        rows = data.get("data") if isinstance(data, Mapping) else None
        if not isinstance(rows, list):
            raise SourceError(f"Semantic Scholar returned {edge} without 'data'")
        records = []
        for row in rows:
            paper = row.get(inner) if isinstance(row, Mapping) else None
            if isinstance(paper, Mapping) and paper.get("title"):
                records.append(paper_to_record(paper))
        return records[:limit]

    def references(self, identifier: str, limit: int = 1000) -> list[PaperRecord]:
        """Papers cited by ``identifier``."""
        return self._edges(identifier, "references", "citedPaper", limit)

    def citations(self, identifier: str, limit: int = 100) -> list[PaperRecord]:
        """Papers citing ``identifier``."""
        return self._edges(identifier, "citations", "citingPaper", limit)

    def search_title(self, title: str, limit: int = 5) -> list[PaperRecord]:
        """Relevance search on the title words."""
        query = " ".join(re.sub(r"[-:]", " ", title).split())
        if not query or limit <= 0:
            return []
        data = self._get("/paper/search", query=query, fields=PAPER_FIELDS, limit=min(limit, 100))
        rows = data.get("data", []) if isinstance(data, Mapping) else None
        if not isinstance(rows, list):
            raise SourceError("Semantic Scholar search returned no 'data' list")
        return [paper_to_record(p) for p in rows if isinstance(p, Mapping) and p.get("title")][:limit]
