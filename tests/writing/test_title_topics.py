"""A paper's title read as the subject of a sentence."""

from __future__ import annotations


def test_a_title_cut_short_in_its_record_names_no_subject() -> None:
    from relatex.writing.title_topics import title_subject

    assert title_subject("Mining Very-Non-Parallel Corpora: Parallel Sentence and Lexicon Extraction via "
                         "Bootstrapping and E") == ("", False)
    assert title_subject("Bias in Search and Recommender Systems") == ("bias in search and recommender systems", False)
