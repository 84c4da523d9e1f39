"""Integration on the real corpora in ../shared/data: ACL Anthology and ACM-CR BibTeX."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.sources import open_source
from relatex.retrieval.sources.base import RecordSource, SourceItem
from relatex.retrieval.sources.bibtex_source import acl_id_from_url

pytestmark = pytest.mark.shared_data


class WithAbstracts(RecordSource):
    """Records of another source that have an abstract, after skipping the first ``skip``."""

    def __init__(self, inner: RecordSource, skip: int, count: int) -> None:
        super().__init__(inner.path, inner.name)
        self.inner, self.skip_first, self.count = inner, skip, count
        self.skipped = inner.skipped

    def items(self) -> Iterator[SourceItem]:
        taken = 0
        for n, item in enumerate(self.inner.items()):
            if n < self.skip_first or not item.record.abstract:
                continue
            yield item
            taken += 1
            if taken >= self.count:
                return


def test_acl_entries_are_searchable_by_title_and_acl_id(shared_data: Path, tmp_path: Path) -> None:
    started = time.monotonic()
    source = WithAbstracts(open_source(shared_data / "acl-anthology" / "anthology+abstracts.bib.gz"), 60000, 2000)
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(256)) as kb:
        summary = kb.index(source)
        assert summary.added + summary.merged == 2000 and len(kb) >= 1990
        records = list(kb.iter_records())
        assert sum(1 for r in records if acl_id_from_url(r.url)) >= 500  # LREC 2004-6 URLs lack ids
        for record in records[::199]:
            for mode in ("hybrid", "bm25"):
                hits = kb.search(record.title, k=3, mode=mode)
                assert hits[0].record.title == record.title, (mode, record.title)
            # the model-free embedder only shares words: the paper is among the dense top 10
            dense = kb.search(record.title, k=10, mode="dense")
            assert record.title in {h.record.title for h in dense}
            acl = acl_id_from_url(record.url)
            if acl:  # a few Anthology URLs wrap foreign URLs and carry no Anthology id
                assert kb.find_by_alias(f"acl:{acl}") == record
            if record.doi:
                assert kb.find_by_doi(record.doi) == record
    assert time.monotonic() - started < 120


def test_acm_entries_keep_dois_and_keywords(shared_data: Path) -> None:
    source = open_source(shared_data / "acm-cr" / "acm-dl.bib.gz").limited(300)
    records = list(source)
    assert len(records) == 300
    with_doi = [r for r in records if r.doi]
    assert len(with_doi) >= 290 and all(r.id == f"doi:{r.doi}" for r in with_doi)
    assert sum(1 for r in records if r.abstract) >= 200
    assert any("keywords" in r.bibtex_fields for r in records)
    assert all(r.year and 1950 < r.year < 2030 for r in records)
