"""Abbreviation-aware sentence splitting over plain text or LaTeX source.

A sentence ends at ``.``, ``!`` or ``?`` (plus closing quotes/brackets/braces) followed by
whitespace, unless the word before the period is a known abbreviation ("et al.", "e.g.",
"Fig.", "Dr.", ...), a single initial ("J. Smith"), or the next word starts in lower case.
Decimals ("3.5") and ties ("Fig.~3", "et al.~\\cite") never split because no whitespace follows
the period. Blank lines always end a sentence.
"""

from __future__ import annotations

import re

ABBREVIATIONS: frozenset[str] = frozenset(
    {
        "al", "e.g", "i.e", "cf", "vs", "etc", "fig", "figs", "sec", "secs", "sect", "eq", "eqs",
        "tab", "tbl", "ref", "refs", "dr", "mr", "mrs", "ms", "prof", "no", "nos", "vol", "vols",
        "pp", "p", "ch", "chap", "approx", "resp", "ca", "viz", "st", "jr", "sr", "inc", "ltd",
        "co", "dept", "univ", "ed", "eds", "proc", "conf", "thm", "lem", "def", "cor", "prop",
        "appx", "alg", "algo", "ex", "e.v", "a.k.a", "w.r.t", "i.i.d", "u.s", "u.k",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "min", "max", "avg", "est", "incl", "excl", "fn", "n.b", "ibid", "op", "cit", "sq",
    }
)

# Abbreviations that never end a sentence even before a capitalised word.
_NEVER_FINAL: frozenset[str] = frozenset(
    {"al", "e.g", "i.e", "cf", "vs", "fig", "figs", "sec", "secs", "sect", "eq", "eqs", "tab",
     "tbl", "ref", "refs", "dr", "mr", "mrs", "ms", "prof", "no", "nos", "vol", "vols", "pp", "p",
     "ch", "chap", "approx", "resp", "viz", "st", "thm", "lem", "def", "cor", "prop",
     "appx", "alg", "algo", "ex", "w.r.t", "a.k.a", "n.b", "cit", "op", "sq", "incl", "excl"}
)

# after an abbreviation that may end a sentence ("etc.", "U.S."), only these words start a new one
SENTENCE_STARTERS: frozenset[str] = frozenset(
    {"the", "this", "these", "that", "those", "we", "our", "in", "it", "its", "they", "their", "a", "an",
     "however", "then", "finally", "moreover", "furthermore", "also", "to", "for", "although", "while", "thus",
     "therefore", "hence", "as", "on", "with", "by", "i", "he", "she", "there", "both", "each", "one", "most",
     "many", "some", "next", "first", "second", "third", "results", "experiments", "such", "here", "using",
     "yes", "no", "but", "and", "if", "when", "after", "before", "since", "because", "further", "additionally",
     "besides", "instead", "overall", "lastly", "specifically", "importantly", "unlike", "despite", "all"}
)
_ROMAN_ITEM = re.compile(r"(?:^|(?<=[\s(]))(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)$")
_NUMBER_ITEM = re.compile(r"(?:^|[:;,(]|\band|\bor)\s*\d{1,2}$")
_FOLLOWER_WORD = re.compile(r"[A-Za-z]+")
_TERMINAL_RE = re.compile(r"[.!?\u2026]+[)\]}\"'\u2019\u201d]*(?=\s|$)")
_PARAGRAPH_RE = re.compile(r"\n[ \t\r\x0b\x0c]*\n")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_OPENERS = "([{\"'`\u2018\u201c\\$"


def _is_abbreviation(text: str, period: int) -> tuple[bool, bool]:
    """(is an abbreviation, may still end a sentence) for the period at ``period``."""
    m = _WORD_BEFORE_RE.search(text, max(0, period - 12), period)
    if m is None:
        return False, True
    word = m.group(1).rstrip(".").lower()
    if not word:
        return False, True
    # Single initials ("J. Smith") and dotted acronyms ("U.S.") are abbreviations.
    token = m.group(1)
    if len(token) == 1 and token.isupper():
        return True, False
    if _ROMAN_ITEM.search(text, max(0, m.start() - 1), period):  # a list item: "two parts: i. the ..."
        return True, False
    if word in ABBREVIATIONS:
        return True, word not in _NEVER_FINAL
    if "." in word and all(len(part) <= 2 for part in word.split(".")):
        return True, True
    return False, True


def _starts_sentence(text: str, pos: int) -> bool:
    """Whether the word at ``pos`` is a capitalised word that commonly starts a sentence."""
    word = _FOLLOWER_WORD.match(text, pos)
    return bool(word and text[pos].isupper() and word.group(0).lower() in SENTENCE_STARTERS)


def _next_visible(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _split_block(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    sentence_start = _next_visible(text, start, end)
    if sentence_start >= end:
        return
    for m in _TERMINAL_RE.finditer(text, sentence_start, end):
        stop = m.end()
        if stop > end:
            break
        nxt = _next_visible(text, stop, end)
        if nxt >= end:
            break
        follower = text[nxt]
        if text[m.start()] == ".":
            if _NUMBER_ITEM.search(text[max(sentence_start, m.start() - 12):m.start()]):
                continue  # a numbered list item: "in three steps: 1. Parse ..."
            abbreviation, may_end = _is_abbreviation(text, m.start())
            if abbreviation and (not may_end or not _starts_sentence(text, nxt)):
                continue
        if follower.isalpha() and not follower.isupper():
            continue
        if not (follower.isalnum() or follower in _OPENERS):
            continue
        if m.start() < sentence_start:
            continue
        out.append((sentence_start, stop))
        sentence_start = nxt
    stop = end
    while stop > sentence_start and text[stop - 1].isspace():
        stop -= 1
    if stop > sentence_start:
        out.append((sentence_start, stop))


def split_sentences(text: str, start: int = 0, end: int | None = None, *,
                    paragraph_breaks: bool = True) -> list[tuple[int, int]]:
    """Sentence ranges ``[(start, end), ...]`` of ``text[start:end]``, whitespace trimmed.

    Ranges are offsets into ``text``, in order, non-overlapping, never empty.
    """
    stop = len(text) if end is None else max(0, min(end, len(text)))
    begin = max(0, min(start, stop))
    out: list[tuple[int, int]] = []
    if paragraph_breaks:
        block_start = begin
        for m in _PARAGRAPH_RE.finditer(text, begin, stop):
            _split_block(text, block_start, m.start(), out)
            block_start = m.end()
        _split_block(text, block_start, stop, out)
    else:
        _split_block(text, begin, stop, out)
    return out
