"""generate_related_work: keys, new entries, citation conventions and cancellation."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from relatex.retrieval.records import PaperRecord
from relatex.writing.generate import GenerationCancelled, WritingOptions, generate_related_work
from tests.writing.conftest import make_project, make_selection


def test_existing_keys_are_reused_and_new_entries_rendered(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, bibs = make_project(tmp_path)
    section = generate_related_work(project, bibs, make_selection(records))
    # BM25 matched by DOI, Sentence-BERT by title + first author: no new entries for them
    assert "robertson2009bm25" in section.cited_keys and "reimers2019sentence" in section.cited_keys
    new_keys = {e.key for e in section.new_entries}
    assert "robertson2009bm25" not in new_keys and "reimers2019sentence" not in new_keys
    assert len(section.new_entries) == len(records) - 2
    dpr = next(e for e in section.new_entries if e.record_id == "arxiv:2004.04906")
    assert dpr.key == "karpukhin2020dense"
    assert dpr.bibtex.startswith("@inproceedings{karpukhin2020dense,")
    assert "Karpukhin, Vladimir and Oguz, Barlas and Min, Sewon" in dpr.bibtex
    amp = next(e for e in section.new_entries if e.record_id == "arxiv:2304.01234")
    assert r"\&" in amp.bibtex and amp.bibtex.startswith("@misc{")


@pytest.mark.parametrize(("package", "textual", "parenthetical"), [
    ("natbib", r"\citet{", None),
    ("biblatex", r"\textcite{", None),
    ("none", r"~\cite{", None),
])
def test_citation_command_follows_the_draft(tmp_path: Path, records: list[PaperRecord], package: str,
                                            textual: str, parenthetical: str | None) -> None:
    project, bibs = make_project(tmp_path, package=package)
    text = generate_related_work(project, bibs, make_selection(records)).latex
    assert textual in text
    if package != "natbib":
        assert r"\citet" not in text and r"\citep" not in text
    if package == "none":
        assert r"Karpukhin et al.~\cite{karpukhin2020dense}" in text


def test_key_style_of_the_user_is_followed(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, bibs = make_project(tmp_path)
    section = generate_related_work(project, bibs, make_selection(records), options=WritingOptions(key_style="acl"))
    assert "karpukhin-etal-2020-dense" in section.cited_keys


def test_cancellation_and_empty_selection(tmp_path: Path, records: list[PaperRecord]) -> None:
    project, bibs = make_project(tmp_path)
    stop = threading.Event()
    stop.set()
    with pytest.raises(GenerationCancelled):
        generate_related_work(project, bibs, make_selection(records), cancel=stop)
    empty = make_selection([])
    with pytest.raises(ValueError, match="no papers"):
        generate_related_work(project, bibs, empty)
