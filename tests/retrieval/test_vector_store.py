"""Both vector-store back ends behave the same: Qdrant Edge on disk and qdrant-client ":memory:"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from relatex.retrieval.embedding import l2_normalise
from relatex.retrieval.vector_store import (
    EdgeVectorStore,
    ExactVectorIndex,
    QdrantServerStore,
    VectorStore,
    point_id,
)

DIM = 16


def _vectors(n: int, seed: int = 0) -> np.ndarray:
    return l2_normalise(np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32))


@pytest.fixture(params=["edge", "qdrant-memory", "exact"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorStore]:
    if request.param == "edge":
        made: VectorStore = EdgeVectorStore(tmp_path / "vectors", DIM)
    elif request.param == "qdrant-memory":
        made = QdrantServerStore.connect(":memory:", "relatex-test", DIM)
    else:
        made = ExactVectorIndex(DIM)
    yield made
    made.close()


def test_upsert_search_exclude_delete(store: VectorStore) -> None:
    ids = [f"doi:10.1/{i}" for i in range(40)]
    vectors = _vectors(40)
    payloads = [{"title": f"Paper {i}", "year": 2000 + i, "venue": "SIGIR"} for i in range(40)]
    store.upsert(ids, vectors, payloads)
    store.flush()
    assert store.count() == 40
    hits = store.search(vectors[7], k=5)
    assert hits[0].record_id == "doi:10.1/7" and hits[0].score == pytest.approx(1.0, abs=1e-4)
    assert hits[0].payload["title"] == "Paper 7"
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    excluded = store.search(vectors[7], k=5, exclude={"doi:10.1/7"})
    assert "doi:10.1/7" not in {h.record_id for h in excluded} and len(excluded) == 5
    # upsert of an existing id replaces it, no duplicate
    store.upsert(["doi:10.1/7"], vectors[8:9], [{"title": "Paper 7 v2"}])
    store.flush()
    assert store.count() == 40
    store.delete(["doi:10.1/1", "doi:10.1/2", "not-there"])
    store.flush()
    assert store.count() == 38
    assert set(store.ids()) == set(ids) - {"doi:10.1/1", "doi:10.1/2"}


def test_edge_store_persists_and_checks_dimension(tmp_path: Path) -> None:
    store = EdgeVectorStore(tmp_path / "v", DIM)
    store.upsert(["a", "b"], _vectors(2), [{}, {}])
    store.close()
    again = EdgeVectorStore(tmp_path / "v", DIM)
    assert again.count() == 2 and again.search(_vectors(2)[1], k=1)[0].record_id == "b"
    again.close()
    with pytest.raises(ValueError, match="16-dimensional"):
        EdgeVectorStore(tmp_path / "v", 32)


def test_point_ids_are_deterministic_uuids() -> None:
    assert point_id("doi:10.1/x") == point_id("doi:10.1/x") != point_id("doi:10.1/y")
    assert len(point_id("acl:P02-1040")) == 36
