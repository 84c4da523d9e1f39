"""Repairing a knowledge base after an interrupted batch: the vector store holds exactly the committed records."""

from __future__ import annotations

import numpy as np

from relatex.retrieval.indexing import payload_of
from relatex.retrieval.record_store import RecordStore
from relatex.retrieval.vector_store import VectorStore


def reconcile_vectors(records: RecordStore, store: VectorStore, batch: int = 1000) -> tuple[int, int]:
    """Delete vectors of uncommitted records and re-upsert committed vectors missing from the
    store (or noted as pending by an interrupted writer). Returns (removed, restored)."""
    pending = records.get_meta("pending_ids")
    if pending is None and store.count() == records.count():
        return 0, 0
    committed = records.all_ids()
    in_store = set(store.ids())
    extra = sorted(in_store - committed)
    missing = committed - in_store
    if pending:
        missing |= set(pending.split("\n")) & committed
    for start in range(0, len(extra), batch):
        store.delete(extra[start:start + batch])
    todo = sorted(missing)
    for start in range(0, len(todo), batch):
        chunk = todo[start:start + batch]
        vectors = records.vectors(chunk)
        recs = records.get_many(chunk)
        ids = [rid for rid in chunk if rid in vectors and rid in recs]
        if ids:
            store.upsert(ids, np.vstack([vectors[i] for i in ids]), [payload_of(recs[i]) for i in ids])
    store.flush()
    with records.transaction():
        records.conn.execute("DELETE FROM meta WHERE key='pending_ids'")
    return len(extra), len(todo)
