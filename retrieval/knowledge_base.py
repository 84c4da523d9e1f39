"""The local scholarly knowledge base: records in SQLite, dense vectors in a vector store, BM25
beside them, and hybrid search over both.

Layout of a knowledge base directory::

    records.sqlite   records (JSON), vectors, per-source contributions + content hashes, aliases, runs
    vectors/         Qdrant Edge shard (HNSW), written only by the writer process
    lexical/gen-N/   BM25 index, generation N named in records.sqlite
    writer.lock      one writer at a time (writer.pid names it)
    text-vectors.sqlite  vectors of non-record texts (abstract sentences, claims), a cache only

Consistency: a writer opens the knowledge base exclusively (``read_only=False``); any number of
readers open it with ``read_only=True`` and never block the writer. Records become visible only
when their batch commits in SQLite; a reader searches the committed vectors (an exact in-memory
snapshot, reloaded when the committed generation has changed, at most every
``snapshot_refresh_seconds``) and the last complete BM25 generation, so it never sees a
half-written batch. Records are always read from SQLite, so a hit is dropped if its record is
not (or no longer) committed.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import threading
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relatex.retrieval.embedding import Embedder, HashingEmbedder
from relatex.retrieval.hybrid import fuse
from relatex.retrieval.index_lock import KnowledgeBaseBusy, WriterLock
from relatex.retrieval.indexing import (
    IndexProgress,
    IndexSummary,
    SearchHit,
    as_cancel_check,
    index_items,
)
from relatex.retrieval.kb_consistency import reconcile_vectors
from relatex.retrieval.kb_lookups import RecordLookups
from relatex.retrieval.lexical import LexicalIndex
from relatex.retrieval.record_store import RecordStore
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.sources.base import LimitedSource, RecordSource, SourceItem
from relatex.retrieval.text_vectors import TextVectorCache
from relatex.retrieval.vector_store import EdgeVectorStore, ExactVectorIndex, VectorStore

log = logging.getLogger(__name__)

__all__ = [
    "IndexProgress",
    "IndexSummary",
    "KnowledgeBase",
    "KnowledgeBaseBusy",
    "SearchHit",
]

SEARCH_MODES = ("hybrid", "dense", "bm25")


def default_embedder_for(model_id: str | None) -> Embedder:
    """The embedder a knowledge base was built with, from its stored model id."""
    if model_id and model_id.startswith("hashing-") and model_id.removeprefix("hashing-").isdigit():
        return HashingEmbedder(int(model_id.removeprefix("hashing-")))
    from relatex.retrieval.embedding import DEFAULT_EMBEDDING_MODEL, FastEmbedEmbedder

    return FastEmbedEmbedder(model_id or DEFAULT_EMBEDDING_MODEL)


class KnowledgeBase(RecordLookups):
    """Open with :meth:`open`; use as a context manager or call :meth:`close`."""

    def __init__(
        self,
        data_dir: Path,
        records: RecordStore,
        embedder: Embedder | None,
        store: VectorStore | None,
        read_only: bool,
        lock: WriterLock | None,
    ) -> None:
        self.data_dir = data_dir
        self.read_only = read_only
        self._records = records
        self._embedder = embedder
        self._store = store
        self._lock = lock
        self._mutex = threading.RLock()
        self._lexical: LexicalIndex | None = None
        self._lexical_gen: int | None = None
        self._snapshot: ExactVectorIndex | None = None
        self._snapshot_gen: int | None = None
        self._query_cache: dict[str, np.ndarray] = {}
        self._text_vectors: TextVectorCache | None = None
        self._cancelled = False
        self._snapshot_at = 0.0
        # a reader reloads the committed vectors at most this often while a writer is busy
        self.snapshot_refresh_seconds = 5.0
        # convex combination, dense weight 0.5: on ACM-CR's development half it ties the best weight
        # (0.639 vs 0.641 for 0.6) and beats RRF (0.638) and 0.3/0.4/0.7 (bench/fusion_split.py);
        # a choice replaces the default only when it wins on dev by more than a point
        self.fusion = "convex"
        self.fusion_alpha = 0.5
        self.candidates = 100
        self.batch_size = 256

    # -- opening and closing --------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        data_dir: Path,
        embedder: Embedder | None = None,
        store: VectorStore | None = None,
        read_only: bool = False,
    ) -> KnowledgeBase:
        """Open (or, for writers, create) the knowledge base in ``data_dir``.

        Writers take the writer lock (:class:`KnowledgeBaseBusy` if another process holds it) and
        reconcile the vector store with the committed records (repairing an interrupted batch).
        The embedder defaults to the one the knowledge base was built with (loaded lazily);
        a different model raises ValueError. The store defaults to a Qdrant Edge shard.
        """
        data_dir = Path(data_dir).expanduser()
        lock: WriterLock | None = None
        if not read_only:
            lock = WriterLock(data_dir)
            lock.acquire()
        try:
            records = RecordStore(data_dir / "records.sqlite", read_only=read_only)
        except BaseException:
            if lock:
                lock.release()
            raise
        try:
            built_with = records.get_meta("embedder")
            built_dim = records.get_meta("dim")
            if embedder is not None and built_with is not None:
                if embedder.model_id != built_with or str(embedder.dim) != built_dim:
                    raise ValueError(
                        f"the knowledge base at {data_dir} was built with the embedding model {built_with!r} "
                        f"(dim {built_dim}), not {embedder.model_id!r} (dim {embedder.dim}); use the same "
                        "model or index into a new knowledge base (--kb-name)"
                    )
            if not read_only:
                if embedder is None:
                    embedder = default_embedder_for(built_with)
                if built_with is None:
                    with records.transaction():
                        records.set_meta("embedder", embedder.model_id)
                        records.set_meta("dim", str(embedder.dim))
                if store is None:
                    store = EdgeVectorStore(data_dir / "vectors", embedder.dim)
            kb = cls(data_dir, records, embedder, store, read_only, lock)
            if not read_only:
                kb.reconcile()
        except BaseException:
            records.close()
            if store is not None:
                store.close()
            if lock:
                lock.release()
            raise
        return kb

    def close(self) -> None:
        with self._mutex:
            if self._store is not None:
                try:
                    # after a cancelled run BM25 stays as it was (fast Ctrl-C); the next run rebuilds it
                    if not self.read_only and not self._cancelled and self._records.get_meta("lexical_dirty") == "1":
                        self.rebuild_lexical()
                    self._store.close()
                finally:
                    self._store = None
            self._records.close()
            if self._text_vectors is not None:
                self._text_vectors.close()
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- embedder ---------------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        """The model the vectors were built with; its name is read under the mutex, so that a close
        from another thread never frees the connection mid-read (a segmentation fault)."""
        if self._embedder is None:
            with self._mutex:
                if self._embedder is None:
                    self._embedder = default_embedder_for(self._records.get_meta("embedder"))
        return self._embedder

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of texts by the knowledge base's embedder; repeats come from ``text-vectors.sqlite``."""
        with self._mutex:  # the model is loaded only when some text is not cached yet
            if self._text_vectors is None:
                meta = self._records.get_meta("embedder"), self._records.get_meta("dim")
                self._text_vectors = TextVectorCache.beside(self.data_dir, *meta, built_with=lambda: self.embedder)
        return self._text_vectors.embed_with(list(texts), lambda missing: self.embedder.embed(missing))

    # -- consistency ------------------------------------------------------------------------------
    def _require_writer(self) -> None:
        if self.read_only:
            raise PermissionError(f"the knowledge base at {self.data_dir} was opened read-only")

    def reconcile(self, batch: int = 1000) -> tuple[int, int]:
        """Make the vector store hold exactly the committed records: delete vectors of uncommitted
        records and re-upsert committed vectors missing from the store. Returns (removed, restored)."""
        self._require_writer()
        assert self._store is not None
        removed, restored = reconcile_vectors(self._records, self._store, batch)
        if removed or restored:
            log.warning("knowledge base %s: repaired an interrupted batch (%d removed, %d restored)",
                        self.data_dir, removed, restored)
        return removed, restored

    # -- indexing ---------------------------------------------------------------------------------
    def index(
        self,
        source: RecordSource,
        progress: Callable[[IndexProgress], None] | None = None,
        cancel: threading.Event | Callable[[], bool] | None = None,
        total: int | None = None,
    ) -> IndexSummary:
        """Add or update every record of ``source``; on a complete run also remove the records the
        source no longer has (by the source's resolved path; never for a ``limited`` source). Resumable:
        unchanged records are skipped by hash."""
        self._require_writer()
        shown = None if progress is None else (
            lambda report: progress(dataclasses.replace(report, source=source.name)))
        with self._mutex:
            summary = index_items(
                self._records, self._store_or_fail(), self.embedder, source.items(), source.identity,
                skipped=source.skipped, batch_size=self.batch_size, progress=shown,
                cancel=as_cancel_check(cancel), total=total,
                remove_stale=not isinstance(source, LimitedSource), legacy_name=source.name,
            )
            summary.source = source.name  # reported by its short name; filed under its path
            self._cancelled = not summary.completed
            self._after_write(rebuild=summary.completed)
            return summary

    def add_records(self, records: Iterable[PaperRecord], source: str = "added") -> IndexSummary:
        """Add or update records (e.g. fetched online); never removes anything."""
        self._require_writer()
        items = (SourceItem(r.id, r, ()) for r in records)
        with self._mutex:
            summary = index_items(
                self._records, self._store_or_fail(), self.embedder, items, source,
                batch_size=self.batch_size, remove_stale=False,
            )
            self._after_write(rebuild=False)
            return summary

    def _store_or_fail(self) -> VectorStore:
        if self._store is None:
            raise RuntimeError("the knowledge base is closed")
        return self._store

    def _after_write(self, rebuild: bool) -> None:
        with self._records.transaction():
            self._records.set_meta("lexical_dirty", "1")
        if rebuild:
            self.rebuild_lexical()

    def rebuild_lexical(self, cancel: Callable[[], bool] | None = None) -> None:
        """Rebuild BM25 from the committed records into a new generation, then switch to it."""
        self._require_writer()
        with self._mutex:
            lexical = LexicalIndex.build(self._records.iter_texts(), cancel=cancel)
            generation = int(self._records.get_meta("lexical_generation") or 0) + 1
            root = self.data_dir / "lexical"
            lexical.save(root / f"gen-{generation}")
            with self._records.transaction():
                self._records.set_meta("lexical_generation", str(generation))
                self._records.set_meta("lexical_dirty", "0")
            for old in root.glob("gen-*"):
                if old.name != f"gen-{generation}" and not old.name.endswith(tuple(f".tmp{c}" for c in "0123456789")):
                    shutil.rmtree(old, ignore_errors=True)
            self._lexical, self._lexical_gen = lexical, generation

    def _lexical_index(self) -> LexicalIndex:
        generation = int(self._records.get_meta("lexical_generation") or 0)
        if not self.read_only and self._records.get_meta("lexical_dirty") == "1":
            self.rebuild_lexical()
            generation = int(self._records.get_meta("lexical_generation") or 0)
        if self._lexical is None or self._lexical_gen != generation:
            directory = self.data_dir / "lexical" / f"gen-{generation}"
            self._lexical = LexicalIndex.load(directory) if generation and directory.is_dir() else LexicalIndex([], None)
            self._lexical_gen = generation
        return self._lexical

    def _dense_index(self) -> VectorStore | ExactVectorIndex:
        if self._store is not None:
            return self._store
        generation = self._records.generation()
        stale = self._snapshot_gen != generation and time.monotonic() - self._snapshot_at >= self.snapshot_refresh_seconds
        if self._snapshot is None or stale:
            dim = int(self._records.get_meta("dim") or self.embedder.dim)
            snapshot = ExactVectorIndex(dim)
            with self._records.snapshot():
                generation = self._records.generation()
                for ids, matrix in self._records.iter_vectors():
                    snapshot.upsert(ids, matrix, [{} for _ in ids])
            snapshot.flush()
            self._snapshot, self._snapshot_gen = snapshot, generation
            self._snapshot_at = time.monotonic()
        return self._snapshot

    # -- search -----------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        k: int = 10,
        mode: str = "hybrid",
        exclude: Collection[str] = (),
        vector: np.ndarray | None = None,
    ) -> list[SearchHit]:
        """The k best records for a text query: "hybrid" (dense + BM25 fused), "dense" or "bm25".

        ``vector`` is the query's embedding when the caller already has it (a stored record's
        vector for a "more like this" search), saving a model call.
        """
        if mode not in SEARCH_MODES:
            raise ValueError(f"unknown search mode {mode!r} (one of {', '.join(SEARCH_MODES)})")
        if not query.strip() or k <= 0:
            return []
        exclude = set(exclude)
        with self._mutex:
            depth = max(self.candidates, k * 2) if mode == "hybrid" else k
            dense: list[tuple[str, float]] = []
            lexical: list[tuple[str, float]] = []
            if mode in ("hybrid", "dense"):
                if vector is None:
                    vector = self._query_vector(query)
                dense = [(h.record_id, h.score) for h in self._dense_index().search(vector, depth, exclude)]
            if mode in ("hybrid", "bm25"):
                lexical = self._lexical_index().search(query, depth, exclude)
            ranked: list[tuple[str, float, int | None, int | None]]
            if mode == "dense":
                ranked = [(rid, s, i, None) for i, (rid, s) in enumerate(dense, 1)]
            elif mode == "bm25":
                ranked = [(rid, s, None, i) for i, (rid, s) in enumerate(lexical, 1)]
            else:
                fused = fuse(dense, lexical, self.fusion, self.fusion_alpha)
                ranked = [(h.record_id, h.score, h.dense_rank, h.lexical_rank) for h in fused]
            return self._materialise(ranked, k)

    def _query_vector(self, query: str) -> np.ndarray:
        """The query's vector; the last few hundred are cached (editors repeat queries)."""
        vector = self._query_cache.pop(query, None)
        if vector is None:
            vector = self.embed([query])[0]
        self._query_cache[query] = vector
        while len(self._query_cache) > 512:
            self._query_cache.pop(next(iter(self._query_cache)))
        return vector

    def search_vector(self, vector: np.ndarray, k: int = 10, exclude: Collection[str] = ()) -> list[SearchHit]:
        """Nearest records to a vector of the knowledge base's embedding space."""
        with self._mutex:
            hits = self._dense_index().search(np.asarray(vector, dtype=np.float32), k, set(exclude))
            return self._materialise([(h.record_id, h.score, i, None) for i, h in enumerate(hits, 1)], k)

    def _materialise(self, ranked: Sequence[tuple[str, float, int | None, int | None]], k: int) -> list[SearchHit]:
        records = self._records.get_many(rid for rid, *_ in ranked[: k * 2 + 10])
        hits: list[SearchHit] = []
        for rid, score, dense_rank, lexical_rank in ranked:
            record = records.get(rid)
            if record is None:  # vector of a batch not committed yet: invisible
                continue
            hits.append(SearchHit(record, score, dense_rank, lexical_rank))
            if len(hits) == k:
                break
        return hits

    def stats(self) -> dict[str, Any]:
        with self._mutex:
            return {
                "records": self._records.count(),
                "sources": self._records.sources(),
                "embedder": self._records.get_meta("embedder"),
                "dim": self._records.get_meta("dim"),
                "lexical_generation": self._records.get_meta("lexical_generation"),
                "vectors": self._store.count() if self._store is not None else None,
                "runs": self._records.last_runs(5),
            }
