"""Topic claims: sentences that only say what the cited papers are about.

"Other work on coreference resolution includes [a, b]" or "A second strand of research deals with
word alignment [c]" claims nothing of a paper but its subject. A paper's title says its subject,
so such a claim can be checked against titles, whether or not the papers have an abstract (a
judge reading an abstract may find no claim in "forms a further strand"); any other claim needs
the abstract: a title alone is too little. The claim holds when every cited paper's title names
one of the topic's terms and, together, the titles name every term.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from relatex.analysis.claims.claim_words import STOPWORDS, stem

_TOPIC = r"(?P<topic>[^.;:!?]+?)"
_VERB = r"(?:concerns?|deals?\s+with|address(?:es)?|centres?\s+on|centers?\s+on|focus(?:es)?\s+on)"
_WORK_ON = r"(?:other|further|related|more|earlier|prior|previous|recent)?\s*(?:work|research|studies)\s+on"
_RELATED = r"(?:includes?|(?:is|are)\s+(?:also\s+)?(?:closely\s+)?related|forms?\s+a\s+further\s+strand)"
_STRAND = (r"(?:an?\s+(?:first|second|third|fourth|further)\s+"
           r"(?:line\s+of\s+(?:work|research)|strand\s+of\s+research)"
           r"|another\s+(?:group\s+of\s+papers|line\s+of\s+work|strand\s+of\s+research)"
           r"|several\s+(?:studies|papers|works))")
FRAMES: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^{_WORK_ON}\s+{_TOPIC}\s+{_RELATED}\s*\.?$", re.I),
    re.compile(rf"^{_STRAND}\s+{_VERB}\s+{_TOPIC}\s*\.?$", re.I),
    re.compile(rf"^we\s+begin\s+with\s+(?:research|work)\s+on\s+{_TOPIC}\s*\.?$", re.I),
)
_TERM_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# plurals no ending rule forms, by their singular (label terms are written in the plural with them)
IRREGULAR_PLURALS = {"corpus": "corpora", "analysis": "analyses", "index": "indices", "criterion": "criteria",
                     "phenomenon": "phenomena", "matrix": "matrices"}
_IRREGULAR = {plural: one for one, plural in IRREGULAR_PLURALS.items()}


def topic_terms(claim: str) -> tuple[str, ...]:
    """The terms of the topic a topic claim names (its citations already removed), else ()."""
    text = " ".join(claim.split())
    for frame in FRAMES:
        if match := frame.match(text):
            terms = tuple(t for t in _TERM_SPLIT.split(match.group("topic").strip()) if t)
            return terms if all(_stems(t) for t in terms) else ()
    return ()


def _stems(text: str) -> frozenset[str]:
    """Content-word stems of the words in the singular, hyphenated words split ("cross-language"
    names "cross language")."""
    words = (w.lower() for w in _WORD.findall(text))
    return frozenset(stem(singular(w))
                     for w in words if w not in STOPWORDS and len(w) > 1)


# words ending in "s" that are no plural of a shorter word ("news" is not "new")
_NOT_PLURAL = frozenset({"news", "always", "perhaps", "towards", "afterwards", "sometimes", "whereas",
                         "besides", "lens", "series", "species", "means"})


def singular(word: str) -> str:
    """``word`` (lower case) without a plural ending, so that "roles" and "role" share a stem (the
    stem alone cuts "-es" whole: "rol"), "queries" and "query" too; "corpora" is "corpus"."""
    word = _IRREGULAR.get(word, word)
    if word in _NOT_PLURAL:
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def names_term(title: str, term: str) -> bool:
    """Whether ``title`` holds every content word of ``term`` (stemmed, in any order)."""
    return _stems(term) <= _stems(title)


def titles_name_topic(terms: tuple[str, ...], titles: Mapping[str, str]) -> bool:
    """Every title names one of ``terms``, and every term is named by some title."""
    if not terms or not titles:
        return False
    named = {key: {t for t in terms if names_term(title, t)} for key, title in titles.items()}
    return all(named.values()) and set().union(*named.values()) == set(terms)
