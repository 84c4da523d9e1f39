"""Words that text extracted from a PDF broke, and which a sentence must not repeat.

Abstracts taken from PDFs glue words together at line ends ("toenhance", "theperformance") and
lose the start of a word with its line ("onstrained", "matranslation" for "machine translation").
A word is broken when the shipped term statistics (document frequencies over scholarly abstracts)
do not know it but do know its end, and what comes before that end is a function word or a
fragment of two or three letters that is not a prefix ("un-", "re-", "sub-"). Known words glued
into a compound ("phrasetable", "sensetagged") are left alone: real compounds are written that way
too. Rare real words can be taken for broken ones (about one abstract in 5,000 of the ACL
Anthology); the sentence is then said another way, never with the word changed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from relatex.analysis.claims.claim_words import STOPWORDS, stem
from relatex.analysis.claims.term_statistics import default_term_statistics

_FUNCTION_HEADS = frozenset({"to", "of", "on", "and", "the", "for", "with", "by", "from", "into", "that",
                             "this", "are", "we", "its"})
# word beginnings of two or three letters that are not fragments: prefixes and short words
_PREFIXES = frozenset("""is as at an or be in it if do go no so us me my he ad am id up ab ob un re co de
    bi tri di en em ex im ir il mo out mid pro neo geo bio eco ego uni sub pre non dis mis all any one two
    pan syn sym per com con col cor ant hem hom iso oxy epi exo mal""".split())
_LONG_WORD = re.compile(r"(?<![\w\-'\\])[a-z]{7,}(?![\w\-'])")


@lru_cache(maxsize=65536)
def _known(word: str) -> bool:
    return word in STOPWORDS or default_term_statistics().df.get(stem(word), 0) > 0


@lru_cache(maxsize=16384)
def is_broken(word: str) -> bool:
    """Whether a lower-case word of seven letters or more reads as broken by text extraction."""
    if not default_term_statistics().df or _known(word):
        return False  # without statistics nothing is known, so nothing is judged
    for i in range(2, len(word) - 4):
        head, tail = word[:i], word[i:]
        if len(stem(tail)) < 5 or not _known(tail):
            continue
        fragment = len(head) <= 3 and head not in _PREFIXES and not (len(head) == 3 and _known(head))
        if head in _FUNCTION_HEADS or fragment:
            return True
    return False


def broken_word(text: str) -> str:
    """The first broken word of ``text`` ("" when there is none)."""
    return next((w for w in _LONG_WORD.findall(text) if is_broken(w)), "")
