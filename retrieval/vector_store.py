"""Dense vector stores behind one interface: Qdrant Edge (embedded, default), a Qdrant server, and
an exact in-memory index (the consistent snapshot searched by read-only openers).

Qdrant wants integer or UUID point ids: a record id maps to ``uuid5(NAMESPACE_URL, "relatex:" + id)``
and the record id itself is kept in the payload (``rid``).
"""

from __future__ import annotations

import json
import logging
import uuid
import warnings
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)

PAYLOAD_FIELDS = ("rid", "title", "authors", "year", "venue", "doi", "arxiv_id")


def point_id(record_id: str) -> str:
    """The deterministic UUID of a record id (Qdrant point ids are ints or UUIDs)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "relatex:" + record_id))


@dataclass(frozen=True)
class VectorHit:
    """One nearest neighbour: the record id, its cosine similarity and stored payload."""

    record_id: str
    score: float
    payload: Mapping[str, Any]


@runtime_checkable
class VectorStore(Protocol):
    """Upsert, delete and search unit vectors keyed by record id."""

    dim: int

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, payloads: Sequence[Mapping[str, Any]]) -> None: ...

    def delete(self, ids: Sequence[str]) -> None: ...

    def search(self, vector: np.ndarray, k: int, exclude: Collection[str] = ()) -> list[VectorHit]: ...

    def ids(self) -> Iterator[str]: ...

    def count(self) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


class ExactVectorIndex:
    """Brute-force cosine search over an in-memory matrix (exact; ~10 ms per query at 100k x 384)."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._ids: list[str] = []
        self._pos: dict[str, int] = {}
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._payloads: list[Mapping[str, Any]] = []
        self._pending: list[tuple[str, np.ndarray, Mapping[str, Any]]] = []

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, payloads: Sequence[Mapping[str, Any]]) -> None:
        for rid, vector, payload in zip(ids, np.asarray(vectors, dtype=np.float32), payloads, strict=True):
            self._pending.append((rid, vector, payload))

    def _settle(self) -> None:
        if not self._pending:
            return
        new_rows: list[np.ndarray] = []
        for rid, vector, payload in self._pending:
            if rid in self._pos:
                self._matrix[self._pos[rid]] = vector
                self._payloads[self._pos[rid]] = payload
            else:
                self._pos[rid] = len(self._ids) + len(new_rows)
                self._ids.append(rid)
                self._payloads.append(payload)
                new_rows.append(vector)
        if new_rows:
            self._matrix = np.vstack([self._matrix, np.vstack(new_rows)])
        self._pending.clear()

    def delete(self, ids: Sequence[str]) -> None:
        self._settle()
        gone = {rid for rid in ids if rid in self._pos}
        if not gone:
            return
        keep = [i for i, rid in enumerate(self._ids) if rid not in gone]
        self._ids = [self._ids[i] for i in keep]
        self._payloads = [self._payloads[i] for i in keep]
        self._matrix = self._matrix[keep]
        self._pos = {rid: i for i, rid in enumerate(self._ids)}

    def search(self, vector: np.ndarray, k: int, exclude: Collection[str] = ()) -> list[VectorHit]:
        self._settle()
        if not self._ids or k <= 0:
            return []
        scores = self._matrix @ np.asarray(vector, dtype=np.float32).reshape(-1)
        want = min(len(scores), k + len(exclude))
        top = np.argpartition(-scores, want - 1)[:want]
        top = top[np.argsort(-scores[top], kind="stable")]
        hits: list[VectorHit] = []
        for i in top:
            rid = self._ids[int(i)]
            if rid in exclude:
                continue
            hits.append(VectorHit(rid, float(scores[i]), self._payloads[int(i)]))
            if len(hits) == k:
                break
        return hits

    def ids(self) -> Iterator[str]:
        self._settle()
        return iter(list(self._ids))

    def count(self) -> int:
        self._settle()
        return len(self._ids)

    def flush(self) -> None:
        self._settle()

    def close(self) -> None:
        self._pending.clear()


