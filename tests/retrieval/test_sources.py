"""Loaders: each format, malformed lines counted and skipped, identifiers and aliases."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from relatex.retrieval.sources import open_source
from relatex.retrieval.sources.arxiv_source import ArxivSnapshotSource
from relatex.retrieval.sources.bibtex_source import BibSource, acl_id_from_url
from relatex.retrieval.sources.openalex_source import OpenAlexWorksSource, rebuild_abstract
from relatex.retrieval.sources.s2_source import SemanticScholarSource

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "retrieval"


def _by_id(source):  # type: ignore[no-untyped-def]
    return {item.record.id: item for item in source.items()}


def test_bibtex_entries_become_records_with_bibtex_fields_kept() -> None:
    source = open_source(FIXTURES / "library.bib")
    assert isinstance(source, BibSource)
    items = _by_id(source)
    bleu = items["doi:10.3115/1073083.1073135"]
    assert bleu.record.title == "BLEU: A Method for Automatic Evaluation of Machine Translation"
    assert bleu.record.authors[0] == "Papineni, Kishore"
    assert bleu.record.year == 2002
    assert bleu.record.venue and "Association for Computational Linguistics" in bleu.record.venue
    assert bleu.record.abstract and bleu.record.abstract.startswith("Human evaluations")
    assert bleu.record.bibtex_key == "papineniBLEUMethodAutomatic2002"
    assert bleu.record.bibtex_type == "inproceedings"
    assert bleu.record.bibtex_fields["pages"] == "311--318"
    assert "acl:P02-1040" in bleu.aliases
    attention = items["arxiv:1706.03762"]
    assert attention.record.arxiv_id == "1706.03762"
    assert "Łukasz" in " ".join(attention.record.authors) or "Kaiser" in " ".join(attention.record.authors)
    okapi = items["library:robertsonOkapiTREC31995"]
    assert okapi.record.doi is None and okapi.record.year == 1995


def test_bibtex_bad_entries_are_counted_not_fatal() -> None:
    source = open_source(FIXTURES / "library.bib")
    records = list(source)
    assert source.skipped["missing title"] == 1
    assert sum(source.skipped.values()) >= 2  # the untitled entry and the unclosed one
    assert any(r.title.startswith("Reciprocal Rank Fusion") for r in records)


def test_bib_directory_and_gzip(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    shutil.copy(FIXTURES / "library.bib", tmp_path / "a.bib")
    with gzip.open(tmp_path / "sub" / "b.bib.gz", "wt", encoding="utf-8") as handle:
        handle.write("@article{x1, title={Gzip Entry About Retrieval}, author={Doe, Jane}, year={2001}}\n")
    (tmp_path / "notes.txt").write_text("not bibtex")
    source = open_source(tmp_path)
    titles = {r.title for r in source}
    assert "Gzip Entry About Retrieval" in titles and "Attention Is All You Need" in titles
    assert source.name == tmp_path.name


def test_acl_ids_from_anthology_urls() -> None:
    assert acl_id_from_url("https://aclanthology.org/P02-1040") == "P02-1040"
    assert acl_id_from_url("https://aclanthology.org/2020.acl-main.1/") == "2020.acl-main.1"
    assert acl_id_from_url("https://www.aclweb.org/anthology/N19-1423.pdf") == "N19-1423"
    assert acl_id_from_url("https://doi.org/10.3115/1073083.1073135") is None


def test_arxiv_snapshot_lines() -> None:
    source = open_source(FIXTURES / "arxiv.jsonl")
    assert isinstance(source, ArxivSnapshotSource)
    items = _by_id(source)
    bert = items["arxiv:1810.04805"].record
    assert bert.title == "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    assert bert.authors == ("Devlin, Jacob", "Chang, Ming-Wei", "Lee, Kenton", "Toutanova, Kristina")
    assert bert.year == 2018 and bert.venue == "arXiv"
    old = items["doi:10.1023/a:1026654312961"].record  # DOI wins the id; arXiv id kept
    assert old.arxiv_id == "hep-th/9711200" and old.year == 1997
    assert old.venue == "Adv.Theor.Math.Phys.2:231-252,1998"
    assert source.skipped == {"malformed JSON line": 1, "missing title": 1, "JSON line is not an object": 1}


def test_openalex_works_rebuild_abstracts_and_keep_references() -> None:
    source = open_source(FIXTURES / "openalex.jsonl")
    assert isinstance(source, OpenAlexWorksSource)
    items = _by_id(source)
    bert = items["doi:10.18653/v1/n19-1423"]
    assert bert.record.abstract == (
        "We introduce a new language representation model called BERT, which stands for Bidirectional "
        "Encoder Representations from Transformers."
    )
    assert bert.record.references == ("openalex:W2626778328", "openalex:W2964121744", "openalex:W1614298861")
    assert bert.record.citation_count == 62113
    assert bert.record.venue == "Proceedings of the 2019 Conference of the North"
    assert bert.aliases == ("openalex:W2963403868",)
    assert items["arxiv:1706.03762"].record.arxiv_id == "1706.03762"  # from the arXiv location
    lstm = items["doi:10.1162/neco.1997.9.8.1735"].record
    assert lstm.abstract and lstm.abstract.startswith("Learning to store information over extended time intervals")
    assert source.skipped == {"missing title": 1, "malformed JSON line": 1, "missing OpenAlex id": 1}


def test_rebuild_abstract_handles_repeated_words_and_garbage() -> None:
    assert rebuild_abstract({"a": [0, 2], "b": [1]}) == "a b a"
    assert rebuild_abstract(None) is None
    assert rebuild_abstract({"x": "nope"}) is None


def test_semantic_scholar_papers() -> None:
    source = open_source(FIXTURES / "s2.jsonl")
    assert isinstance(source, SemanticScholarSource)
    items = _by_id(source)
    bleu = items["acl:P02-1040"]
    assert "acl:P02-1040" in bleu.aliases and "s2:d7da009f457917aa381619facfa5ffae9329a6e9" in bleu.aliases
    assert bleu.record.references == ("acl:H94-1019", "s2:0b44fcbeea9415d400c5f5789d6b892b6f98daff")
    assert bleu.record.url == "https://aclanthology.org/P02-1040"
    assert bleu.record.citation_count == 24211
    attention = items["arxiv:1706.03762"].record
    assert attention.references == ("doi:10.1162/neco.1997.9.8.1735",)
    assert source.skipped == {"missing paperId": 1, "missing title": 1, "malformed JSON line": 1}


def test_detection_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        open_source(tmp_path / "missing.bib")
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"foo": 1}\n')
    with pytest.raises(ValueError, match="not recognised"):
        open_source(odd)
    with pytest.raises(ValueError, match="unsupported"):
        open_source(Path(__file__))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no .bib"):
        open_source(tmp_path / "empty")


def test_gzipped_json_lines_and_forced_kind(tmp_path: Path) -> None:
    target = tmp_path / "papers.jsonl.gz"
    with gzip.open(target, "wb") as handle:
        handle.write((FIXTURES / "s2.jsonl").read_bytes())
    assert len(list(open_source(target))) == 3
    assert open_source(target, kind="s2").estimate_total() == 6


def test_limited_source_stops_early_and_shares_counts() -> None:
    source = open_source(FIXTURES / "arxiv.jsonl")
    head = source.limited(2)
    assert [r.arxiv_id for r in head] == ["1706.03762", "1810.04805"]
    assert head.estimate_total() == 2 and head.name == source.name
    assert list(open_source(FIXTURES / "arxiv.jsonl").limited(0)) == []


def test_record_text_decodes_html_entities() -> None:
    from relatex.retrieval.sources.base import clean_text

    assert clean_text("on the &quot;old&quot; and the& quot;new& quot; data, R&amp;D") == \
        'on the "old" and the"new" data, R&D'
    assert clean_text("AT&T  labs") == "AT&T labs"


def test_front_matter_is_not_a_paper() -> None:
    from relatex.retrieval.records import PaperRecord, is_front_matter

    for title in ("Front Matter", "Table of Contents", "3rd EKM Workshop Chairs' Welcome & Organization",
                  "Proceedings of the 2010 Workshop on Graph-based Methods", "Message from the General Chair"):
        assert is_front_matter(PaperRecord(id="x", title=title)), title
    for title in ("Contents-based Image Retrieval", "Dense Passage Retrieval", "Welcome to the Jungle of Ranking"):
        assert not is_front_matter(PaperRecord(id="x", title=title)), title
