"""Where the graph expansion finds citation neighbours: the protocol, and the knowledge base's own references."""

from __future__ import annotations

import weakref
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


_CITING_CACHE: weakref.WeakKeyDictionary[Any, tuple[int, dict[str, list[str]]]] = weakref.WeakKeyDictionary()


def build_citing_index(kb: Any) -> dict[str, list[str]]:
    """Canonical reference -> ids of the records citing it, from one scan of the knowledge base.

    Cached per knowledge base object and size, so a long-running server scans once; the entry goes
    with the object (a closed knowledge base's index is neither kept nor handed to its successor).
    """
    size = len(kb)
    try:
        cached = _CITING_CACHE.get(kb)
    except TypeError:  # an object that takes no weak reference is not cached
        cached = None
    if cached is not None and cached[0] == size:
        return cached[1]
    reverse: dict[str, list[str]] = {}
    for record in kb.iter_records():
        for ref in record.references:
            reverse.setdefault(ReferenceIndex.canonical(ref), []).append(record.id)
    try:
        _CITING_CACHE[kb] = (size, reverse)
    except TypeError:
        pass
    return reverse
