"""Bare appositives ("node2vec, an algorithm", "a large-scale dataset") completed: by their relative
clause (as written, then as a participle), by the title's own description, or by the name alone."""

from __future__ import annotations

import re

from relatex.writing.contributions import (
    PREPOSITIONS,
    PRONOUNS,
    VERB_CLASSES,
    keeps_case,
    leaves_comparison_open,
    with_article,
)
from relatex.writing.phrase_ends import dangling_end

# "node2vec, an algorithm", "ROUGE, a family of measures"
_APPOSITIVE = re.compile(r"^(?:(?P<name>[^,]{1,60}),\s+)?(?P<head>(?:a|an|the)\s+"
                         r"(?:(?P<group>family|set|suite|collection|class)\s+of\s+\S+|\S+(?:\s+\S+)?))$", re.I)
RELATIVE = re.compile(r"^\s*,?\s*(?P<rel>that|which|who|in which|where|whose)\s+(?P<body>.+)", re.I)
_BODY_CUT = re.compile(r",|;|:|--|\u2014|\s\u2013\s|\s\(|\s(?:that|which|who|where|whereas|while|because|"
                       r"so that|such that|thereby|by|through|so as|instead of|rather than)\b|"
                       r"\sand\s(?=[a-z]+s\s)", re.I)
_NOT_VERBS = frozenset({"is", "has", "was", "does", "its", "this", "thus", "his", "plus", "as", "us", "yes"})
_BASE_VERBS = frozenset(VERB_CLASSES) | {"cite", "write", "read", "need", "have", "do", "make", "see", "like", "want",
                                         "prefer", "miss", "get", "take", "give", "know", "say"}
_DETERMINERS = frozenset({"a", "an", "the", "each", "their", "its"})  # an object follows: the word before is a verb
_MODALS = frozenset({"can", "may", "will", "could", "must", "should", "would", "might", "is", "are", "was", "were",
                     "has", "have"})


def ing_form(verb: str) -> str:
    """The -ing form of a third-person verb: ``learns`` -> ``learning``, ``evaluates`` -> ``evaluating``."""
    low = verb.lower()
    if low.endswith("ies"):
        return low[:-3] + "ying"
    if re.search(r"(?:ss|sh|ch|x|z)es$", low):
        return low[:-2] + "ing"
    return gerund_of(low[:-1] if low.endswith("s") else low)


def gerund_of(verb: str) -> str:
    """The -ing form of a base verb: "enhance" -> "enhancing", "address" -> "addressing"."""
    low = verb.lower()
    if low.endswith("ee") or low.endswith(("ss", "us", "x")):
        return low + "ing"
    if low.endswith("e"):
        return low[:-1] + "ing"
    if len(low) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", low):
        return low + low[-1] + "ing"
    return low + "ing"


def _is_third_person_verb(word: str, following: str) -> bool:
    low = word.lower()
    return (len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")) and low not in _NOT_VERBS
            and following.lower() not in _BASE_VERBS)


def _clause_body(body: str, max_words: int) -> str:
    """A relative clause's body cut at its first inner clause, at most ``max_words`` words."""
    body = re.sub(r"\b(?:that|which)\s+(?:is|are)\s+", "", body, flags=re.I)  # reduced relatives
    cut = _BODY_CUT.search(body)
    if cut:
        body = body[:cut.start()]
    words = [PRONOUNS.get(w.lower(), w) for w in body.split()]
    if len(words) > max_words:
        cuts = [i for i in range(3, max_words + 1) if words[i].lower() in PREPOSITIONS
                and not leaves_comparison_open(words[:i], words[i:])]
        words = words[:cuts[-1]] if cuts else words[:max_words]
    while words and dangling_end(words):
        words.pop()
    if len(words) > 3 and words[-2].lower() in {"and", "or"}:  # "relevant to the query and dissimilar"
        words = words[:-2]
    return " ".join(words).strip(" ,;:-")


def is_bare_appositive(phrase: str) -> bool:
    """``node2vec, an algorithm`` or ``a large-scale dataset``: a head noun that says too little."""
    return bool(_APPOSITIVE.match(phrase.strip()))


