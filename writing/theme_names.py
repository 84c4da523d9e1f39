"""How a paragraph names its theme, and whether a paper's own text names it.

:func:`label_terms` cleans a theme's key phrases (no numbers, no "theme N", no dangling
conjunctions, none repeating another) and :func:`theme_label` joins them into the noun phrase a
paragraph names ("X, Y and Z"); :func:`fits_label` tells whether a title and abstract say a label's
words close together, and :func:`fitted_label` keeps the terms the papers say.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from relatex.analysis.claims.topic_claims import singular
from relatex.retrieval.label_forms import names_one_thing
from relatex.writing.plan import ThemeOutline


def join_terms(terms: Sequence[str]) -> str:
    """Label terms as a phrase ("X, Y and Z"), a named thing with its article ("the Penn Treebank")."""
    kept: list[str] = []
    for term in terms:  # "measure" and "measured" say the same thing
        if term and not any(term[:5].lower() == k[:5].lower() for k in kept):
            kept.append(term)
    terms = [f"the {t}" if names_one_thing(t) else t for t in kept]
    if not terms:
        return "this topic"
    if len(terms) == 1:
        return terms[0]
    return ", ".join(terms[:-1]) + " and " + terms[-1]



_LABEL_STOP_START = frozenset({"fine-tune", "fine-tuning", "use", "using", "train", "training", "learn", "improve",
                               "propose", "towards", "toward", "via", "based", "new", "novel", "approach", "method"})
_LABEL_DANGLING = frozenset({"and", "or", "of", "for", "with", "to", "in", "on", "the", "a", "an", "by", "from", "via"})


def _clean_term(term: str) -> str:
    words = term.replace(",", " ").split()
    while words and words[-1].lower() in _LABEL_DANGLING:
        words.pop()
    while words and words[0].lower() in _LABEL_DANGLING:
        words.pop(0)
    text = " ".join(words)
    if not words or re.search(r"\d", text) or re.match(r"theme\b", text, re.I):
        return ""
    if words[0].lower() in _LABEL_STOP_START or re.search(r"\b(?:and|or)\b", text):
        return ""  # "fine-tune BERT", "graph and networks": not a noun phrase a researcher would write
    return text


def _initials(term: str) -> str:
    return "".join(w[0] for w in re.split(r"[\s\-]+", term) if w)


def _overlaps(term: str, kept: str) -> bool:
    """Whether two label terms share a word ("dependency parsing" and "parsers": say it once) or
    one abbreviates the other ("cross-lingual information retrieval" and "CLIR models")."""
    stems = {w[:4] for w in kept.split() if len(w) > 3}
    if any(len(w) > 1 and w not in _LABEL_DANGLING and w in {_initials(term), _initials(kept)}
           for w in (*term.split(), *kept.split())):
        return True
    return term[:5] == kept[:5] or term in kept or kept in term or any(w[:4] in stems for w in term.split() if len(w) > 3)


def label_terms(theme: ThemeOutline, short: bool = False, most: int = 2) -> list[str]:
    """The theme's clean key phrases (no numbers, no "theme N", no dangling conjunctions, none
    sharing a word with another), at most ``most`` (one with ``short``)."""
    kept: list[str] = []
    for term in (*theme.terms, theme.label):
        clean = _clean_term(term)
        low = clean.lower()
        if clean and not any(_overlaps(low, k.lower()) for k in kept):
            kept.append(clean)
    return kept[: 1 if short else most]


def theme_label(theme: ThemeOutline, short: bool = False) -> str:
    """A noun phrase naming the theme: :func:`label_terms` joined ("closely related problems" without any)."""
    kept = label_terms(theme, short)
    return join_terms(kept) if kept else "closely related problems"


_ARTICLES = frozenset({"the", "a", "an"})  # no word of what a text is about ("the Penn Treebank")
# verbs whose "re-" form is the same act again ("reranking" is ranking), unlike "research" or "represent"
_AGAIN = re.compile(r"re-?((?:rank|order|writ|train|weigh|scor|index)[a-z]*)")


# words too general to bring a paper near a label ("compare-aggregate model" is not near "matching models")
GENERAL_STEMS = frozenset({"model", "metho", "appro", "syste", "learn", "data", "based", "using", "and",
                           "for"})


def word_stems(text: str) -> set[str]:
    """The words of a text by a crude stem (the first five letters of the word in the singular;
    short words whole), articles left out; a word that redoes an act counts for its base too
    ("reranking" is about ranking)."""
    return set().union(*_stem_sequence(text)) - _ARTICLES


@lru_cache(maxsize=4096)
def _stem_sequence(text: str) -> tuple[frozenset[str], ...]:
    """Each word's stems (see :func:`word_stems`), in the text's order (memoised: a paper's text is
    read against every label of its section)."""
    out = []
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        w = singular(w)  # "nouns" is about nouns as "noun" is, "queries" about queries as "query" is
        again = _AGAIN.fullmatch(w)
        out.append(frozenset({w[:5] if len(w) > 3 else w} | ({again.group(1)[:5]} if again else set())))
    return tuple(out)


def fits_label(title: str, abstract: str, terms: Sequence[str], slack: int = 2) -> bool:
    """Whether a paper is about one of the label's terms: the words of the term (by their stems)
    occur in its title or abstract, and a term of several words is said in one place (its words
    within ``slack`` words of each other: "query translation" is not the "query" of one sentence and
    the "translation matrix" of another). With no terms, every paper fits."""
    sequence = _stem_sequence(f"{title}. {abstract}")
    for term in terms:
        needed = word_stems(term)
        if needed and _said_together(needed, sequence, len(_stem_sequence(term)) + slack):
            return True
    return not terms


def _said_together(needed: set[str], sequence: Sequence[frozenset[str]], window: int) -> bool:
    """Whether every stem of ``needed`` occurs in one run of ``window`` words (anywhere for one stem)."""
    if len(needed) == 1:
        return any(needed <= stems for stems in sequence)
    for start in range(len(sequence)):
        if needed <= set().union(*sequence[start:start + window]):
            return True
    return False


def fitted_label(terms: Sequence[str], papers: Sequence[tuple[str, str]]) -> str:
    """The label's terms that some of ``papers`` (title, abstract) is about, joined: "Other work on
    information retrieval and neural ranking includes ..." must not list two probabilistic IR papers.
    A term of one word takes the word every paper's title puts before it (:func:`as_titles_say`)."""
    fitting = [t for t in terms if any(fits_label(title, abstract, [t]) for title, abstract in papers)]
    said = list(dict.fromkeys(as_titles_say(t, [title for title, _ in papers]) for t in fitting))
    return join_terms([t for t in said if not any(o.lower().endswith(f" {t.lower()}") for o in said)])


def as_titles_say(term: str, titles: Sequence[str]) -> str:
    """A one-word term with the word before it in every one of ``titles`` ("rules" of "... Learning of
    Coreference Rules" is "coreference rules"), when that word is the same in all, no stopword; else
    the term: a bare head says less than the papers' own phrase ("Other work on rules includes ...")."""
    if " " in term or not titles:
        return term
    before = [re.search(rf"([A-Za-z][a-z]+)\s+{re.escape(term)}\b", title, re.I) for title in titles]
    words = {m.group(1).lower() for m in before if m}
    if len(words) != 1 or None in before or next(iter(words)) in _NOT_MODIFIERS:
        return term
    return f"{next(iter(words))} {term}"


# words that may stand before a noun in a title without naming a kind of it ("of rules", "new rules")
_NOT_MODIFIERS = frozenset("""of for and or the a an in on with to from by via using new novel better improved
    simple fast efficient effective automatic towards toward learning""".split())
