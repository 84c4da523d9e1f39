"""Words broken by PDF text extraction are not repeated in a generated sentence."""

from __future__ import annotations

import pytest

from relatex.writing.broken_words import broken_word, is_broken
from relatex.writing.sentence_checks import garbled_reason


@pytest.mark.parametrize("word", ["matranslation", "toquestion", "theperformance", "wesuccessfully",
                                  "onstrained", "toenhance", "andinference", "guistic",
                                  "transitionbased", "rulebased", "domainspecific", "processinginspired",
                                  "sensetagged", "twostage", "allsubtrees", "threestep"])
def test_glued_and_cut_words_are_broken(word: str) -> None:
    assert is_broken(word)


@pytest.mark.parametrize("word", ["translation", "unsupervised", "reranking", "subword", "coreference",
                                  "phrasetable", "supertagged", "nonparametric", "preprocessing", "bilingual",
                                  "multilingual", "multilevel", "semisupervised", "interdependent",
                                  "selfsupervised", "autotagged", "untagged", "twofold", "oneself",
                                  "allocation", "anywhere"])
def test_real_words_prefixed_words_and_compounds_are_not(word: str) -> None:
    assert not is_broken(word)


def test_broken_word_finds_the_first_in_a_sentence_and_skips_commands_and_hyphenated_words() -> None:
    text = "a syntax-based statistical matranslation system for toquestion answering"
    assert broken_word(text) == "matranslation"
    assert broken_word("a well-known syntax-based parser") == ""
    assert broken_word("see \\toquestion{x}") == ""  # a LaTeX command is not a word of the prose


def test_a_sentence_with_a_broken_word_is_garbled() -> None:
    reason = garbled_reason("\\citet{ding2005machine} develop a statistical matranslation system.")
    assert "matranslation" in reason
    assert garbled_reason("\\citet{ding2005machine} develop a syntax-based statistical system.") == ""


def test_a_word_that_lost_its_end_and_was_glued_to_the_next_is_found_and_its_sentence_left() -> None:
    from relatex.writing.broken_words import truncated_words
    from relatex.writing.contribution_extract import extract

    title = "A Hierarchical Phrase-Based Model for Statistical Machine Translation"
    abstract = "We present a statistical phrase-based translamodel that uses phrases that contain subphrases."
    assert truncated_words(f"{title}. {abstract}") == {"translamodel"}
    assert "translamodel" not in extract(abstract, title).phrase
    assert broken_word("a phrase-based translamodel for statistical machine translation") == "translamodel"
    # real words built of a word's start and another word are not
    text = "Interpretability and predictable, interpretable models for interaction with translation models."
    assert truncated_words(text) == frozenset()
    assert truncated_words("A translation model. Our translationmodel is new.") == frozenset()  # whole word


def test_a_word_split_in_two_by_a_space_is_found_and_its_sentence_garbled() -> None:
    from relatex.writing.broken_words import split_word

    assert split_word("a syntax-driven ap proach to parsing") == "ap proach"
    assert split_word("the sen tences of a corpus") == "sen tences"
    assert split_word("a new approach to the information flow") == ""  # whole words
    assert split_word("we use a tree to parse") == ""  # a stop word and a word of its own
    assert "ap proach" in garbled_reason("\\citet{w} propose a syntax-driven ap proach.")


def test_a_word_split_before_its_short_end_is_found_but_not_two_words() -> None:
    from relatex.writing.broken_words import split_word

    assert split_word("whether seman tic role information is beneficial") == "seman tic"
    assert split_word("a tempo ral expression") == "tempo ral"
    assert split_word("the data set of web pages") == ""  # "dataset": both halves are words
    assert split_word("the findings were further fed into a model") == ""  # "further" is a stop word
    assert split_word("large corporations saw a drop") == ""  # the two stem to the first word alone


def test_a_function_word_glued_to_a_plural_or_a_word_after_a_hyphen_is_broken() -> None:
    from relatex.writing.broken_words import broken_word, is_broken

    assert is_broken("methodsfor") and is_broken("resultsof")
    assert broken_word("We introduce different methodsfor combining word alignments.") == "methodsfor"
    assert broken_word("A string-todependency algorithm for translation.") == "todependency"
    assert not is_broken("thousand") and not is_broken("understand") and not is_broken("thesaurus")
    assert broken_word("A state-of-the-art multi-document summarizer.") == ""
