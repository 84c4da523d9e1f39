"""Other ways to say a contribution phrase: capitals that only spell an acronym in lower case,
and without a generic modifier.

"an end-to-end Deep learning framework for Rating Elicitation (DRE)": the capitals of "Deep",
"Rating" and "Elicitation" are there to spell "DRE"; they are plain words ("a deep learning
framework for rating elicitation"). An expansion holding a name stays as it is written ("Hidden
Markov Model", "Penn Treebank").
"""

from __future__ import annotations

import re

from relatex.retrieval.label_forms import NAME_SPELLINGS

__all__ = ["lowered_expansions", "name_first", "without_generic_modifier"]

_ACRONYM = re.compile(r"\(([A-Za-z0-9\-]{2,12})\)")
_TITLE_CASED = re.compile(r"[A-Z][a-z]+(?:-[A-Za-z][a-z]*)*")


def _spelled(words: list[str], letters: list[str]) -> set[int] | None:
    """The positions of the title-cased words just before an acronym whose initials (hyphenated
    parts each) spell its capitals, last to first, within 10 words; None where they do not."""
    marked: set[int] = set()
    for i in range(len(words) - 1, max(-1, len(words) - 11), -1):
        word = words[i]
        if not letters:
            break
        if not _TITLE_CASED.fullmatch(word):
            if any(c.isupper() for c in word):
                return None  # an acronym or a name inside: not a plain expansion
            continue  # "learning", "for": words the acronym skips
        matched = False
        for part in reversed(word.split("-")):
            if letters and part[:1].upper() == letters[-1]:
                letters.pop()
                matched = True
        if not matched:
            return None  # a capitalised word the acronym does not spell: a name, or no expansion
        marked.add(i)
    if letters or any(words[i].lower() in NAME_SPELLINGS for i in marked):
        return None  # "Penn Treebank", "Hidden Markov Model": a name is written as its authors write it
    return marked


def lowered_expansions(phrase: str, acronyms: tuple[str, ...] = ()) -> str:
    """The phrase with each acronym's expansion in lower case, names as they are: an acronym in
    parentheses, or one of ``acronyms`` (the abstract's, left out of the phrase) whose expansion
    the phrase ends a run of words with ("Deep learning framework for Rating Elicitation", DRE)."""
    words = phrase.split()
    marked: set[int] = set()
    for i, word in enumerate(words):
        match = _ACRONYM.fullmatch(word.rstrip(",;."))
        letters = [c for c in match.group(1) if c.isupper()] if match else []
        if len(letters) >= 2:
            marked |= _spelled(words[:i], letters) or set()
    for acronym in acronyms:
        letters = [c for c in acronym if c.isupper()]
        ends = [i for i, w in enumerate(words) if _TITLE_CASED.fullmatch(w) and w[0] == letters[-1]] \
            if len(letters) >= 2 and f"({acronym})" not in phrase else []
        for end in reversed(ends):
            spelled = _spelled(words[:end + 1], list(letters))
            if spelled:
                marked |= spelled
                break
    return " ".join(w.lower() if i in marked else w for i, w in enumerate(words))


# modifiers that say how a thing is built or how big, not what it is ("an end-to-end ... framework");
# not "state-of-the-art": "a state-of-the-art baseline system" is a strong system, not a baseline
_GENERIC = ("end-to-end", "large-scale", "real-time", "fine-grained", "general-purpose",
            "easy-to-use", "high-quality", "well-known", "open-source", "simple", "efficient", "effective",
            "unified", "principled", "generic", "flexible", "lightweight", "scalable", "robust")
_LEADING_GENERIC = re.compile(r"(?P<article>an?|the)\s+(?:(?:novel|new)\s+)?(?:" +
                              "|".join(map(re.escape, _GENERIC)) +
                              r")\s+(?!(?:yet|and|but|or)\s)(?P<rest>(?-i:[a-z]))", re.I)


def without_generic_modifier(phrase: str) -> str:
    """The phrase without a generic modifier after its article ("a deep learning framework for
    rating elicitation" from "an end-to-end deep learning framework ..."); the phrase where it has none."""
    match = _LEADING_GENERIC.match(phrase)
    if not match:
        return phrase
    article = match.group("article")
    rest = phrase[match.start("rest"):]
    if article.lower() in {"a", "an"}:
        vowel = bool(re.match(r"[aei]|o(?!ne)|u(?!ni|se|sa|su|ti)", rest))
        article = ("An" if vowel else "A") if article[0].isupper() else ("an" if vowel else "a")
    return without_generic_modifier(f"{article} {rest}")  # "a scalable end-to-end tree boosting system"


_CALLED = re.compile(r"(?P<kind>(?:a|an)\s+[^,]+?)\s+(?:called|named|dubbed|termed)\s+"
                     r"(?P<name>[A-Z][\w-]*)(?P<rest>.*)")


def name_first(phrase: str) -> str:
    """"a neural learning-to-rank model called SetRank" said name first, "SetRank, a neural
    learning-to-rank model": the same claim, which breaks a run copied from the abstract; "" when
    the phrase names nothing so."""
    match = _CALLED.fullmatch(phrase.strip())
    if not match or match.group("rest").strip():
        return ""
    return f"{match.group('name')}, {match.group('kind')}"
