"""Reading records of a knowledge base by id, alias, DOI, arXiv id or title."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator

import numpy as np

from relatex.retrieval.record_store import RecordStore, lexical_text
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, normalise_title


class RecordLookups:
    """The record-reading half of :class:`~relatex.retrieval.knowledge_base.KnowledgeBase`
    (which sets ``_records`` and ``_mutex``)."""

    _records: RecordStore
    _mutex: threading.RLock

    def __len__(self) -> int:
        with self._mutex:
            return self._records.count()

    def get(self, record_id: str) -> PaperRecord | None:
        with self._mutex:
            return self._records.get(record_id)

    def get_many(self, ids: Iterable[str]) -> dict[str, PaperRecord]:
        with self._mutex:
            return self._records.get_many(ids)

    def find_by_doi(self, doi: str) -> PaperRecord | None:
        norm = normalise_doi(doi)
        if norm is None:
            return None
        with self._mutex:
            rid = self._records.id_by_doi(norm)
            return self._records.get(rid) if rid else None

    def find_by_arxiv(self, arxiv_id: str) -> PaperRecord | None:
        norm = normalise_arxiv_id(arxiv_id)
        if norm is None:
            return None
        with self._mutex:
            rid = self._records.id_by_arxiv(norm)
            return self._records.get(rid) if rid else None

    def find_by_title(self, title: str, limit: int = 5) -> list[PaperRecord]:
        """Records whose normalised title equals that of ``title``."""
        norm = normalise_title(title)
        if not norm:
            return []
        with self._mutex:
            ids = self._records.ids_by_title(norm, limit)
            found = self._records.get_many(ids)
            return [found[i] for i in ids if i in found]

    def find_by_alias(self, alias: str) -> PaperRecord | None:
        """A record by any of its names: its id, ``doi:…``, ``arxiv:…``, ``acl:<Anthology id>``,
        ``openalex:W…``, ``s2:<paperId>``, ``bibkey:<source>:<key>``."""
        alias = alias.strip()
        scheme, _, value = alias.partition(":")
        if scheme == "doi":
            return self.find_by_doi(value)
        if scheme == "arxiv":
            return self.find_by_arxiv(value)
        with self._mutex:
            record = self._records.get(alias)
            if record is not None:
                return record
            rid = self._records.resolve_alias(alias)
            return self._records.get(rid) if rid else None

    def resolve(self, identifier: str) -> PaperRecord | None:
        """A record from a record id, alias, DOI (with or without prefix) or arXiv id."""
        if (record := self.find_by_alias(identifier)) is not None:
            return record
        if normalise_doi(identifier):
            return self.find_by_doi(identifier)
        if normalise_arxiv_id(identifier):
            return self.find_by_arxiv(identifier)
        return None

    def aliases(self, record_id: str) -> list[str]:
        with self._mutex:
            return self._records.aliases_of(record_id)

    def vectors(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        with self._mutex:
            return self._records.vectors(ids)

    def iter_records(self, batch: int = 1000) -> Iterator[PaperRecord]:
        """Every record, in id order, streamed in batches; each batch is read under the knowledge
        base's lock, so a reindex that closes it meanwhile ends the stream with an error."""
        return self._records.iter_records(batch, self._mutex)

    def lexical_text(self, record: PaperRecord) -> str:
        return lexical_text(record)
