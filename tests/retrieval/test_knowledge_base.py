"""The knowledge base: indexing, lookups, search modes, dedup across sources, incremental updates,
crash recovery, the writer lock and read-only snapshots."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.index_lock import KnowledgeBaseBusy
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.sources import open_source
from relatex.retrieval.vector_store import EdgeVectorStore

from .kb_library import write_library

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "retrieval"


@pytest.fixture()
def embedder() -> HashingEmbedder:
    return HashingEmbedder(128)


def test_index_and_lookup_a_zotero_library(tmp_path: Path, embedder: HashingEmbedder) -> None:
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder) as kb:
        summary = kb.index(open_source(FIXTURES / "library.bib"))
        assert summary.completed and summary.added == 6 and summary.skipped["missing title"] == 1
        assert len(kb) == 6
        bleu = kb.find_by_doi("https://doi.org/10.3115/1073083.1073135")
        assert bleu is not None and bleu.bibtex_key == "papineniBLEUMethodAutomatic2002"
        assert kb.find_by_alias("acl:P02-1040") == bleu
        assert kb.resolve("10.3115/1073083.1073135") == bleu
        assert kb.find_by_arxiv("arXiv:1706.03762v5") is not None
        assert [r.id for r in kb.find_by_title("Okapi at TREC-3")] == ["library:robertsonOkapiTREC31995"]
        assert kb.get("doi:10.1145/361219.361220") is not None
        assert set(kb.get_many(["doi:10.1145/361219.361220", "nope"])) == {"doi:10.1145/361219.361220"}
        vectors = kb.vectors([bleu.id])
        assert vectors[bleu.id].shape == (128,) and abs(float(np.linalg.norm(vectors[bleu.id])) - 1) < 1e-5
        assert kb.embed(["a", "b"]).shape == (2, 128)
        assert {r.id for r in kb.iter_records()} == {h.record.id for h in kb.search("retrieval", k=50, mode="hybrid")} | {
            r.id for r in kb.iter_records()}


@pytest.mark.parametrize("mode", ["hybrid", "dense", "bm25"])
def test_searching_a_title_returns_that_paper_first(tmp_path: Path, embedder: HashingEmbedder, mode: str) -> None:
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder) as kb:
        kb.index(open_source(FIXTURES / "library.bib"))
        hits = kb.search("Reciprocal rank fusion outperforms Condorcet", k=3, mode=mode)
        assert hits[0].record.id == "doi:10.1145/1571941.1572114"
        if mode == "dense":
            assert hits[0].dense_rank == 1 and hits[0].lexical_rank is None
        if mode == "bm25":
            assert hits[0].lexical_rank == 1 and hits[0].dense_rank is None
        excluded = kb.search("Reciprocal rank fusion outperforms Condorcet", k=3, mode=mode,
                             exclude={"doi:10.1145/1571941.1572114"})
        assert all(h.record.id != "doi:10.1145/1571941.1572114" for h in excluded)
        by_vector = kb.search_vector(kb.vectors([hits[0].record.id])[hits[0].record.id], k=1)
        assert by_vector[0].record.id == hits[0].record.id
    with pytest.raises(ValueError, match="unknown search mode"):
        KnowledgeBase.open(tmp_path / "kb", embedder=embedder).search("x", mode="magic")


def test_duplicates_across_sources_merge_into_one_rich_record(tmp_path: Path, embedder: HashingEmbedder) -> None:
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder) as kb:
        for name in ("library.bib", "arxiv.jsonl", "openalex.jsonl", "s2.jsonl"):
            kb.index(open_source(FIXTURES / name))
        attention = [r for r in kb.iter_records() if "attention is all you need" in r.title.lower()]
        assert len(attention) == 1
        record = attention[0]
        assert record.id == "arxiv:1706.03762"
        assert record.citation_count == 104123
        assert "doi:10.1162/neco.1997.9.8.1735" in record.references and "openalex:W1614298861" in record.references
        assert record.bibtex_key == "vaswaniAttentionAllYou2017"
        assert kb.find_by_alias("openalex:W2626778328") == record
        assert kb.find_by_alias("s2:204e3073870fae3d05bcbc2f6a8e263d9b72e776") == record
        # BLEU: the .bib entry has a DOI, Semantic Scholar only the ACL id: same title, author, year
        bleu = kb.find_by_alias("acl:P02-1040")
        assert bleu is not None and bleu.id == "doi:10.3115/1073083.1073135"
        assert bleu.abstract and bleu.abstract.endswith("need for quick or frequent evaluations.")  # longest
        assert bleu.citation_count == 24211 and set(bleu.source.split("+")) == {"library", "s2"}
        # DPR: same DOI in the .bib and the arXiv snapshot; the arXiv id comes from the latter
        dpr = kb.find_by_doi("10.18653/v1/2020.emnlp-main.550")
        assert dpr is not None and dpr.arxiv_id == "2004.04906"
        assert kb.find_by_arxiv("2004.04906") == dpr
        # the arXiv preprint (2018) and the NAACL paper (2019) of BERT differ in year: kept apart
        titles = [r.title.lower() for r in kb.iter_records()]
        assert len(titles) == len(set(titles)) + 1
        assert {r.year for r in kb.iter_records() if r.title.lower().startswith("bert")} == {2018, 2019}


def test_incremental_update_touches_only_what_changed(tmp_path: Path, embedder: HashingEmbedder) -> None:
    lib = tmp_path / "lib.bib"
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder) as kb:
        first = kb.index(open_source(write_library(lib, list(range(20))), name="lib"))
        assert (first.added, first.embedded, len(kb)) == (20, 20, 20)
        before = embedder.texts_embedded
        again = kb.index(open_source(lib, name="lib"))
        assert (again.added, again.updated, again.unchanged, again.removed) == (0, 0, 20, 0)
        assert embedder.texts_embedded == before
        # change one abstract, delete one entry, add one entry
        ids = [i for i in range(21) if i != 7]
        write_library(lib, ids, changes={3: "A new closing sentence."})
        summary = kb.index(open_source(lib, name="lib"))
        assert (summary.added, summary.updated, summary.removed, summary.unchanged) == (1, 1, 1, 18)
        assert embedder.texts_embedded - before == 2 and summary.embedded == 2
        assert len(kb) == 20 and kb.find_by_doi("10.5555/test.7") is None
        changed = kb.find_by_doi("10.5555/test.3")
        assert changed is not None and changed.abstract and changed.abstract.endswith("A new closing sentence.")
        # a metadata-only change (venue) is stored without re-embedding
        before = embedder.texts_embedded
        write_library(lib, ids, changes={3: "A new closing sentence."}, venues={5: "Another Venue"})
        summary = kb.index(open_source(lib, name="lib"))
        assert (summary.updated, summary.embedded) == (1, 0) and embedder.texts_embedded == before
        found = kb.find_by_doi("10.5555/test.5")
        assert found is not None and found.venue == "Another Venue"
        assert kb.stats()["vectors"] == len(kb) == 20


def test_add_records_never_removes(tmp_path: Path, embedder: HashingEmbedder) -> None:
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder) as kb:
        kb.index(open_source(FIXTURES / "library.bib"))
        records = list(open_source(FIXTURES / "openalex.jsonl"))
        summary = kb.add_records(records[:1])
        assert summary.added == 1 and len(kb) == 7
        assert kb.search("bidirectional encoder representations transformers", k=1, mode="bm25")[0].record.id == records[0].id


class CrashingStore:
    """An Edge store that dies right after writing vectors of the n-th batch (before the commit)."""

    def __init__(self, inner: EdgeVectorStore, crash_on_flush: int) -> None:
        self.inner = inner
        self.dim = inner.dim
        self.flushes = 0
        self.crash_on_flush = crash_on_flush

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.inner, name)

    def flush(self) -> None:
        self.inner.flush()
        self.flushes += 1
        if self.flushes == self.crash_on_flush:
            raise OSError("simulated power loss after the vector write")


def test_resume_after_a_crash_between_vector_write_and_commit(tmp_path: Path, embedder: HashingEmbedder) -> None:
    lib = write_library(tmp_path / "lib.bib", list(range(50)))
    kb_dir = tmp_path / "kb"
    crashing = CrashingStore(EdgeVectorStore(kb_dir / "vectors", embedder.dim), crash_on_flush=3)
    kb = KnowledgeBase.open(kb_dir, embedder=embedder, store=crashing)  # type: ignore[arg-type]
    kb.batch_size = 10
    with pytest.raises(OSError, match="simulated"):
        kb.index(open_source(lib, name="lib"))
    assert len(kb) == 20  # two batches committed, the third has vectors but no records
    assert crashing.inner.count() == 30
    kb.close()
    with KnowledgeBase.open(kb_dir, embedder=embedder) as kb:  # reconcile drops the orphan vectors
        assert kb.stats()["vectors"] == 20
        before = embedder.texts_embedded
        kb.batch_size = 10
        summary = kb.index(open_source(lib, name="lib"))
        assert (summary.unchanged, summary.added) == (20, 30)
        assert embedder.texts_embedded - before == 30
        assert len(kb) == 50 and kb.stats()["vectors"] == 50
        assert len({r.id for r in kb.iter_records()}) == 50


def test_writer_lock_and_read_only_snapshots(tmp_path: Path, embedder: HashingEmbedder) -> None:
    kb_dir = tmp_path / "kb"
    lib = write_library(tmp_path / "lib.bib", list(range(10)))
    writer = KnowledgeBase.open(kb_dir, embedder=embedder)
    writer.index(open_source(lib, name="lib"))
    with pytest.raises(KnowledgeBaseBusy, match=r"being updated by another relatex process \(pid \d+\)"):
        KnowledgeBase.open(kb_dir, embedder=embedder)
    reader = KnowledgeBase.open(kb_dir, embedder=embedder, read_only=True)
    reader.snapshot_refresh_seconds = 0.0
    assert len(reader) == 10
    query = "On dense retrieval 3: dual encoders embed questions"
    assert reader.search(query, k=1, mode="dense")[0].record.id == writer.search(query, k=1, mode="dense")[0].record.id
    with pytest.raises(PermissionError):
        reader.add_records([])
    write_library(lib, list(range(12)))
    writer.index(open_source(lib, name="lib"))
    # the reader sees the new committed state on its next search
    assert reader.search("On query expansion 9", k=1, mode="hybrid")[0].record.doi == "10.5555/test.9"
    assert len(reader) == 12
    hits = reader.search("On dense retrieval 11", k=1, mode="bm25")
    assert hits[0].record.doi == "10.5555/test.11"
    writer.close()
    with KnowledgeBase.open(kb_dir, embedder=embedder) as again:
        assert len(again) == 12
    reader.close()


def test_other_embedding_model_is_refused(tmp_path: Path) -> None:
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(64)) as kb:
        kb.add_records(list(open_source(FIXTURES / "arxiv.jsonl")))
    with pytest.raises(ValueError, match="built with the embedding model 'hashing-64'"):
        KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(32))
    with KnowledgeBase.open(tmp_path / "kb", read_only=True) as kb:  # the stored model is the default
        assert kb.embedder.model_id == "hashing-64" and len(kb) == 4


def test_read_only_open_of_a_missing_knowledge_base(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="relatex index"):
        KnowledgeBase.open(tmp_path / "none", read_only=True)


def test_records_stream_in_batches_and_a_close_meanwhile_ends_the_stream(tmp_path: Path,
                                                                        embedder: HashingEmbedder) -> None:
    lib = write_library(tmp_path / "lib.bib", list(range(25)))
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder) as kb:
        kb.index(open_source(lib, name="lib"))
        ids = [r.id for r in kb.iter_records(batch=4)]
        assert ids == sorted(ids) and len(set(ids)) == 25
    reader = KnowledgeBase.open(tmp_path / "kb", embedder=embedder, read_only=True)
    stream = reader.iter_records(batch=4)
    assert len([next(stream) for _ in range(4)]) == 4
    reader.close()  # as a reindex closes the knowledge base a selection reads
    with pytest.raises(Exception, match="closed"):
        list(stream)


def test_the_embedder_is_read_while_no_close_can_run(tmp_path: Path, embedder: HashingEmbedder) -> None:
    """A close from another thread waits for the read of the embedder's name, and a read after the
    close fails with an error instead of touching a freed connection."""
    with KnowledgeBase.open(tmp_path / "kb", embedder=embedder):
        pass
    reader = KnowledgeBase.open(tmp_path / "kb", read_only=True)  # the embedder is read on first use
    holding = threading.Event()

    def close_later() -> None:
        with reader._mutex:  # as close() does; the read must wait for it
            holding.set()
            time.sleep(0.3)

    closer = threading.Thread(target=close_later, daemon=True)
    closer.start()
    holding.wait(5)
    started = time.perf_counter()
    assert reader.embedder.model_id == embedder.model_id
    assert time.perf_counter() - started >= 0.25
    closer.join(5)
    other = KnowledgeBase.open(tmp_path / "kb", read_only=True)
    other.close()
    with pytest.raises(Exception, match="closed"):
        _ = other.embedder
    reader.close()
