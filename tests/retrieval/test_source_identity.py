"""Sources are told apart by their resolved path, and one DOI does not merge two different papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.retrieval.embedding import HashingEmbedder
from relatex.retrieval.indexing import titles_agree
from relatex.retrieval.knowledge_base import KnowledgeBase
from relatex.retrieval.sources import open_source


def _entry(key: str, title: str, doi: str | None = None) -> str:
    doi_line = f"  doi = {{{doi}}},\n" if doi else ""
    return f"@article{{{key},\n  title = {{{title}}},\n  author = {{Doe, Jane}},\n  journal = {{J}},\n" \
           f"  year = {{2020}},\n{doi_line}}}\n\n"


def test_same_named_files_keep_their_own_records(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = tmp_path / "a" / "refs.bib", tmp_path / "b" / "refs.bib"
    a.write_text(_entry("alpha", "Graph neural networks for citation ranking")
                 + _entry("beta", "Sparse retrieval with learned term weights"), encoding="utf-8")
    b.write_text(_entry("gamma", "Summarising scientific papers with discourse structure")
                 + _entry("delta", "Contrastive pretraining of sentence encoders"), encoding="utf-8")
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(64)) as kb:
        kb.index(open_source(a))
        kb.index(open_source(b))
        assert len(kb) == 4  # indexing b/refs.bib did not remove a/refs.bib's records
        a.write_text(_entry("alpha", "Graph neural networks for citation ranking"), encoding="utf-8")
        kb.index(open_source(a))
        titles = sorted(hit.record.title for hit in kb.search("papers", k=10))
    assert titles == ["Contrastive pretraining of sentence encoders", "Graph neural networks for citation ranking",
                      "Summarising scientific papers with discourse structure"]


def test_same_named_files_sharing_a_key_keep_two_papers_apart(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = tmp_path / "a" / "refs.bib", tmp_path / "b" / "refs.bib"
    a.write_text(_entry("smith20", "Graph neural networks for citation ranking"), encoding="utf-8")
    summarising = _entry("smith20", "Summarising scientific papers with discourse structure")
    b.write_text(summarising, encoding="utf-8")
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(64)) as kb:
        kb.index(open_source(a))
        kb.index(open_source(b))
        assert len(kb) == 2  # one id, refs:smith20, for two different papers
        titles = {hit.record.title for hit in kb.search("papers", k=10)}
        assert titles == {"Graph neural networks for citation ranking",
                          "Summarising scientific papers with discourse structure"}
        # an entry whose title the author corrects stays the same record
        def graph_paper() -> str:
            hits = kb.search("graph neural networks", k=10)
            [found] = [h.record.id for h in hits if "Graph" in h.record.title]
            return found

        before = graph_paper()
        a.write_text(_entry("smith20", "Graph neural networks for ranking citations in context"),
                     encoding="utf-8")
        kb.index(open_source(a))
        assert len(kb) == 2 and graph_paper() == before
        b.write_text(summarising + _entry("jones21", "Contrastive pretraining of sentence encoders"),
                     encoding="utf-8")
        kb.index(open_source(b))  # a second run over b keeps its paper apart, and the same
        assert len(kb) == 3
        # the paper kept apart under an id of its own keeps it when its title is corrected too
        def summarising_paper() -> str:
            [found] = [h.record.id for h in kb.search("summarising scientific papers", k=10)
                       if "discourse" in h.record.title]
            return found

        apart = summarising_paper()
        assert apart != before and apart.startswith(before)
        b.write_text(_entry("smith20", "Summarising scientific papers with their discourse structure")
                     + _entry("jones21", "Contrastive pretraining of sentence encoders"), encoding="utf-8")
        kb.index(open_source(b))
        assert len(kb) == 3 and summarising_paper() == apart


def test_one_doi_merges_only_papers_whose_titles_agree(tmp_path: Path) -> None:
    bib = tmp_path / "acl.bib"
    bib.write_text(_entry("p1", "Neural machine translation of rare words", "10.18653/v1/P16-1162")
                   + _entry("p2", "A workshop overview of shared tasks in 2016", "10.18653/v1/P16-1162")
                   + _entry("p3", "Neural Machine Translation of Rare Words with Subword Units",
                            "10.18653/v1/P16-1162"), encoding="utf-8")
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(64)) as kb:
        kb.index(open_source(bib))
        assert len(kb) == 2
        titles = {hit.record.title for hit in kb.search("workshop overview shared tasks", k=5)}
        assert "A workshop overview of shared tasks in 2016" in titles
        kb.index(open_source(bib))  # a second run keeps the same two records
        assert len(kb) == 2


def test_title_agreement() -> None:
    assert titles_agree("BERT: Pre-training of deep bidirectional transformers",
                        "BERT: pre-training of deep bidirectional transformers for language understanding")
    assert titles_agree("", "anything")
    assert not titles_agree("Neural machine translation of rare words", "A workshop overview of shared tasks")


def test_a_knowledge_base_filed_by_name_is_carried_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from relatex.retrieval.sources.base import RecordSource

    bib = tmp_path / "refs.bib"
    bib.write_text(_entry("alpha", "Graph neural networks for citation ranking")
                   + _entry("beta", "Sparse retrieval with learned term weights"), encoding="utf-8")
    with KnowledgeBase.open(tmp_path / "kb", embedder=HashingEmbedder(64)) as kb:
        with monkeypatch.context() as patch:  # as older versions filed it: by the short name
            patch.setattr(RecordSource, "identity", property(lambda self: self.name))
            kb.index(open_source(bib))
        assert set(kb.stats()["sources"]) == {"refs"}
        bib.write_text(_entry("alpha", "Graph neural networks for citation ranking"), encoding="utf-8")
        kb.index(open_source(bib))
        assert len(kb) == 1  # beta left the file and the knowledge base
        assert set(kb.stats()["sources"]) == {str(bib.resolve())}
