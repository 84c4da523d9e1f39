"""A persistent cache of the knowledge base embedder's vectors for texts that are not records:
abstract sentences the claim judge reads, claims, queries.

Stored beside the knowledge base as ``text-vectors.sqlite``; keyed by a hash of the embedding
model and the text, so another model never sees these vectors. A second run over the same draft
(``relatex generate`` again, the editor restarted) embeds nothing it has embedded before. The
cache is an optimisation only: when the file cannot be opened, read or written (read-only
folder, disk full, a damaged file) it logs once and the caller embeds as if it were empty.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from relatex.retrieval.embedding import Embedder

log = logging.getLogger(__name__)

FILE_NAME = "text-vectors.sqlite"
MAX_ROWS = 300_000  # about 460 MB of 384-d vectors at most; the oldest rows go first
_SCHEMA = "CREATE TABLE IF NOT EXISTS text_vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)"


class TextVectorCache:
    """Vectors of texts by ``(model_id, text)``, in SQLite at ``path``. Thread-safe."""

    def __init__(self, path: Path, model_id: str, dim: int, max_rows: int = MAX_ROWS) -> None:
        self.path = path
        self.model_id = model_id
        self.dim = dim
        self.max_rows = max_rows
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._broken = False
        self._writes = 0

    @classmethod
    def beside(cls, data_dir: Path, model_id: str | None, dim: str | None,
               built_with: Callable[[], Embedder]) -> TextVectorCache:
        """The cache of the knowledge base in ``data_dir``, for the model its metadata names
        (``built_with`` gives the embedder, loaded only when the metadata has no model yet)."""
        if model_id and dim and dim.isdigit():
            return cls(data_dir / FILE_NAME, model_id, int(dim))
        embedder = built_with()
        return cls(data_dir / FILE_NAME, embedder.model_id, embedder.dim)

    def _connection(self) -> sqlite3.Connection | None:
        if self._conn is None and not self._broken:
            try:
                conn = sqlite3.connect(self.path, timeout=5, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(_SCHEMA)
                self._conn = conn
            except sqlite3.Error as exc:
                self._give_up(exc)
        return self._conn

    def _give_up(self, exc: Exception) -> None:
        log.warning("text vector cache %s unusable (%s); embedding without it", self.path, exc)
        self._broken = True
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _key(self, text: str) -> bytes:
        return hashlib.sha256(f"{self.model_id}\0{text}".encode()).digest()[:16]

    def get_many(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors of ``texts`` (those absent are left out)."""
        keys = {self._key(t): t for t in dict.fromkeys(texts)}
        out: dict[str, np.ndarray] = {}
        with self._lock:
            conn = self._connection()
            if conn is None or not keys:
                return out
            try:
                items = list(keys)
                for start in range(0, len(items), 500):
                    chunk = items[start:start + 500]
                    marks = ",".join("?" * len(chunk))
                    rows = conn.execute(f"SELECT key, vector FROM text_vectors WHERE key IN ({marks})", chunk)
                    for key, blob in rows:
                        vector = np.frombuffer(blob, dtype=np.float32)
                        if vector.shape == (self.dim,):
                            out[keys[bytes(key)]] = vector
            except sqlite3.Error as exc:
                self._give_up(exc)
                return {}
        return out

    def put_many(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Remember ``vectors`` (one row per text); the oldest rows go beyond ``max_rows``."""
        rows = [(self._key(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in zip(texts, vectors, strict=True)]
        with self._lock:
            conn = self._connection()
            if conn is None or not rows:
                return
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("INSERT OR REPLACE INTO text_vectors(key, vector) VALUES (?, ?)", rows)
                conn.execute("COMMIT")
                self._writes += len(rows)
                if self._writes >= 1000:
                    self._writes = 0
                    self._prune(conn)
            except sqlite3.Error as exc:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                self._give_up(exc)

    def _prune(self, conn: sqlite3.Connection) -> None:
        (count,) = conn.execute("SELECT COUNT(*) FROM text_vectors").fetchone()
        excess = count - self.max_rows
        if excess > 0:
            conn.execute("DELETE FROM text_vectors WHERE rowid IN "
                         "(SELECT rowid FROM text_vectors ORDER BY rowid LIMIT ?)", (excess,))

    def embed_with(self, texts: Sequence[str], embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """Vectors of ``texts``: cached ones read, the others embedded by ``embed`` and stored."""
        texts = list(texts)
        known = self.get_many(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            vectors = np.asarray(embed(missing), dtype=np.float32)
            known.update(zip(missing, vectors, strict=True))
            self.put_many(missing, vectors)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([known[t] for t in texts])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
