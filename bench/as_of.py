"""The knowledge base as it stood when a draft was written: later papers are invisible.

A benchmark draft from 2009 searched against a knowledge base that runs to 2016 finds papers that
did not exist yet, through the text search and through the citation edges (later papers citing its
seeds); no draft's true references can be among them. A user's draft is written now, after every
paper of their knowledge base, so the product needs no such view; the ACL section benchmark does.
"""

from __future__ import annotations

from typing import Any

from relatex.retrieval.records import PaperRecord


def visible(record: PaperRecord, year: int) -> bool:
    """Published by ``year`` (a record without a year is kept)."""
    return not record.year or record.year <= year


class KnowledgeBaseAsOf:
    """A knowledge base whose searches see only papers published by ``year`` (each search asks the
    wrapped one for 3k + 30 hits and keeps the first k visible ones); everything else is the
    wrapped knowledge base's."""

    def __init__(self, kb: Any, year: int) -> None:
        self._kb = kb
        self.year = year

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kb, name)

    def __len__(self) -> int:
        return len(self._kb)

    def _kept(self, hits: list[Any], k: int) -> list[Any]:
        return [h for h in hits if visible(h.record, self.year)][:k]

    def search(self, query: str, k: int = 10, mode: str = "hybrid", exclude: Any = (), vector: Any = None) -> list[Any]:
        return self._kept(self._kb.search(query, k=3 * k + 30, mode=mode, exclude=exclude, vector=vector), k)

    def search_vector(self, vector: Any, k: int = 10, exclude: Any = ()) -> list[Any]:
        return self._kept(self._kb.search_vector(vector, k=3 * k + 30, exclude=exclude), k)


class SourceAsOf:
    """A neighbour source whose references and citers are only papers published by ``year``."""

    def __init__(self, source: Any, year: int) -> None:
        self._source = source
        self.year = year
        self.name = source.name
        self.cheap = source.cheap

    def references(self, record: PaperRecord) -> list[PaperRecord]:
        return [r for r in self._source.references(record) if visible(r, self.year)]

    def cited_by(self, record: PaperRecord) -> list[PaperRecord]:
        return [r for r in self._source.cited_by(record) if visible(r, self.year)]
