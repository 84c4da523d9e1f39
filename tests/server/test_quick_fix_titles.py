"""Quick-fix titles quote paper titles shortened at a word boundary, never mid-word."""

from __future__ import annotations

from relatex.server.features.quick_fixes import short_title

BERT = "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"


def test_long_title_is_cut_at_a_word_boundary() -> None:
    short = short_title(BERT, 70)
    assert short == "BERT: Pre-training of Deep Bidirectional Transformers for Language…"
    assert len(short) <= 71 and BERT.startswith(short[:-1])


def test_short_title_is_kept_and_whitespace_normalised() -> None:
    assert short_title("Dense  Passage\nRetrieval", 70) == "Dense Passage Retrieval"


def test_trailing_punctuation_is_dropped_and_a_single_word_is_cut() -> None:
    assert short_title("Attention Is All You Need: Transformers, Again", 31) == "Attention Is All You Need…"
    assert short_title("x" * 80, 10) == "x" * 10 + "…"
