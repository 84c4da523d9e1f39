"""The citing index (reference -> records citing it) is cached per knowledge base object, never
handed to another one."""

from __future__ import annotations

import gc
from collections.abc import Iterator

from relatex.retrieval.neighbour_sources import _CITING_CACHE, build_citing_index
from relatex.retrieval.records import PaperRecord


class CountingKnowledgeBase:
    """Records in memory; counts the scans."""

    def __init__(self, records: list[PaperRecord]) -> None:
        self.records = records
        self.scans = 0

    def __len__(self) -> int:
        return len(self.records)

    def iter_records(self) -> Iterator[PaperRecord]:
        self.scans += 1
        return iter(self.records)


def _kb(cited: str) -> CountingKnowledgeBase:
    return CountingKnowledgeBase([PaperRecord(id="a", title="A", references=(cited,)),
                                  PaperRecord(id="b", title="B")])


def test_one_scan_per_knowledge_base_and_never_another_ones_index() -> None:
    first = _kb("doi:10.1/x")
    index = build_citing_index(first)
    assert build_citing_index(first) is index and first.scans == 1
    second = _kb("doi:10.1/y")  # the same size: a reindexed knowledge base
    assert build_citing_index(second) != index and second.scans == 1
    first.records.append(PaperRecord(id="c", title="C", references=("doi:10.1/x",)))
    assert len(build_citing_index(first)[next(iter(index))]) == 2 and first.scans == 2  # grown: scanned again


def test_the_index_goes_with_its_knowledge_base() -> None:
    kb = _kb("doi:10.1/z")
    build_citing_index(kb)
    before = len(_CITING_CACHE)
    del kb
    gc.collect()
    assert len(_CITING_CACHE) == before - 1
