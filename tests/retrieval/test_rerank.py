"""Reranking hybrid hits with the citation model: order, stored vectors, fallback to the hybrid order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from relatex.retrieval.indexing import SearchHit
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.rerank import citation_reranker, rerank_hits, search_reranked


def record(rid: str) -> PaperRecord:
    return PaperRecord(id=rid, title=f"Paper {rid}", abstract=f"About {rid}.")


class FakeKb:
    """Stored vectors for some records; the rest are embedded on demand (and counted)."""

    def __init__(self, stored: dict[str, np.ndarray], embedded: dict[str, np.ndarray]) -> None:
        self.stored = stored
        self.embedded = embedded
        self.embed_calls: list[list[str]] = []
        self.embedder = type("E", (), {"model_id": "hashing-4"})()

    def vectors(self, ids: Iterable[str]) -> dict[str, np.ndarray]:
        return {i: self.stored[i] for i in ids if i in self.stored}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embed_calls.append(list(texts))
        return np.vstack([self.embedded[t.split(".")[0].removeprefix("Paper ")] for t in texts])

    def search(self, query: str, k: int, mode: str, exclude: set[str]) -> list[SearchHit]:
        ids = [i for i in ("a", "b", "c") if i not in exclude][:k]
        return [SearchHit(record(i), 1.0 / (n + 1), n + 1, None) for n, i in enumerate(ids)]


class FakeReranker:
    """Scores = the first component of each document vector."""

    def scores(self, text: str, document_vectors: np.ndarray) -> np.ndarray:
        return np.asarray(document_vectors)[:, 0]


def test_hits_are_reordered_by_fusing_the_hybrid_and_model_orders() -> None:
    kb = FakeKb({"a": np.array([0.1, 0, 0, 0]), "b": np.array([0.9, 0, 0, 0])}, {"c": np.array([0.5, 0, 0, 0])})
    hits = kb.search("q", 3, "hybrid", set())
    ranked = rerank_hits(kb, "q", hits, FakeReranker(), 3)  # type: ignore[arg-type]
    # hybrid order a, b, c; model order b, c, a: b (2nd + 1st) before a (1st + 3rd) before c (3rd + 2nd)
    assert [h.record.id for h in ranked] == ["b", "a", "c"]
    assert ranked[0].score == round(1 / 62 + 1 / 61, 6) and ranked[0].dense_rank == 2
    assert kb.embed_calls == [["Paper c. About c."]]  # only the record without a stored vector
    assert rerank_hits(kb, "q", [], FakeReranker(), 3) == []  # type: ignore[arg-type]


def test_without_a_reranker_the_hybrid_order_stays() -> None:
    kb = FakeKb({}, {})
    assert [h.record.id for h in search_reranked(kb, "q", 2, None, exclude=["a"])] == ["b", "c"]


def test_a_knowledge_base_of_another_embedder_gets_no_reranker() -> None:
    assert citation_reranker(FakeKb({}, {})) is None