# "can be used to build X", "may be applied for X": what the thing is for
_USED_FOR = re.compile(r"(?:can|could|may|might)\s+be\s+(?:used|applied|employed)\s+"
                       r"(?:to\s+(?!(?:a|an|the|this|these|its|their|such)\b)(?P<verb>[a-z]+)(?<!ing)|for)"
                       r"\s+(?P<rest>\S.*)", re.I)


def descriptor_variants(phrase: str, rest: str, title: str = "") -> list[str]:
    """Ways to complete a bare appositive, best first: its relative clause (as written, then as
    a participle: ``an algorithm learning feature representations``, or as its purpose: ``a method
    for building semantic lexicons`` for "that can be used to build ..."), shorter cuts of both, the
    title's own description (``BEIR: A Heterogeneous Benchmark for ...``), then the name alone."""
    match = _APPOSITIVE.match(phrase.strip())
    if not match:
        return []
    name, head = match.group("name"), match.group("head")
    lead = f"{name}, " if name else ""
    out: list[str] = []
    at = rest.lower().find(head.lower())
    relative = RELATIVE.match(rest[at + len(head):]) if at >= 0 else None
    if relative:
        rel = relative.group("rel").lower()
        for limit in (9, 6):
            body = _clause_body(relative.group("body"), limit)
            words = body.split()
            if len(words) > 2 and re.fullmatch(r"[a-z]{3,}ly", words[0]) and \
                    _is_third_person_verb(words[1], words[2]):
                words = words[1:]  # "that naturally incorporates X": the adverb, a whole modifier, goes
                body = " ".join(words)
            if len(words) < 2:
                continue
            if rel in {"that", "which", "who"} and words[0].lower() not in _MODALS:
                following = words[1] if len(words) > 1 else ""
                plural = bool(match.group("group")) and following.lower() in _DETERMINERS \
                    and _is_third_person_verb(f"{words[0]}s", following)  # "measures that score a ..."
                if plural or _is_third_person_verb(words[0], following):
                    participle = gerund_of(words[0]) if plural else ing_form(words[0])
                    out.append(f"{lead}{head} that {body}")
                    out.append(f"{lead}{head} {participle} {' '.join(words[1:])}")
                continue
            used = _USED_FOR.match(body) if rel in {"that", "which"} else None
            if used:  # "a method that can be used to build X": "a method for building X"
                purpose = gerund_of(used.group("verb")) if used.group("verb") else ""
                out.append(" ".join(p for p in (f"{lead}{head} for", purpose, used.group("rest")) if p))
            out.append(f"{lead}{head} {rel} {body}")
            if rel == "in which":  # the same said differently breaks a copied run
                out.append(f"{lead}{head} where {body}")
    described = _title_descriptor(title, name, head)
    if described:  # the title names what the abstract leaves unnamed: say it first
        out.insert(0 if not name else len(out), described)
    if name:
        out.append(name)
    return list(dict.fromkeys(out))


def _title_descriptor(title: str, name: str | None, head: str) -> str:
    """``NAME, a DESCRIPTION`` from a title ``NAME: Description`` that names the same kind of thing."""
    if ":" not in title:
        return ""
    title_name, description = (part.strip() for part in title.split(":", 1))
    if name and title_name.lower() != name.lower():
        return ""
    if not name and not _reads_as_name(title_name):
        return ""  # "Controlling Polarization in Personalization: An Algorithmic Framework": no name
    noun = re.sub(r"s$", "", head.split()[-1].lower())
    words = description.split()
    if not 2 <= len(words) <= 12 or not any(re.sub(r"s$", "", w.lower().strip(",")) == noun for w in words):
        return ""
    shown = " ".join(w if keeps_case(w) else w.lower() for w in words)
    if not re.match(r"(?:a|an|the)\s", shown):
        shown = with_article(shown)
    return f"{name or title_name}, {shown}"


def _reads_as_name(part: str) -> bool:
    """A title's lead that names a thing ("TriRank", "Sangeet Swara"), not a phrase about one."""
    words = part.split()
    return 1 <= len(words) <= 3 and all(w[:1].isupper() or w[:1].isdigit() for w in words) and \
        not any(w.lower().endswith("ing") for w in words)
