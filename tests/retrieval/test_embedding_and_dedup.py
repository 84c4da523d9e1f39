"""Embedders (model-free hashing and the bundled offline model) and record merging."""

from __future__ import annotations

import numpy as np
import pytest

from relatex.retrieval.dedup import deduplicate, identity_keys, merge_records
from relatex.retrieval.embedding import Embedder, FastEmbedEmbedder, HashingEmbedder
from relatex.retrieval.records import PaperRecord


def test_hashing_embedder_is_deterministic_and_normalised() -> None:
    emb = HashingEmbedder(64)
    assert isinstance(emb, Embedder)
    a = emb.embed(["dense passage retrieval", "dense passage retrieval", "protein folding"])
    assert a.shape == (3, 64) and a.dtype == np.float32
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0)
    assert np.array_equal(a[0], a[1]) and float(a[0] @ a[2]) < 0.5
    assert np.array_equal(HashingEmbedder(64).embed(["x y"]), emb.embed(["x y"]))


def test_bundled_model_embeds_offline_and_groups_meanings() -> None:
    try:
        emb = FastEmbedEmbedder(threads=1)
    except Exception as exc:  # pragma: no cover - the model ships with the dependencies
        pytest.skip(f"bundled model unavailable: {exc}")
    assert emb.dim == 384 and emb.model_id == "relatex/all-MiniLM-L6-v2-int8"
    v = emb.embed(["neural networks for document ranking", "deep learning models rank web pages",
                   "a recipe for tomato soup"])
    assert v.shape == (3, 384) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.2
    # order of the batch does not change a vector (length sorting inside)
    w = emb.embed(["a recipe for tomato soup", "neural networks for document ranking"])
    assert np.allclose(w[1], v[0], atol=1e-4)


def _rec(**kw: object) -> PaperRecord:
    base: dict[str, object] = {"id": "x", "title": "A Study of Things", "authors": ("Doe, Jane",), "year": 2020}
    base.update(kw)
    return PaperRecord(**base)  # type: ignore[arg-type]


def test_identity_keys_in_strength_order() -> None:
    keys = identity_keys(_rec(doi="https://doi.org/10.1/ABC", arxiv_id="arXiv:2101.00001v2"))
    assert keys == ["doi:10.1/abc", "arxiv:2101.00001", "title:a study of things|doe|2020"]
    assert identity_keys(_rec(title="Short", authors=())) == []


def test_merge_keeps_richest_fields() -> None:
    a = _rec(id="doi:10.1/a", abstract="short", references=("r1",), source="bib", bibtex_key="doe2020",
             bibtex_type="article", bibtex_fields={"title": "A Study of Things"}, citation_count=3)
    b = _rec(id="s2:zz", abstract="a much longer abstract", authors=("Jane Doe", "John Roe"), references=("r2", "r1"),
             source="s2", venue="SIGIR", citation_count=10, doi="10.1/a")
    merged = merge_records([a, b], "doi:10.1/a")
    assert merged.id == "doi:10.1/a" and merged.abstract == "a much longer abstract"
    assert merged.references == ("r1", "r2") and merged.authors == ("Jane Doe", "John Roe")
    assert merged.citation_count == 10 and merged.venue == "SIGIR" and merged.bibtex_key == "doe2020"
    assert merged.source == "bib+s2"
    with pytest.raises(ValueError):
        merge_records([])


def test_deduplicate_in_memory() -> None:
    records = [
        _rec(id="doi:10.1/a", doi="10.1/a"),
        _rec(id="arxiv:2101.00001", arxiv_id="2101.00001", title="Other Paper Title Here"),
        _rec(id="s2:1", doi="10.1/A", abstract="longer"),
        _rec(id="bib:k", title="Other paper title here!", authors=("Doe, J.",), arxiv_id=None),
    ]
    out = deduplicate(records)
    assert [r.id for r in out] == ["doi:10.1/a", "arxiv:2101.00001"]
    assert out[0].abstract == "longer"


def test_one_version_of_each_work_keeps_the_more_cited_or_earlier_at_the_best_place() -> None:
    from dataclasses import dataclass, replace

    from relatex.retrieval.dedup import one_version_each, work_key

    @dataclass(frozen=True)
    class Ranked:
        id: str

    title = "Personalizing Search via Automated Analysis of Interests and Activities"
    records = {
        "x": PaperRecord(id="x", title="Another paper on search", authors=("Ann Lee",), year=2010),
        "reprint": PaperRecord(id="reprint", title=title, authors=("Jaime Teevan",), year=2018),
        "original": PaperRecord(id="original", title=title + ".", authors=("J. Teevan",), year=2005),
        "other": PaperRecord(id="other", title=title, authors=("Bob Smith",), year=2018),
    }
    assert work_key(records["reprint"]) == work_key(records["original"]) != work_key(records["other"])
    ranked = [Ranked(i) for i in ("x", "reprint", "other", "original")]
    kept = one_version_each(ranked, lambda c: records[c.id], {})
    assert [c.id for c in kept] == ["x", "original", "other"]  # the original, at the reprint's place
    records["reprint"] = replace(records["reprint"], citation_count=900)  # the more cited version
    assert [c.id for c in one_version_each(ranked, lambda c: records[c.id], {})] == ["x", "reprint", "other"]
    # the version more papers of the citation graph cite comes first (a journal version of an ACL paper)
    citing = {"original": 3, "reprint": 1}
    kept = one_version_each(ranked, lambda c: records[c.id], {}, citing)
    assert [c.id for c in kept] == ["x", "original", "other"]
    both = {"original": "teevan2005", "reprint": "teevan2018"}  # both versions cited by the draft: both stay
    assert [c.id for c in one_version_each(ranked, lambda c: records[c.id], both)] == \
        ["x", "reprint", "original", "other"]
