"""The persistent cache of non-record text vectors beside a knowledge base."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.text_vectors import TextVectorCache

SENTENCES = ["We parse sentences with a maximum entropy model.", "Results improve on the Penn Treebank."]


def test_a_second_process_reads_vectors_instead_of_embedding(tmp_path: Path) -> None:
    first = HashingEmbedder(64)
    with KnowledgeBase.open(tmp_path / "kb", embedder=first) as kb:
        expected = kb.embed(SENTENCES)
    assert first.texts_embedded == 2
    second = HashingEmbedder(64)
    with KnowledgeBase.open(tmp_path / "kb", embedder=second) as kb:
        again = kb.embed([SENTENCES[1], "A sentence not seen before.", SENTENCES[0]])
    assert second.texts_embedded == 1  # only the new sentence
    np.testing.assert_allclose(again[0], expected[1])
    np.testing.assert_allclose(again[2], expected[0])
    np.testing.assert_allclose(again[1], HashingEmbedder(64).embed(["A sentence not seen before."])[0])


def test_vectors_of_another_model_are_never_served(tmp_path: Path) -> None:
    path = tmp_path / "text-vectors.sqlite"
    TextVectorCache(path, "model-a", 4).put_many(["x"], np.ones((1, 4), dtype=np.float32))
    assert TextVectorCache(path, "model-b", 4).get_many(["x"]) == {}
    assert TextVectorCache(path, "model-a", 8).get_many(["x"]) == {}  # wrong width: ignored
    assert list(TextVectorCache(path, "model-a", 4).get_many(["x"])) == ["x"]


def test_an_unusable_cache_file_only_costs_time(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "text-vectors.sqlite"
    blocked.mkdir()  # a folder where the file should be
    cache = TextVectorCache(blocked, "m", 64)
    embedder = HashingEmbedder(64)
    with caplog.at_level(logging.WARNING):
        vectors = cache.embed_with(SENTENCES, embedder.embed)
        cache.embed_with(SENTENCES, embedder.embed)
    assert vectors.shape == (2, 64)
    assert embedder.texts_embedded == 4
    assert sum("unusable" in r.message for r in caplog.records) == 1


def test_the_oldest_rows_go_beyond_the_limit(tmp_path: Path) -> None:
    cache = TextVectorCache(tmp_path / "c.sqlite", "m", 4, max_rows=1500)
    texts = [f"text {i}" for i in range(2500)]
    for start in range(0, 2500, 500):
        cache.put_many(texts[start:start + 500], np.random.default_rng(start).random((500, 4), dtype=np.float32))
    kept = cache.get_many(texts)
    assert len(kept) <= 2000 and "text 2499" in kept and "text 0" not in kept
