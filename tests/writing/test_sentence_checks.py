"""Garbled sentences are recognised: no main verb, a dangling ending, unbalanced quotes."""

from __future__ import annotations

import pytest

from relatex.writing.sentence_checks import garbled_reason, phrase_complete, sentences_garbled, well_formed


@pytest.mark.parametrize("sentence", [
    r"\citet{a} employ GreenSpyder to U.",
    r"The model has two key components, i.",
    r"\citet{a} propose a simple yet \u2026 similarity measure.",
    r"\citet{a} propose a method for the.",
    r"Also relevant is ``Dense Retrieval \citep{a}.",
    r"A large dataset of news articles \citep{a}.",
    r"\citet{a} propose the task of automatically writing.",
    r"One example is a new dataset built \citep{a}.",
])
def test_garbled_sentences_are_rejected(sentence: str) -> None:
    assert garbled_reason(sentence.replace(r"\u2026", "\u2026")), sentence


@pytest.mark.parametrize("sentence", [
    r"\citet{a} propose a sparse retrieval model for long documents.",
    r"Dense passage retrieval is the subject of \citet{a}.",
    r"Other work on query expansion includes~\citep{a,b,c}.",
    r"Their experiments show that distillation improves recall.",
    r"Unlike these works on retrieval, our system checks every citation.",
])
def test_whole_sentences_pass(sentence: str) -> None:
    assert well_formed(sentence), garbled_reason(sentence)


def test_a_section_is_checked_sentence_by_sentence() -> None:
    text = "% a comment line.\n\n" + r"\citet{a} propose a parser. \citet{b} employ GreenSpyder to U."
    assert [reason for _, reason in sentences_garbled(text)] == ["ends on 'U'"]


def test_a_relative_clause_cut_before_its_verb_is_garbled() -> None:
    assert garbled_reason("Our work draws on it: a checker flags citations whose cited paper.")
    assert well_formed("Our work draws on it: a checker flags citations whose paper shows otherwise.")


@pytest.mark.parametrize("phrase", ["a new framework", "the information", "the first set of methods",
                                    "an approach to tackle the problem by dealing", "the processes which were developed",
                                    "the predictive performance of these baseline models"])
def test_vague_cut_or_anaphoric_phrases_are_not_said(phrase: str) -> None:
    assert not phrase_complete(phrase)


def test_specific_phrases_are_said() -> None:
    assert phrase_complete("a cluster ranking approach based on Markov random fields")
    assert phrase_complete("a dual-sparse topic model")
