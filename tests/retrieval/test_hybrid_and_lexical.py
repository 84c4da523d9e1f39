"""Fusion of rankings, and the BM25 index (tokenisation, persistence, exclusion)."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.retrieval.hybrid import convex_combination, fuse, reciprocal_rank_fusion
from relatex.retrieval.lexical import LexicalIndex, tokenize


def test_rrf_rewards_agreement_and_keeps_ranks() -> None:
    dense = [("a", 0.9), ("b", 0.8), ("c", 0.7)]
    lexical = [("c", 12.0), ("a", 10.0), ("d", 3.0)]
    fused = reciprocal_rank_fusion(dense, lexical, k=60)
    assert [h.record_id for h in fused] == ["a", "c", "b", "d"]
    top = fused[0]
    assert (top.dense_rank, top.lexical_rank) == (1, 2)
    assert top.score == pytest.approx(1 / 61 + 1 / 62)
    assert fused[-1].dense_rank is None and fused[-1].lexical_rank == 3


def test_convex_combination_normalises_scores() -> None:
    dense = [("a", 0.9), ("b", 0.5)]
    lexical = [("b", 30.0), ("c", 10.0)]
    fused = convex_combination(dense, lexical, alpha=0.5)
    scores = {h.record_id: h.score for h in fused}
    assert scores == {"a": pytest.approx(0.5), "b": pytest.approx(0.5), "c": pytest.approx(0.0)}
    assert [h.record_id for h in convex_combination(dense, lexical, alpha=0.9)][0] == "a"
    assert [h.record_id for h in convex_combination(dense, lexical, alpha=0.1)][0] == "b"
    with pytest.raises(ValueError):
        fuse(dense, lexical, method="borda")


def test_tokenize_stems_and_drops_stop_words() -> None:
    text = "The Retrieval of retrieved documents, using BM25!"
    assert tokenize(text) == ["retriev", "retriev", "document", "use", "bm25"]
    # version 1 (indexes built before version 2) dropped writing words such as "using" too
    assert tokenize(text, version=1) == ["retriev", "retriev", "document", "bm25"]


def test_an_index_keeps_the_tokenizer_it_was_built_with(tmp_path: Path) -> None:
    import json

    index = LexicalIndex.build([("d1", "a study using Okapi weighting"), ("d2", "dense encoders")])
    index.save(tmp_path / "gen")
    assert json.loads((tmp_path / "gen" / "tokenizer.json").read_text()) == {"stemmer": "snowball", "version": 2}
    (tmp_path / "gen" / "tokenizer.json").write_text(json.dumps({"stemmer": "snowball"}))  # written by version 1
    old = LexicalIndex.load(tmp_path / "gen")
    assert old.version == 1 and old.search("okapi weighting", k=1)[0][0] == "d1"


def test_bm25_index_search_save_load(tmp_path: Path) -> None:
    docs = [
        ("d1", "Okapi BM25 probabilistic term weighting for ad hoc retrieval"),
        ("d2", "Dense passage retrieval with dual encoders"),
        ("d3", "Citation recommendation from manuscript contexts"),
    ]
    index = LexicalIndex.build(docs)
    assert index.search("term weighting BM25", k=2)[0][0] == "d1"
    assert index.search("retrieval", k=5, exclude={"d1"})[0][0] == "d2"
    assert index.search("zebra", k=3) == []
    index.save(tmp_path / "gen-1")
    loaded = LexicalIndex.load(tmp_path / "gen-1")
    assert loaded.search("citation contexts", k=1)[0][0] == "d3" and "d2" in loaded and len(loaded) == 3
    assert LexicalIndex.build([]).search("x", 3) == []


def test_best_gives_the_scores_of_search_on_a_small_index(tmp_path: Path) -> None:
    words = "dense sparse retrieval ranking neural click model graph citation summary query user".split()
    docs = [(f"d{i}", " ".join(words[(i * 7 + j * 3) % len(words)] for j in range(3 + i % 5))) for i in range(60)]
    index = LexicalIndex.build(docs)
    for query in ("dense retrieval of citations", "click model for users", "graph summary graph", "nothing here"):
        fast, slow = index.best(query, 10), index.search(query, 10)
        assert [round(score, 4) for _, score in fast] == [round(score, 4) for _, score in slow]
        assert {rid for rid, _ in fast} - {rid for rid, _ in slow} <= {rid for rid, s in fast if s == fast[-1][1]}
        assert all(score > 0 for _, score in fast)
    index.save(tmp_path / "saved")  # loaded from disk: the same postings
    loaded = LexicalIndex.load(tmp_path / "saved")
    assert loaded.best("dense retrieval", 5) == index.best("dense retrieval", 5)
    assert LexicalIndex.build([]).best("x", 3) == []
