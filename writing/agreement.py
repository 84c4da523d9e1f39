"""Verb agreement for phrases the offline writer says after a singular subject ("Recent work by
\\citet{k} extends the theory and devises techniques ...")."""

from __future__ import annotations

import re
from collections.abc import Callable

from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.contributions import VERB_CLASSES, plural_head

_VERB_ALT = "|".join(sorted(VERB_CLASSES, key=len, reverse=True))


def third_person(verb: str) -> str:
    """The third-person singular of a base verb: "devise" -> "devises", "apply" -> "applies"."""
    low = verb.lower()
    if re.search(r"[^aeiou]y$", low):
        return low[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return low + "es"
    return low + "s"


# a second verb phrase joined to the first ("extend the theory and devise techniques for ..."),
# not a noun ("the design and use of ...": a verb does not open an of-phrase)
_NOUN_TOO = frozenset({"use", "study", "design", "report", "focus", "release", "show", "train", "offer", "cover",
                       "find", "address", "leverage", "survey", "fine-tune", "pretrain"})  # "the design and use of"
# what follows a verb joined by "and": its object, not a preposition or another conjunction
_OBJECT_AHEAD = r"(?=\s+(?!(?:of|for|in|to|and|or|with|on|at|by)\b)[a-z])"
_COORDINATED_VERB = re.compile(
    rf"\b(?:and|or)\s+(?P<verb>(?!(?:{'|'.join(sorted(_NOUN_TOO))})\b)(?:{_VERB_ALT}|devise|derive))\b"
    + _OBJECT_AHEAD, re.I)


def agree_singular(phrase: str) -> str:
    """A verb phrase said after a singular subject: its coordinated base verbs inflected too
    ("extends the theory and devises techniques", not "... and devise techniques")."""
    return _coordinated_as(_COORDINATED_VERB, third_person, phrase)


def _coordinated_as(pattern: re.Pattern[str], form: Callable[[str], str], phrase: str) -> str:
    """``phrase`` with each verb ``pattern`` finds after "and" / "or" said in ``form``."""
    return pattern.sub(lambda m: m.group(0)[: m.start("verb") - m.start()] + form(m.group("verb")), phrase)


MODALS = frozenset({"can", "could", "may", "might", "will", "would", "should", "must"})
_LY_VERBS = frozenset({"apply", "reply", "supply", "rely", "comply", "imply", "multiply", "ally", "fly"})


def adverb(word: str) -> bool:
    """An adverb in "-ly" ("automatically"), not a verb spelt so ("apply", "rely")."""
    low = word.lower().strip(",;")
    return low.endswith("ly") and low not in _LY_VERBS


def singular_action(action: str) -> str:
    """A "we" action said of "our work": its first verb inflected ("can" and the like stay), past
    adverbs ("automatically derive"); "" when the action does not open on a verb in its base form."""
    words = action.split()
    i = next((j for j, w in enumerate(words) if not adverb(w)), len(words))
    if i >= len(words) or words[i].lower() in MODALS:
        return action if i < len(words) else ""
    if not re.fullmatch(r"[a-z][a-z\-]+", words[i]) or re.search(r"(?:ed|ing|(?<![su])s)$", words[i]):
        return ""  # not a base verb ("address", "discuss" and "focus" are): "we" of a plural verb only
    return agree_singular(" ".join([*words[:i], third_person(words[i]), *words[i + 1:]]))


def base_form(verb: str) -> str:
    """The base form of a third-person singular verb ("examines" -> "examine", "studies" -> "study",
    "discusses" -> "discuss"); "" when ``verb`` is not one ("is", "has", "proposed")."""
    low = verb.lower()
    if low in _IRREGULAR_BASE:
        return _IRREGULAR_BASE[low]
    if low in _NO_BASE or not re.fullmatch(r"[a-z][a-z\-]*[a-z]s", low) or low.endswith(("ss", "us", "is")):
        return ""
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if re.search(r"(?:sses|shes|ches|xes|zzes|oes)$", low):
        return low[:-2]
    return low[:-1]


_NO_BASE = frozenset({"is", "has", "was", "does", "goes", "its", "this", "thus", "as", "yes", "plus"})
_IRREGULAR_BASE = {"uses": "use", "focuses": "focus", "biases": "bias"}


def plural_action(action: str) -> str:
    """An "our work" action said of "we": its first verb and the verbs joined to it in their base form
    ("presents and discusses the results" -> "present and discuss the results"); "" when the action does
    not open on a third-person singular verb (a modal or "is" stays out: "we is" is no sentence)."""
    words = action.split()
    i = next((j for j, w in enumerate(words) if not adverb(w)), len(words))
    if i >= len(words):
        return ""
    first = base_form(words[i])
    if not first:
        return ""
    rest = _coordinated_as(_COORDINATED_SINGULAR, base_form, " ".join(words[i + 1:]))
    return " ".join([*words[:i], first, *rest.split()])


_COORDINATED_SINGULAR = re.compile(
    r"\b(?:and|or)\s+(?P<verb>"
    + "|".join(sorted({third_person(v) for v in (*VERB_CLASSES, "devise", "derive", "discuss", "evaluate",
                                                  "examine", "analyze", "analyse", "compare")},
                      key=len, reverse=True))
    + r")\b" + _OBJECT_AHEAD, re.I)


def plural_topic(topic: str) -> bool:
    """A plural head, or two things joined before any preposition ("coarse-to-fine parsing and
    discriminative reranking"; not "extraction of entities and relations")."""
    first = re.split(r"\s(?:of|for|in|on|with|via|by|from|to|using|through|under|at|over|towards|as|into)\s",
                     topic)[0]
    if ONE_THING_PAIRS.search(first) or _shared_head(first):
        return plural_head(topic)
    return plural_head(topic) or (" and " in first and not re.match(r"(?:a|an)\s", topic, re.I))


def _shared_head(first: str) -> bool:
    """Two modifiers sharing one head ("lexical and phonetic query reformulation"): one thing, named
    twice over, not two things joined."""
    first = _LATIN_MODIFIER.sub(lambda m: m.group(0).replace(" ", "-"), first)  # "in situ and context-aware"
    found = re.match(r"^(\S+) and (\S+) (?!and\b)\S", first)
    return found is not None and all(
        is_adjective_like(word) or _LATIN_MODIFIER.fullmatch(word.replace("-", " ")) is not None
        for word in found.groups())


# Latin phrases that modify a noun as one adjective does ("in situ and context-aware app selection")
_LATIN_MODIFIER = re.compile(r"\b(?:in situ|ad hoc|a priori|a posteriori|post hoc|de facto|in vivo|in vitro|"
                             r"in silico)\b", re.I)


# pairs joined by "and" that name one thing ("divide and conquer is ...")
ONE_THING_PAIRS = re.compile(r"\b(?:divide and conquer|trial and error|search and rescue|cut and paste|"
                             r"plug and play|question and answer|publish and subscribe|bag and tag|"
                             r"hide and seek|give and take|research and development|rise and fall|"
                             r"supply and demand)\b", re.I)
