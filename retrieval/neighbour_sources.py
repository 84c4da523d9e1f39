"""Where the graph expansion finds citation neighbours: the protocol, and the knowledge base's own references."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from relatex.retrieval.citation_graph import ReferenceIndex
from relatex.retrieval.records import PaperRecord


class NeighbourSource(Protocol):
    """Where citation neighbours come from. ``cheap`` sources are also asked for every node."""

    name: str
    cheap: bool

    def references(self, record: PaperRecord) -> list[PaperRecord]: ...

    def cited_by(self, record: PaperRecord) -> list[PaperRecord]: ...


class RecordReferences:
    """Neighbours from ``PaperRecord.references`` resolved through the knowledge base.

    ``citing`` is an optional reverse index (canonical reference -> ids of the records whose
    references name it, see :func:`build_citing_index`) that gives the papers citing a record.
    """

    name = "references"
    cheap = False  # edges between papers already in the graph come from their references directly

    def __init__(self, index: ReferenceIndex, citing: Mapping[str, Sequence[str]] | None = None) -> None:
        self.index = index
        self.citing = citing

    def references(self, record: PaperRecord) -> list[PaperRecord]:
        out: list[PaperRecord] = []
        for ref in record.references:
            found = self.index.resolve_record(ref)
            if found is not None and found.id != record.id:
                out.append(found)
        return out

    def cited_by(self, record: PaperRecord) -> list[PaperRecord]:
        if not self.citing or self.index.kb is None:
            return []
        names = {record.id, *(f"doi:{record.doi}",) * bool(record.doi), *(f"arxiv:{record.arxiv_id}",) * bool(record.arxiv_id)}
        aliases = getattr(self.index.kb, "aliases", None)
        if callable(aliases):
            names.update(aliases(record.id))
        ids: dict[str, None] = {}
        for name in names:
            for rid in self.citing.get(ReferenceIndex.canonical(name), ()):
                ids.setdefault(rid, None)
        found = self.index.kb.get_many(list(ids))
        return [found[i] for i in ids if i in found and i != record.id]


_CITING_CACHE: dict[int, tuple[int, dict[str, list[str]]]] = {}


def build_citing_index(kb: Any) -> dict[str, list[str]]:
    """Canonical reference -> ids of the records citing it, from one scan of the knowledge base.

    Cached per knowledge base object and size, so a long-running server scans once.
    """
    size = len(kb)
    cached = _CITING_CACHE.get(id(kb))
    if cached is not None and cached[0] == size:
        return cached[1]
    reverse: dict[str, list[str]] = {}
    for record in kb.iter_records():
        for ref in record.references:
            reverse.setdefault(ReferenceIndex.canonical(ref), []).append(record.id)
    _CITING_CACHE[id(kb)] = (size, reverse)
    return reverse
