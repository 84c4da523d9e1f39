"""Building the knowledge base and its embedder from settings (used by the CLI and the server)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from relatex.config.settings import Settings
from relatex.retrieval.embedding import Embedder, FastEmbedEmbedder, HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.vector_store import QdrantServerStore, VectorStore
from relatex.workflows.kb_status import missing_message

HASHING_PREFIX = "hashing-"


def make_embedder(settings: Settings) -> Embedder:
    """The embedder named by ``knowledge_base.embedding_model``.

    ``hashing-<dim>`` selects the model-free :class:`HashingEmbedder` (tests, or machines
    without the model); any other name is a fastembed model (the default one ships offline).
    """
    name = settings.knowledge_base.embedding_model.strip()
    if name.startswith(HASHING_PREFIX) and name.removeprefix(HASHING_PREFIX).isdigit():
        return HashingEmbedder(int(name.removeprefix(HASHING_PREFIX)))
    return FastEmbedEmbedder(name)


def stored_embedding_model(data_dir: Path) -> tuple[str, int] | None:
    """(model id, dim) a knowledge base was built with; None if there is none yet."""
    path = data_dir / "records.sqlite"
    if not path.exists():
        return None
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        rows = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('embedder', 'dim')").fetchall())
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    if "embedder" not in rows or "dim" not in rows:
        return None
    return rows["embedder"], int(rows["dim"])


def make_vector_store(settings: Settings, dim: int) -> VectorStore | None:
    """A Qdrant server collection when ``knowledge_base.qdrant_url`` is set; None for the default
    embedded Qdrant Edge shard (created by the knowledge base itself)."""
    kb = settings.knowledge_base
    if not kb.qdrant_url:
        return None
    return QdrantServerStore.connect(kb.qdrant_url, f"relatex-{kb.name}", dim, api_key=kb.qdrant_api_key or None)


def open_knowledge_base(settings: Settings, read_only: bool = False) -> KnowledgeBase:
    """Open the knowledge base named by the settings (``data_dir``/``name``).

    The embedding model is loaded lazily when it is the one the knowledge base was built with;
    a different configured model raises ValueError (vectors of two models do not mix).
    Read-only opening of a knowledge base that does not exist raises FileNotFoundError.
    """
    data_dir = settings.knowledge_base.resolved_data_dir()
    stored = stored_embedding_model(data_dir)
    wanted = settings.knowledge_base.embedding_model.strip()
    if read_only and stored is None and not (data_dir / "records.sqlite").exists():
        raise FileNotFoundError(missing_message(settings))
    embedder: Embedder | None = None
    if stored is None or stored[0] != wanted:
        embedder = make_embedder(settings)
    dim = embedder.dim if embedder is not None else stored[1] if stored else 0
    store = make_vector_store(settings, dim)
    return KnowledgeBase.open(data_dir, embedder=embedder, store=store, read_only=read_only)
