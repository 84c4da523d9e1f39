"""Authorities for BibTeX verification: the knowledge base and the online scholarly sources.

Each adapter maps its records to :class:`AuthorityRecord`. Online adapters turn an
unreachable source into :class:`AuthorityUnavailable` after reporting it once through
:class:`OnlineStatus`, and skip a source already known to be offline.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from relatex.analysis.bib.bib_matching import is_preprint_venue, title_similarity
from relatex.analysis.verification.bib_verification import Authority, AuthorityRecord, AuthorityUnavailable
from relatex.retrieval.online.arxiv import ARXIV_HOST_RATE, ArxivClient, ArxivEntry
from relatex.retrieval.online.crossref import CrossrefClient, message_to_record, published_version_doi
from relatex.retrieval.online.dblp import DblpClient
from relatex.retrieval.online.http import (
    OnlineStatus,
    ScholarlyHttp,
    SourceError,
    SourceUnavailable,
    user_agent,
)
from relatex.retrieval.online.openalex import OpenAlexClient
from relatex.retrieval.online.semantic_scholar import SemanticScholarClient
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Environment variables overriding the online sources' base URLs (mirrors, local test servers).
BASE_URL_ENV = {
    "crossref": "RELATEX_CROSSREF_URL",
    "arxiv": "RELATEX_ARXIV_URL",
    "openalex": "RELATEX_OPENALEX_URL",
    "dblp": "RELATEX_DBLP_URL",
    "semantic_scholar": "RELATEX_S2_URL",
}


def is_preprint_record(record: PaperRecord) -> bool:
    """An arXiv/CoRR-only record: no published venue or DOI besides the preprint server's."""
    if record.source == "arxiv":
        return True
    if record.doi and record.doi.startswith("10.48550/"):
        return True
    if is_preprint_venue(record.venue):
        return True
    return bool(record.arxiv_id) and not record.doi and not record.venue


def to_authority_record(record: PaperRecord, source: str, published_doi: str | None = None) -> AuthorityRecord:
    """Map a :class:`PaperRecord` to what verification compares."""
    return AuthorityRecord(
        source=source,
        record_id=record.id,
        title=record.title,
        authors=record.authors,
        year=record.year,
        venue=record.venue,
        doi=record.doi,
        arxiv_id=record.arxiv_id,
        pages=record.bibtex_fields.get("pages") if record.bibtex_fields else None,
        entry_type=record.bibtex_type,
        is_preprint=is_preprint_record(record),
        published_doi=published_doi,
    )


class KnowledgeBaseLike(Protocol):
    def find_by_doi(self, doi: str) -> PaperRecord | None: ...

    def find_by_arxiv(self, arxiv_id: str) -> PaperRecord | None: ...

    def find_by_title(self, title: str, limit: int = 5) -> list[PaperRecord]: ...


class KnowledgeBaseAuthority:
    """The local knowledge base. Exact normalised-title lookup first; with ``fuzzy`` a BM25
    title search finds near titles too (verification still requires matching authors)."""

    def __init__(self, kb: KnowledgeBaseLike, name: str = "knowledge base", fuzzy: bool = True) -> None:
        self.kb = kb
        self.name = name
        self.fuzzy = fuzzy

    def _one(self, record: PaperRecord | None) -> list[AuthorityRecord]:
        return [to_authority_record(record, self.name)] if record is not None else []

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        return self._one(self.kb.find_by_doi(doi))

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        return self._one(self.kb.find_by_arxiv(arxiv_id))

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        found = self.kb.find_by_title(title, max(limit, 25))  # exact lookups are cheap; series reuse titles
        if not found and self.fuzzy and hasattr(self.kb, "search"):
            try:
                hits = self.kb.search(title, k=limit, mode="bm25")
            except Exception as exc:  # the lexical index may be missing or still building
                log.debug("knowledge base title search failed: %s", exc)
                hits = []
            found = [h.record for h in hits if title_similarity(title, h.record.title) >= 0.6]
        return [to_authority_record(r, self.name) for r in found]


class _OnlineAuthority:
    """Shared error handling of the online adapters."""

    name = "online"
    exhaustive = True  # a registry: a work it does not know may not exist

    def __init__(self, status: OnlineStatus) -> None:
        self.status = status

    def _call(self, fn: Callable[[], T]) -> T | None:
        """Run one request; None when the identifier is not one this source understands."""
        if self.status.is_offline(self.name):
            raise AuthorityUnavailable(self.status.offline[self.name])
        try:
            return fn()
        except SourceUnavailable as exc:
            self.status.report(self.name, str(exc))
            raise AuthorityUnavailable(str(exc)) from exc
        except SourceError as exc:
            log.info("%s answered badly: %s", self.name, exc)
            raise AuthorityUnavailable(str(exc)) from exc
        except ValueError:
            return None


class CrossrefAuthority(_OnlineAuthority):
    name = "crossref"

    def __init__(self, client: CrossrefClient, status: OnlineStatus) -> None:
        super().__init__(status)
        self.client = client

    def _record(self, message: Mapping[str, Any]) -> AuthorityRecord:
        record = message_to_record(message)
        preprint = str(message.get("type")) == "posted-content" or is_preprint_record(record)
        base = to_authority_record(record, self.name, published_version_doi(message))
        return replace(base, is_preprint=preprint)

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        message = self._call(lambda: self.client.work_message(doi))
        return [self._record(message)] if message is not None else []

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        norm = normalise_arxiv_id(arxiv_id)
        return self.by_doi(f"10.48550/arxiv.{norm}") if norm else []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        return [self._record(m) for m in self._call(lambda: self.client.search_messages(title, None, limit)) or []]