def _payload_rid(payload: Mapping[str, Any] | None) -> str | None:
    value = (payload or {}).get("rid")
    return value if isinstance(value, str) else None


def _scrolled_ids(scroll: Callable[[Any], tuple[Sequence[Any], Any]]) -> Iterator[str]:
    """Record ids of every point, page by page: ``scroll(offset)`` returns (points, next offset)."""
    offset: Any = None
    while True:
        records, offset = scroll(offset)
        for record in records:
            rid = _payload_rid(record.payload)
            if rid is not None:
                yield rid
        if offset is None:
            return


class EdgeVectorStore:
    """Qdrant Edge shard on disk with an HNSW index (cosine).

    A shard may be opened by one process at a time (Qdrant Edge locks its write-ahead log);
    the knowledge base opens it only in the writer process.
    """

    def __init__(
        self,
        path: Path,
        dim: int,
        hnsw_m: int = 16,
        ef_construct: int = 100,
        search_ef: int | None = 128,
        wal: bool = True,
    ) -> None:
        import qdrant_edge as qe

        self._qe = qe
        self.dim = dim
        self.path = path
        self.search_ef = search_ef
        config = qe.EdgeConfig(
            vectors=qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine),
            hnsw_config=qe.HnswIndexConfig(m=hnsw_m, ef_construct=ef_construct, full_scan_threshold=10000),
            wal_enabled=wal,
        )
        segments = path / "segments"
        try:
            if segments.is_dir() and any(segments.iterdir()):
                self._shard: Any = qe.EdgeShard.load(str(path))
            else:
                path.mkdir(parents=True, exist_ok=True)
                self._shard = qe.EdgeShard.create(str(path), config)
        except Exception as exc:
            raise RuntimeError(f"cannot open the vector index at {path}: {exc}") from exc
        stored = self._stored_dim()
        if stored is not None and stored != dim:
            self._shard.close()
            raise ValueError(f"the vector index at {path} holds {stored}-dimensional vectors, not {dim}")

    def _stored_dim(self) -> int | None:
        try:
            config = json.loads((self.path / "edge_config.json").read_text(encoding="utf-8"))
            return int(config["vectors"][""]["size"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, payloads: Sequence[Mapping[str, Any]]) -> None:
        if not ids:
            return
        qe = self._qe
        matrix = np.asarray(vectors, dtype=np.float32)
        points = [
            qe.Point(point_id(rid), row.tolist(), {**dict(payload), "rid": rid})
            for rid, row, payload in zip(ids, matrix, payloads, strict=True)
        ]
        self._shard.update(qe.UpdateOperation.upsert_points(points))

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._shard.update(self._qe.UpdateOperation.delete_points([point_id(rid) for rid in ids]))

    def search(self, vector: np.ndarray, k: int, exclude: Collection[str] = ()) -> list[VectorHit]:
        qe = self._qe
        if k <= 0:
            return []
        flt = qe.Filter(must_not=[qe.HasIdCondition({point_id(rid) for rid in exclude})]) if exclude else None
        params = qe.SearchParams(hnsw_ef=max(self.search_ef, k)) if self.search_ef else None
        request = qe.SearchRequest(
            query=qe.Query.Nearest(np.asarray(vector, dtype=np.float32).reshape(-1).tolist()),
            limit=k,
            filter=flt,
            params=params,
            with_payload=True,
        )
        hits = []
        for point in self._shard.search(request):
            rid = _payload_rid(point.payload)
            if rid is not None:
                hits.append(VectorHit(rid, float(point.score), point.payload or {}))
        return hits

    def ids(self) -> Iterator[str]:
        request = self._qe.ScrollRequest
        return _scrolled_ids(lambda offset: self._shard.scroll(
            request(offset=offset, limit=1000, with_payload=["rid"], with_vector=False)))

    def count(self) -> int:
        return int(self._shard.count(self._qe.CountRequest(exact=True)))

    def flush(self) -> None:
        self._shard.flush()

    def optimize(self) -> None:
        self._shard.optimize()

    def close(self) -> None:
        shard, self._shard = self._shard, None
        if shard is not None:
            shard.flush()
            shard.close()


class QdrantServerStore:
    """A collection on a Qdrant server or cluster (or ``QdrantClient(":memory:")`` in tests).

    Payload indexes on ``year`` and ``venue`` let other tools filter on the server.
    """

    def __init__(
        self,
        client: Any,
        collection: str,
        dim: int,
        search_ef: int | None = 128,
    ) -> None:
        from qdrant_client import models

        self._models = models
        self.client = client
        self.collection = collection
        self.dim = dim
        self.search_ef = search_ef
        if not client.collection_exists(collection):
            client.create_collection(
                collection,
                vectors_config=models.VectorParams(size=dim, distance=models.Distance.COSINE),
            )
            for name, schema in (("year", models.PayloadSchemaType.INTEGER),
                                 ("venue", models.PayloadSchemaType.KEYWORD),
                                 ("rid", models.PayloadSchemaType.KEYWORD)):
                try:
                    with warnings.catch_warnings():  # local mode warns that they have no effect
                        warnings.simplefilter("ignore")
                        client.create_payload_index(collection, name, field_schema=schema)
                except Exception as exc:  # some deployments refuse them
                    log.debug("payload index %s not created: %s", name, exc)
        else:
            info = client.get_collection(collection)
            vectors = info.config.params.vectors
            size = getattr(vectors, "size", None)
            if size is not None and size != dim:
                raise ValueError(f"Qdrant collection {collection!r} holds {size}-dimensional vectors, not {dim}")

    @classmethod
    def connect(cls, url: str, collection: str, dim: int, api_key: str | None = None) -> QdrantServerStore:
        from qdrant_client import QdrantClient

        client = QdrantClient(location=":memory:") if url == ":memory:" else QdrantClient(url=url, api_key=api_key or None)
        return cls(client, collection, dim)

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, payloads: Sequence[Mapping[str, Any]]) -> None:
        if not ids:
            return
        models = self._models
        matrix = np.asarray(vectors, dtype=np.float32)
        points = [
            models.PointStruct(id=point_id(rid), vector=row.tolist(), payload={**dict(payload), "rid": rid})
            for rid, row, payload in zip(ids, matrix, payloads, strict=True)
        ]
        self.client.upsert(self.collection, points=points, wait=True)

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self.client.delete(
                self.collection,
                points_selector=self._models.PointIdsList(points=[point_id(rid) for rid in ids]),
                wait=True,
            )

    def search(self, vector: np.ndarray, k: int, exclude: Collection[str] = ()) -> list[VectorHit]:
        models = self._models
        if k <= 0:
            return []
        flt = models.Filter(must_not=[models.HasIdCondition(has_id=[point_id(rid) for rid in exclude])]) if exclude else None
        with warnings.catch_warnings():  # local mode warns that search params have no effect
            warnings.simplefilter("ignore")
            response = self.client.query_points(
                self.collection,
                query=np.asarray(vector, dtype=np.float32).reshape(-1).tolist(),
                limit=k,
                query_filter=flt,
                search_params=models.SearchParams(hnsw_ef=max(self.search_ef, k)) if self.search_ef else None,
                with_payload=True,
            )
        hits = []
        for point in response.points:
            rid = _payload_rid(point.payload)
            if rid is not None:
                hits.append(VectorHit(rid, float(point.score), point.payload or {}))
        return hits

    def ids(self) -> Iterator[str]:
        return _scrolled_ids(lambda offset: self.client.scroll(
            self.collection, offset=offset, limit=1000, with_payload=["rid"], with_vectors=False))

    def count(self) -> int:
        return int(self.client.count(self.collection, exact=True).count)

    def flush(self) -> None:
        """Writes are synchronous (``wait=True``): nothing to flush."""

    def close(self) -> None:
        try:
            self.client.close()
        except Exception as exc:  # pragma: no cover - best effort
            log.debug("closing Qdrant client: %s", exc)
