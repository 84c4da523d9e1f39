"""Abbreviation-aware sentence splitting."""

from __future__ import annotations

import pytest

from relatex.analysis.sentences import split_sentences


def _split(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        ("Smith et al. showed it. Then we did.", ["Smith et al. showed it.", "Then we did."]),
        ("Smith et al. Showed it.", ["Smith et al. Showed it."]),
        ("Use tools, e.g. hammers, i.e. nails. Next.", ["Use tools, e.g. hammers, i.e. nails.", "Next."]),
        ("See Fig. 3 and Sec. 2. Also Eq. 4.", ["See Fig. 3 and Sec. 2.", "Also Eq. 4."]),
        ("Apples, pears, etc. are fruit. Yes.", ["Apples, pears, etc. are fruit.", "Yes."]),
        ("We list apples etc. Then pears.", ["We list apples etc.", "Then pears."]),
        ("Dr. Who met J. Smith. They talked.", ["Dr. Who met J. Smith.", "They talked."]),
        ("Accuracy rose to 3.5 points. Good.", ["Accuracy rose to 3.5 points.", "Good."]),
        ("This vs. that, cf. prior work. Done.", ["This vs. that, cf. prior work.", "Done."]),
        (r"As shown~\cite{a}. Next \citet{b} said.", [r"As shown~\cite{a}.", r"Next \citet{b} said."]),
        ("Et al.~\\cite{x} works. Fine.", ["Et al.~\\cite{x} works.", "Fine."]),
        ("The U.S. economy grew. Really.", ["The U.S. economy grew.", "Really."]),
        ("He said \"stop.\" Then left.", ["He said \"stop.\"", "Then left."]),
        ("(See the appendix.) Next one.", ["(See the appendix.)", "Next one."]),
        ("Para one\n\nPara two", ["Para one", "Para two"]),
        ("", []),
        ("   \n ", []),
        ("No terminal punctuation", ["No terminal punctuation"]),
        ("Two parts: i. The encoder and ii. The decoder. Next.", ["Two parts: i. The encoder and ii. The decoder.",
                                                                  "Next."]),
        ("Steps: 1. Parse the text, 2. Rank it. Done.", ["Steps: 1. Parse the text, 2. Rank it.", "Done."]),
        ("It came to 12. Then it stopped.", ["It came to 12.", "Then it stopped."]),
        ("Data from the U.S. Census Bureau. We use it.", ["Data from the U.S. Census Bureau.", "We use it."]),
        ("They moved to the U.S. The move was hard.", ["They moved to the U.S.", "The move was hard."]),
        ("A mobile app. Leveraging it helps.", ["A mobile app.", "Leveraging it helps."]),
        ("Use GreenSpyder to U.S. data, e.g. Fig. 2 shows it. Fine.",
         ["Use GreenSpyder to U.S. data, e.g. Fig. 2 shows it.", "Fine."]),
    ],
)
def test_split_sentences(text: str, sentences: list[str]) -> None:
    assert _split(text) == sentences


def test_ranges_are_ordered_trimmed_and_within_bounds() -> None:
    text = "  First one.   Second one.  \n\n  Third. "
    ranges = split_sentences(text)
    assert ranges == [(2, 12), (15, 26), (32, 38)]
    sub = split_sentences(text, 15, 26)
    assert sub == [(15, 26)]
    assert split_sentences(text, 100, 200) == []
