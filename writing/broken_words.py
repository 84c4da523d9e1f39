"""Words that text extracted from a PDF broke, and which a sentence must not repeat.

Abstracts taken from PDFs glue words together at line ends ("toenhance", "theperformance") and
lose the start of a word with its line ("onstrained", "matranslation" for "machine translation").
A function word glued after a plural ("methodsfor", "resultsof") is broken too, and words after
a hyphen are read like any other ("string-todependency", "part-ofspeech").
A word is broken when the shipped term statistics (document frequencies over scholarly abstracts)
do not know it but do know its end, and what comes before that end is a function word or a
fragment of two or three letters that is not a prefix ("un-", "re-", "sub-"), or a count
("twostage", "allsubtrees": a lost hyphen or space). Known words glued
into a compound ("phrasetable") are left alone: real compounds are written that way too; but not
before "-based", "-driven", "-specific", "-tagged" and the like, which are joined by a hyphen
("rulebased", "domainspecific", "sensetagged": the hyphen was lost with the line end; not after
"super-" or "multi-": "supertagged"). Rare real words can be
taken for broken ones (about one abstract in 5,000 of the ACL Anthology); the sentence is then said
another way, never with the word changed.

A word can also lose its end with its line and be glued to the next one ("a statistical
phrase-based translamodel" for "translation model"). Such a word is a fragment that the same
text writes only as the start of a longer word ending in "-tion" ("translation"), followed by a
common word ("model"); :func:`truncated_words` finds them in a title and abstract (7 words in
the 156,237 abstracts of the ACL Anthology, ScisummNet and ACM-CR, and one real word).

And a word can be split in two by a space ("a syntax-driven ap proach"): :func:`split_word` finds a
short piece that is no stop word before a piece that is rare on its own, or a rare piece before a
short end ("seman tic"), where the two joined make a word far more frequent than either (115 of the
156,237 abstracts of ACM-CR, the ACL Anthology and ScisummNet hold one, most of them such debris:
"sen tences", "lan guages", "fea tures", "tempo ral"; some are French, "de signes").
"""

from __future__ import annotations

import re
from functools import lru_cache

from relatex.analysis.claims.claim_words import STOPWORDS, stem
from relatex.analysis.claims.term_statistics import default_term_statistics

_FUNCTION_HEADS = frozenset({"to", "of", "on", "and", "the", "for", "with", "by", "from", "into", "that",
                             "this", "are", "we", "its"})
# a count or quantifier glued to its noun ("twostage", "threestep", "allsubtrees")
_COUNTS = frozenset({"one", "two", "three", "four", "five", "all", "both", "each", "any"})
# word beginnings of two or three letters that are not fragments: prefixes and short words
_PREFIXES = frozenset("""is as at an or be in it if do go no so us me my he ad am id up ab ob un re co de
    bi tri di en em ex im ir il mo out mid pro neo geo bio eco ego uni sub pre non dis mis
    pan syn sym per com con col cor ant hem hom iso oxy epi exo mal""".split())
_LONG_WORD = re.compile(r"(?<![\w'\\])[a-z]{7,}(?![\w\-'])")  # "string-todependency": after a hyphen too
_LOST_ENDS = frozenset({"tion", "tions", "ition", "itions"})  # what a line break took: "transla|tion"
_LOST_HYPHEN = re.compile(
    r"([a-z]{4,})(based|driven|inspired|oriented|aware|specific|annotated|labell?ed|tagged|grained)")
_COMPOUND_PREFIXES = frozenset("""multi inter intra semi meta macro micro pseudo over under hyper super self
    cross ultra extra counter anti auto""".split())
_SPLIT_PAIR = re.compile(r"(?<![\w\-'\\])([a-z]{1,3}) ([a-z]{4,})(?![\w\-'])")
_SPLIT_END = re.compile(r"(?<![\w\-'\\])([a-z]{4,}) ([a-z]{2,3})(?![\w\-'])")
_FUNCTION_TAILS = ("for", "of", "to", "the", "with", "from")  # not "and": "thousand"
_SUFFIX_WORDS = frozenset({"table", "tables", "ability", "abilities", "ableness", "mental", "mentally"})


@lru_cache(maxsize=65536)
def _known(word: str) -> bool:
    return word in STOPWORDS or default_term_statistics().df.get(stem(word), 0) > 0


@lru_cache(maxsize=16384)
def is_broken(word: str) -> bool:
    """Whether a lower-case word of seven letters or more reads as broken by text extraction."""
    if not default_term_statistics().df:
        return False  # without statistics nothing is known, so nothing is judged
    lost = _LOST_HYPHEN.fullmatch(word)  # "rulebased", "processinginspired": a compound's hyphen lost
    if lost and lost.group(1) not in _COMPOUND_PREFIXES and _known(lost.group(1)):
        return True
    glued = next((word[:-len(t)] for t in _FUNCTION_TAILS if word.endswith(t)), "")
    if len(glued) >= 4 and glued.endswith("s") and not glued.endswith("ss") and _known(glued[:-1]):
        return True  # "methodsfor", "resultsof": a function word glued to the plural before it
    if _known(word):
        return False
    for i in range(2, len(word) - 3):
        head, tail = word[:i], word[i:]
        if len(stem(tail)) < (4 if head in _COUNTS else 5) or not _known(tail):
            continue
        fragment = len(head) <= 3 and head not in _PREFIXES and not (len(head) == 3 and _known(head))
        if head in _FUNCTION_HEADS or head in _COUNTS or fragment:
            return True
    return False


def broken_word(text: str) -> str:
    """The first broken word of ``text`` ("" when there is none)."""
    words = _LONG_WORD.findall(text)
    truncated = truncated_words(text) if any(len(w) >= 11 for w in words) else frozenset()
    return next((w for w in words if is_broken(w) or w in truncated), "")


def truncated_words(text: str) -> frozenset[str]:
    """The words of ``text`` (a title and abstract) glued from the start of a longer word of the
    same text and a common word ("translamodel" beside "translation"), see the module's notes."""
    tokens = set(re.findall(r"[a-z]+", text.lower()))
    df = default_term_statistics().df
    found = set()
    for word in set(re.findall(r"(?<![\w\-'])[a-z]{11,}(?![\w\-'])", text)):
        for i in range(6, len(word) - 4):
            head, tail = word[:i], word[i:]
            if head in tokens or tail in _SUFFIX_WORDS or df.get(stem(tail), 0) < 300 or len(stem(tail)) < 4:
                continue
            if any(t.startswith(head) and t[i:] in _LOST_ENDS for t in tokens):
                found.add(word)
                break
    return frozenset(found)


def split_word(text: str) -> str:
    """The first word of ``text`` that a space splits in two ("ap proach"), see the module's notes
    ("" when there is none)."""
    df = default_term_statistics().df
    for match in _SPLIT_PAIR.finditer(text):
        head, tail = match.groups()
        if head in STOPWORDS:
            continue
        joined = df.get(stem(head + tail), 0)
        alone = max(20 * df.get(stem(tail), 0), 5 * df.get(stem(head), 0), 100)
        if joined >= alone:
            return match.group(0)
    for match in _SPLIT_END.finditer(text):  # "seman tic": a rare start before a short end
        head, tail = match.groups()
        whole = stem(head + tail)
        if tail in STOPWORDS or head in STOPWORDS or len(whole) <= len(head):
            continue  # "corporations saw" and "further fed" stem to their first word: nothing was split
        joined = df.get(whole, 0)
        if joined >= max(20 * df.get(stem(head), 0), 5 * df.get(stem(tail), 0), 100):
            return match.group(0)
    return ""