class ArxivAuthority(_OnlineAuthority):
    """arXiv by identifier; title search only with ``title_search`` (arXiv allows one request
    every three seconds, so titles are better asked of OpenAlex and DBLP)."""

    name = "arxiv"

    def __init__(self, client: ArxivClient, status: OnlineStatus, title_search: bool = False) -> None:
        super().__init__(status)
        self.client = client
        self.title_search = title_search
        self.lookups = frozenset({"arxiv", "title"} if title_search else {"arxiv"})

    def _record(self, entry: ArxivEntry) -> AuthorityRecord:
        return to_authority_record(entry.record, self.name, entry.published_doi)

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        if doi.lower().startswith("10.48550/arxiv."):
            return self.by_arxiv(doi[len("10.48550/arxiv."):])
        return []

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        entry = self._call(lambda: self.client.entry(arxiv_id))
        return [self._record(entry)] if entry is not None else []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        if not self.title_search:
            return []
        return [self._record(e) for e in self._call(lambda: self.client.search_entries(title, limit)) or []]


class OpenAlexAuthority(_OnlineAuthority):
    name = "openalex"

    def __init__(self, client: OpenAlexClient, status: OnlineStatus) -> None:
        super().__init__(status)
        self.client = client

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        record = self._call(lambda: self.client.work(f"doi:{doi}"))
        return [to_authority_record(record, self.name)] if record is not None else []

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        record = self._call(lambda: self.client.work(f"arxiv:{arxiv_id}"))
        return [to_authority_record(record, self.name)] if record is not None else []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        return [to_authority_record(r, self.name) for r in self._call(lambda: self.client.search_title(title, limit)) or []]


class SemanticScholarAuthority(_OnlineAuthority):
    name = "semantic_scholar"

    def __init__(self, client: SemanticScholarClient, status: OnlineStatus) -> None:
        super().__init__(status)
        self.client = client

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        record = self._call(lambda: self.client.paper(f"doi:{doi}"))
        return [to_authority_record(record, self.name)] if record is not None else []

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        record = self._call(lambda: self.client.paper(f"arxiv:{arxiv_id}"))
        return [to_authority_record(record, self.name)] if record is not None else []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        return [to_authority_record(r, self.name) for r in self._call(lambda: self.client.search_title(title, limit)) or []]


class DblpAuthority(_OnlineAuthority):
    name = "dblp"
    lookups = frozenset({"title"})

    def __init__(self, client: DblpClient, status: OnlineStatus) -> None:
        super().__init__(status)
        self.client = client

    def by_doi(self, doi: str) -> list[AuthorityRecord]:
        return []  # DBLP's search API does not look up DOIs

    def by_arxiv(self, arxiv_id: str) -> list[AuthorityRecord]:
        return []

    def by_title(self, title: str, limit: int = 5) -> list[AuthorityRecord]:
        return [to_authority_record(r, self.name) for r in self._call(lambda: self.client.search_title(title, limit)) or []]


def online_authorities(
    cache_dir: Path | Any | None,
    *,
    timeout: float = 10.0,
    mailto: str = "",
    status: OnlineStatus | None = None,
    base_urls: Mapping[str, str] | None = None,
    semantic_scholar: bool | None = None,
    max_retries: int = 3,
) -> list[Authority]:
    """Crossref (DOI), arXiv (id), OpenAlex and DBLP (title), in that order; Semantic Scholar
    too when ``S2_API_KEY`` is set (or ``semantic_scholar=True``). Base URLs come from
    ``base_urls`` or the ``RELATEX_*_URL`` environment variables, else the public APIs.

    ``cache_dir`` may also be the settings object (anything with ``.online``): its cache
    directory, timeout and mailto are used then."""
    online = getattr(cache_dir, "online", None)
    if online is not None:
        timeout, mailto = float(online.timeout), str(online.mailto)
        cache_dir = Path(online.resolved_cache_dir()) / "http"
    status = status or OnlineStatus()
    urls = {name: os.environ[var] for name, var in BASE_URL_ENV.items() if os.environ.get(var)}
    urls.update(base_urls or {})
    agent = user_agent(mailto)

    def http(rate: float) -> ScholarlyHttp:
        return ScholarlyHttp(cache_dir, timeout=timeout, max_retries=max_retries, rate_per_second=rate,
                             user_agent=agent, status=status)

    def kw(name: str) -> dict[str, str]:
        return {"base_url": urls[name]} if name in urls else {}

    found: list[Authority] = [
        CrossrefAuthority(CrossrefClient(http(10.0), mailto=mailto, **kw("crossref")), status),
        ArxivAuthority(ArxivClient(http(ARXIV_HOST_RATE), **kw("arxiv")), status),
        OpenAlexAuthority(OpenAlexClient(http(10.0), mailto=mailto, **kw("openalex")), status),
        DblpAuthority(DblpClient(http(1.0), **kw("dblp")), status),
    ]
    if semantic_scholar or (semantic_scholar is None and os.environ.get("S2_API_KEY")):
        found.append(SemanticScholarAuthority(SemanticScholarClient(http(1.0), **kw("semantic_scholar")), status))
    return found
