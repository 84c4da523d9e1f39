"""What the cross-encoder reads of a long paper: the title and the abstract sentences nearest the claim."""

from __future__ import annotations

import json
from pathlib import Path

from relatex.analysis.claims.citation_model import read_model_card
from relatex.analysis.claims.paper_focus import content_stems, focus_paper_text

PAPER = ("Fast Dependency Parsing. "
         "We present a parser for dependency trees in many languages. "
         "Earlier parsers were slow because they searched every tree exhaustively. "
         "Our parser uses a beam of partial trees and a learned scoring function. "
         "It parses Czech and English at high speed with state-of-the-art accuracy.")


def test_a_paper_that_fits_is_read_whole() -> None:
    assert focus_paper_text("anything at all", PAPER, 200) == PAPER
    assert focus_paper_text("anything at all", PAPER, 0) == PAPER  # 0: focusing is off


def test_a_long_paper_keeps_its_title_and_the_sentences_the_claim_speaks_of_in_order() -> None:
    claim = "A beam of partial trees parses Czech and English at high speed."
    focused = focus_paper_text(claim, PAPER, 32)
    assert focused.startswith("Fast Dependency Parsing.")
    assert "beam of partial trees" in focused and "parses Czech" in focused
    assert focused.index("beam of partial trees") < focused.index("parses Czech")  # the abstract's order
    assert "exhaustively" not in focused and "many languages" not in focused and len(focused.split()) <= 32


def test_the_first_abstract_sentence_wins_a_tie() -> None:
    focused = focus_paper_text("Nothing in common here.", PAPER, 16)
    assert focused == "Fast Dependency Parsing. We present a parser for dependency trees in many languages."


def test_a_best_sentence_longer_than_the_budget_is_kept_for_the_tokenizer_to_cut() -> None:
    focused = focus_paper_text("Earlier parsers searched every tree exhaustively.", PAPER, 6)
    assert focused == "Fast Dependency Parsing. Earlier parsers were slow because they searched every tree exhaustively."


def test_a_paper_of_two_sentences_is_never_cut() -> None:
    text = "Title Here. " + "word " * 80
    assert focus_paper_text("word", text, 10) == text


def test_content_stems_leave_out_stop_words_and_fold_endings() -> None:
    assert content_stems("We propose parsers for the trees") == content_stems("parser trees")


def test_the_card_names_the_focus_length_and_an_older_card_reads_whole_papers(tmp_path: Path) -> None:
    assert read_model_card().cross_focus_words >= 0
    card = tmp_path / "card.md"
    card.write_text("```json\n" + json.dumps({
        "version": "t", "document_embedder": "e", "calibration": {"intercept": 0.0, "slope": 1.0},
        "thresholds": {"warn_below": 0.1, "partial_below": 0.2}, "cross_encoder": {"max_tokens": 64}}) + "\n```\n")
    assert (read_model_card(card).cross_max_tokens, read_model_card(card).cross_focus_words) == (64, 0)
