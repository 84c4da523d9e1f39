"""How much of a paper's title a phrase about it names: a phrase thinner than its title gives way
to the title, one that leaves most of the title out follows it."""

from __future__ import annotations

import re

from relatex.retrieval.communities import STOPWORDS
from relatex.writing.contributions import keeps_case
from relatex.writing.sentence_checks import KIND_HEADS, UNSPECIFIC

__all__ = ["leaves_out_title", "said_within", "thin_beside_title"]


# "two aspects of X": parts counted but never named
_COUNTED_PARTS = re.compile(r"\b(?:two|three|four|five|several|multiple)\s+(?:aspects|components|parts|issues|"
                            r"factors|dimensions|types|kinds|ways|challenges|questions|problems|steps|stages|"
                            r"properties|perspectives|levels|categories)\b", re.I)
# a definite phrase without a name, a number or a phrase saying which ("the reading protocol software",
# not in its title) says which only through the abstract's earlier sentences
_POINTS_BACK = re.compile(r"the(?:\s+(?!(?:first|second|third|last|best|largest|main|of|for|in|on|with|to|"
                          r"from|by|at|and|that|which)\b)[a-z][a-z-]*){1,4}")
# a phrase ending on a bare definite noun that only the abstract's earlier sentences say ("an evaluation of
# the architecture", "for estimating the probabilities"); "the web" and "the art" say which by themselves
_DEFINITE_END = re.compile(r"\b(?:(?:of|for|on|in|with|from|by|over)\s+(?:[a-z]+ing\s+)?|"
                           r"to\s+(?!the\b)[a-z]+\s+)the\s+(?P<noun>[a-z]+)$")  # "to perform the weighting"
_ONE_OF_A_KIND = frozenset({"web", "internet", "art", "world", "literature", "field", "past", "future",
                            "wild"})
# words that name no topic ("a new model named X", "the utility of X", "a technique making a prediction")
_TOPICLESS_WORDS = frozenset({"named", "called", "dubbed", "termed", "utility", "usefulness", "role", "use", "analysis",
                              "make", "makes", "making", "made"})


def _specific_stems(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]*", text)}
    return {w[:5] for w in words if len(w) > 2 and w not in STOPWORDS and w not in KIND_HEADS
            and w not in UNSPECIFIC and w not in _TOPICLESS_WORDS}


def thin_beside_title(phrase: str, title: str) -> bool:
    """A phrase that says less about a paper than its title: parts counted but not named ("two
    aspects of user intent prediction"), a definite phrase saying which only through the abstract
    ("the reading protocol software"), one ending on such a definite noun ("an evaluation of the
    architecture"), or, naming nothing, at most two specific words that leave
    out most of a title of five or more ("similarity matching" for "Personalized Purchase Prediction
    of Market Baskets with Wasserstein-Based Sequence Matching")."""
    if not phrase.strip() or not title.strip():
        return False
    if _COUNTED_PARTS.search(phrase):
        return True
    if _POINTS_BACK.fullmatch(phrase.strip()) and not said_within(phrase, title):
        return True
    end = _DEFINITE_END.search(phrase.strip())
    if end and end.group("noun") not in _ONE_OF_A_KIND and end.group("noun")[:5] not in {
            w[:5] for w in re.findall(r"[a-z]+", title.lower())}:
        return True
    first = next((w for w in phrase.split() if w.lower() not in {"a", "an", "the"}), "")
    if keeps_case(first):
        return False  # "DPRX", "LightGCN, a model": the paper's own name says what the title may not
    title_stems = _specific_stems(title)
    stems = _specific_stems(phrase)
    return len(title_stems) >= 5 and len(stems) <= 2 and len(stems & title_stems) < len(title_stems) / 2


def leaves_out_title(phrase: str, title: str) -> bool:
    """Whether a phrase names fewer than half of its title's specific words (of two or more)."""
    title_stems = _specific_stems(title)
    return len(title_stems) >= 2 and len(title_stems & _specific_stems(phrase)) * 2 < len(title_stems)


def said_within(phrase: str, text: str) -> bool:
    """Whether every specific word of a phrase is in a text ("PageRank" in "the PageRank citation ranking")."""
    return _specific_stems(phrase) <= _specific_stems(text)
