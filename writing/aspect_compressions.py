"""How a closing may shorten what the draft says it does (a draft aspect) without saying anything
else: its asides, an inner modifier or its trailing modifiers dropped, its purpose said with a
gerund, a finding said with an infinitive ("show that X is Y" -> "show X to be Y"), what the draft
shows how to do said as what it does ("show how to enhance X" -> "enhance X"), a task named without
"the problem of", a list of adjectives before a noun left out, "as a problem of doing X" said "as
doing X", "is able to" said "can", "the level of X" said "X", a relative clause left out. Each
compression says what the draft says or less, never something the draft does not."""

from __future__ import annotations

import re
from functools import lru_cache

from relatex.analysis.claims.topic_claims import singular
from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.agreement import MODALS, adverb, third_person
from relatex.writing.contributions import (
    AUXILIARIES,
    PRONOUNS,
    has_finite_verb,
    needs_of,
    shorten,
    without_asides,
)
from relatex.writing.draft_aspects import evaluation_only
from relatex.writing.phrase_attempts import purpose_as_gerund
from relatex.writing.sentence_checks import MODIFIER_STARTS, UNSPECIFIC, phrase_complete, vague
from relatex.writing.title_topics import ARTEFACT_HEADS

# prepositions that open a modifier which can go whole ("employs a Transformer [with multi-head
# self-attention] for feature learning"); "of", "to", "between" open arguments, not modifiers
_DROPPABLE = frozenset({"with", "via", "using", "through", "by", "over", "across", "under", "from", "within"})
_NAMING = frozenset({"named", "called", "dubbed", "termed"})
# "with [a hybrid of lexical and dense retrieval]" goes whole
_MODIFIER_ENDS = MODIFIER_STARTS - {"of", "and"}


def _modifier_drops(text: str) -> list[str]:
    """``text`` with one inner modifier dropped whole, longest result first: a prepositional phrase
    up to the next preposition ("[with multi-head self-attention]"), or a name given in passing ("a
    model [named BGCN] for ..."). Each says less than the draft, never something else."""
    words = text.split()
    out = []
    for i in range(2, len(words) - 1):
        word = words[i].lower()
        if word not in _DROPPABLE and not (word in _NAMING and i + 2 < len(words)):
            continue
        end = next((j for j in range(i + 1, len(words)) if words[j].lower() in _MODIFIER_ENDS), len(words))
        if word in _NAMING and end > i + 4:
            continue  # a name runs up to the next preposition ("[called narrative event chains] from ...")
        if any(_verb_like(w) for w in words[i + 1:end]):
            continue  # "[within BERT can be transferred] to a smaller ranker": a clause, not a modifier
        if word == "from" and end < len(words) and words[end].lower() == "to":
            continue  # "ordered [from foundational] to recent work": a range goes whole or stays
        if end < len(words) and not words[end - 1].endswith(","):
            out.append(" ".join(words[:i] + words[end:]))
    return sorted(out, key=len, reverse=True)


def _verb_like(word: str) -> bool:
    """A verb or participle inside a span ("can", "sorting", "collected"): the span is a clause."""
    low = word.lower().strip(",;:")
    return low in AUXILIARIES or low == "according" or (len(low) > 4 and low.endswith(("ing", "ed")))


# nouns that say nothing alone ("present a list", "derive a mixture"), and words a cut must not end on
_CONTAINERS = frozenset({"list", "set", "number", "range", "variety", "series", "collection", "mixture",
                         "advantage", "surge",
                         "way", "means", "exploration", "overview", "study", "analysis", "kind", "type",
                         "form"})
# plural nouns that need to say what of, or in what ("two families", "the major milestones")
_OF_WHAT = frozenset({"family", "families", "kinds", "types", "forms", "sets", "milestones", "aspects",
                      "issues", "trends", "advances", "developments", "directions", "parameters", "details",
                      "elements", "components", "properties", "characteristics", "parts"})
_CUT_ENDS = frozenset({"so", "thus", "then", "also", "very", "more", "most", "many", "such", "ones", "new"})


def _thin_object(action: str) -> bool:
    """An action whose object is a bare container ("present a list", "surveys the major milestones")
    or that ends on a word a cut leaves hanging ("optimizes the policy for logging data so")."""
    words = [w.lower().strip(",;") for w in action.split()]
    while words and (words[0] in MODALS or adverb(words[0])):
        words = words[1:]  # "can automatically derive a mixture": the object follows the main verb
    words = words[1:]
    content = [w for w in words if w not in UNSPECIFIC and w not in {"an", "a", "the", "of"}]
    bare = bool(content) and (len(content) == 1 and content[0] in _CONTAINERS | _OF_WHAT
                              or content[-1] in _OF_WHAT and len(words) <= 3)
    return bare or (bool(words) and words[-1] in _CUT_ENDS)


# words that praise what the draft builds rather than say what it is ("a [novel] transfer network"),
# and emphasis ("show [specifically] how"): a closing may leave them out and still say what the draft says
_PRAISE = frozenset({"novel", "new", "generalizable", "effective", "powerful", "elegant", "promising",
                     "principled", "innovative", "flexible", "simple", "efficient", "robust", "versatile"})
_EMPHASIS = frozenset({"specifically", "substantially", "significantly", "successfully", "briefly",
                       "intelligently", "effectively", "greatly", "considerably", "remarkably", "directly",
                       "readily", "naturally", "dramatically", "drastically", "consistently", "surprisingly"})
# heads a praise word may go before: what is built ("a new dataset"), not whom or what it is for ("new users")
_BUILT = ARTEFACT_HEADS | {"task", "formulation", "paradigm", "technique", "mechanism", "objective", "loss",
                           "strategy", "scheme", "procedure", "solution", "resource", "representation"}
_ARTICLES = frozenset({"a", "an", "the"})


def _article(word: str) -> str:
    """"a" or "an" before ``word`` ("an approach", "a unified model", "an HMM")."""
    if len(word) > 1 and word.isupper():
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    low = word.lower()
    vowel = low[:1] in "aeio" or low[:1] == "u" and not low.startswith(("uni", "use", "usa", "usu", "uti"))
    return "an" if vowel else "a"


def without_praise(text: str) -> str:
    """``text`` without the praise words before the head of a noun phrase naming what is built
    ("presents TransV, a [novel] Web-to-Voice neural transfer network", the article made to agree)
    and without emphasis ("show [specifically] how") or a selection of a plural ("the [major] milestones");
    ``text`` itself when it has none."""
    words = text.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        low = words[i].lower()
        selecting = low in _SELECTING and out and out[-1].lower() == "the" \
            and words[i + 1:i + 2] and words[i + 1].lower().endswith("s")
        if (low in _EMPHASIS and out) or selecting:
            i += 1  # "show [specifically] how", "surveys the [major] milestones"
            continue
        if low.rstrip(",") in _PRAISE and out and out[-1].lower() in _ARTICLES:
            run = i
            while run < len(words) and words[run].lower().strip(",") in _PRAISE | _JOINING | _EMPHASIS:
                run += 1
            if words[run - 1].lower().strip(",") in _PRAISE and _heads_a_built_thing(words[run:]):
                if out[-1].lower() != "the":
                    out[-1] = _article(words[run]) if out[-1].islower() else _article(words[run]).capitalize()
                i = run
                continue
        out.append(words[i])
        i += 1
    return " ".join(out)


_JOINING = frozenset({"and", "yet", "but", "or"})  # "a simple [yet] effective model"
# "the [major] milestones": which ones, not what they are
_SELECTING = frozenset({"major", "main", "principal"})


def _heads_a_built_thing(words: list[str]) -> bool:
    """Whether the noun phrase these words open is headed by what is built ("Web-to-Voice neural
    transfer network", "task, citation text generation"), its head the last word before a
    preposition, a clause or a comma."""
    phrase: list[str] = []
    for word in words:
        if word.lower() in MODIFIER_STARTS:
            break
        phrase.append(word)
        if word.endswith((",", ";", ".")):
            break
    head = phrase[-1].lower().rstrip(",;.") if phrase else ""
    return singular(head) in _BUILT


_THAT_IS = re.compile(r"^(?P<verb>(?:show|demonstrate|prove|find)s?)\s+that\s+"
                      r"(?P<np>[\w-]+(?:\s[\w-]+){0,5}?)\s+"
                      r"(?:is|are)\s+(?P<predicate>(?!not\b|neither\b|also\b|\w+ed\b|\w+ing\b)[^,;:]+)$")


def as_infinitive(text: str) -> str:
    """A finding said with an infinitive, so that it copies the draft less ("show that a beam-search
    decoder is a competitive choice" -> "show a beam-search decoder to be a competitive choice"); ""
    when the that-clause is no "X is Y" (its subject a short noun phrase, the predicate no negation,
    participle or second clause)."""
    found = _THAT_IS.match(text)
    if found is None or any(_verb_like(w) or w.lower() in {"it", "they", "this", "these", "there", "that"}
                            for w in found.group("np").split()):
        return ""
    return f"{found.group('verb')} {found.group('np')} to be {found.group('predicate')}"


# "show how to enhance a parser with X": what the work does is enhance the parser
_HOW_TO = re.compile(r"^(?P<verb>show|demonstrate|describe|explain|illustrate)(?P<s>e?s)?\s+(?:[a-z]+ly\s+)?"
                     r"how\s+to\s+(?P<action>(?P<base>[a-z][a-z-]+)\s+\S.*)$")


_NO_VERB = frozenset({"best", "better", "not", "both"})


def what_is_shown_done(text: str) -> str:
    """The action a "show how to" aspect says the work does ("show specifically how to enhance a
    parser with X" -> "enhance a parser with X"; "shows how to ..." -> "enhances ..."); "" for any
    other aspect."""
    found = _HOW_TO.match(text)
    if found is None or adverb(found.group("base")) or found.group("base") in _NO_VERB:
        return ""  # "how to best combine ...": the verb follows
    if not found.group("s"):
        return found.group("action")
    return f"{third_person(found.group('base'))} {found.group('action').split(maxsplit=1)[1]}"


# verbs whose object or meaning goes on with "to" ("allows users [to ...]", "can learn [to capture ...]")
_TO_COMPLEMENT = frozenset({"allow", "enable", "permit", "force", "require", "encourage", "cause", "ask",
                            "learn", "try", "aim", "seek", "attempt", "manage", "fail", "tend", "need", "want",
                            "help", "able", "continue", "begin", "start", "strive", "choose", "decide"})


def _needs_rest(short: str, rest: list[str]) -> bool:
    """Whether a cut before ``rest`` leaves ``short`` wanting it: an of-phrase (:func:`needs_of`: "a
    surge in the sheer volume [of ...]", "the training [and evaluation of X]") or the "to" after
    "allow X" ("allows users [to ...]") or before a gerund ("a process [to learning X]"). A bare
    "advantage" or "surge" is a thin object instead."""
    if needs_of(short.split(), rest):
        return True
    definite = short.split()[-2:-1] == ["the"]
    if rest[0].lower() == "and" and definite and "of" in [w.lower() for w in rest[1:3]]:
        return True  # "reports on the training [and evaluation of a parser]": the of-phrase is shared
    if rest[0].lower() == "to" and rest[1:2] and re.fullmatch(r"[a-z]{3,}ing", rest[1]):
        return True  # "a three step process [to learning narrative event chains]": what it is for
    return rest[0].lower() == "to" and any(singular(w.lower()) in _TO_COMPLEMENT for w in short.split()[-3:])


_TAIL = re.compile(r",?\s+(?:including|such\s+as|e\.g\.,?|since\s+(?:its|their|the|\d))\s")


# words a clause does not end on: what is suggested or decided was cut ("the first experiment suggests",
# "the sentences in the corpus were", "the present algorithm rests", "the paper reports")
_WANTS_MORE = frozenset({"suggest", "suggests", "indicate", "indicates", "reveal", "reveals", "decide",
                         "decides", "proven", "same", "is", "are", "was", "were", "be", "been", "being",
                         "rest", "rests", "hinges", "draws", "focus", "focuses", "report", "reports"})
_THAT_CLAUSE = re.compile(r"\b(?:show|demonstrate|find|prove|suggest|argue|indicate|reveal)(?:e?s)?\s+that\s+"
                          r"(?P<rest>.+)$")


def _ends_whole(variant: str) -> bool:
    """Whether a compression ends where its clause does: not on a verb or copula that wants what
    follows, not on "the same", and not with a that-clause cut before its verb ("shows that prior
    work in translating lattices")."""
    if variant.split()[-1].lower().strip(",;") in _WANTS_MORE:
        return False
    found = _THAT_CLAUSE.search(variant)
    return found is None or has_finite_verb("x " + found.group("rest"))


_FINDING = re.compile(r"^(?:show|demonstrate|prove|find|expect|believe|report)(?:e?s)?\b")

# "address [the task of] POS tagging", "focuses on [the problem of] cross-lingual sentiment classification"
TASK_VERBS = r"focus(?:es)?\s+on|address(?:es)?|tackles?|considers?|investigates?|explores?|stud(?:y|ies)"
THE_TASK_OF = r"the\s+(?:problem|task|question|challenge)\s+of\s+"
_TASK_OF = re.compile(rf"^(?P<verb>{TASK_VERBS})\s+{THE_TASK_OF}"
                      r"(?P<rest>(?!how\b|what\b|whether\b|which\b)[a-zA-Z][\w-]*(?<!ing)\b.*)$")


def task_named(text: str) -> str:
    """The action with the task named without "the problem of" ("addresses the task of POS tagging"
    -> "addresses POS tagging"): the same work, fewer of the draft's words; "" when it has none or
    the task is a gerund ("the problem of representing X": :func:`problem_as_how` says that)."""
    found = _TASK_OF.match(text)
    return f"{found.group('verb')} {found.group('rest')}" if found else ""


# "view coreference resolution as [a problem of] ranking candidate partitions"
_AS_PROBLEM_OF = re.compile(r"\bas\s+(?:a|an|the)\s+(?:problem|task)\s+of\s+(?=[a-z]+ing\b)", re.I)


def as_doing(text: str) -> str:
    """What the draft views something as, said without "a problem of" ("we view X as a problem of
    ranking candidate partitions" -> "we view X as ranking candidate partitions"); "" when it has none."""
    return _replaced(_AS_PROBLEM_OF, "as ", text)


# "bounds on [the level of] performance": a measure word before what is measured
_MEASURE_OF = re.compile(r"\bthe\s+(?:level|amount|degree)\s+of\s+(?=[a-z])", re.I)


def without_measure(text: str) -> str:
    """What is measured said without its measure word ("establishes bounds on the level of performance"
    -> "establishes bounds on performance"); "" when the text has none."""
    return _replaced(_MEASURE_OF, "", text)


_ABLE_TO = re.compile(r"\b(?:is|are)\s+able\s+to\s+(?=[a-z])", re.I)


def as_can(text: str) -> str:
    """"is able to" said "can" ("our formulation is able to handle X" -> "our formulation can handle
    X"); "" when the text has none."""
    return _replaced(_ABLE_TO, "can ", text)


def _replaced(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    """``text`` with ``pattern`` replaced, or "" when it does not occur."""
    said, count = pattern.subn(replacement, text)
    return said if count else ""


# an article and a list of two or more modifiers before the head ("a weakly-supervised, general-purpose,
# and accurate algorithm"): what the thing is goes with the head, the list can go whole
_MODIFIER_LIST = re.compile(r"\b(?P<article>a|an|the)\s+(?P<list>(?:[\w-]+,\s+)+(?:and\s+|or\s+)?[\w-]+)\s+"
                            r"(?P<head>[A-Za-z][\w-]*)", re.I)


def without_modifier_list(text: str) -> str:
    """``text`` without a comma list of adjectives before a noun, the article made to agree
    ("present a weakly-supervised, general-purpose, and accurate algorithm for X" -> "present an
    algorithm for X"); "" when it has none. A list of nouns ("a parser, tagger and chunker") stays."""
    found = _MODIFIER_LIST.search(text)
    if found is None:
        return ""
    items = [w.strip(",") for w in found.group("list").split() if w.lower() not in {"and", "or"}]
    if not all(_modifier(w) for w in items) or found.group("head").lower() in MODIFIER_STARTS:
        return ""
    article = found.group("article")
    if article.lower() != "the":
        article = _article(found.group("head"))
    return f"{text[:found.start()]}{article} {found.group('head')}{text[found.end():]}"


def _modifier(word: str) -> bool:
    """An adjective, or a compound of which one part is ("general-purpose", "domain-independent")."""
    return is_adjective_like(word) or ("-" in word and any(is_adjective_like(p) for p in word.split("-") if p))


# a participle with its agent ("partitions [generated by different coreference systems]"): a modifier
_BY_PARTICIPLE = re.compile(r"[a-z]{3,}ed by$", re.I)


# a relative clause opening on its auxiliary after a noun ("performance [that can be expected ...]")
_RELATIVE = re.compile(r"(?<=[a-z])\s+(?:that|which)\s+(?:can|could|may|might|will|would|is|are|was|were)\s", re.I)


def _trailing_cuts(text: str) -> list[str]:
    """``text`` cut before a trailing modifier (a prepositional phrase, a participle with its agent,
    or a relative clause), at most 9, 7 and 5 words, where what is cut wants nothing that follows."""
    cuts = []
    words = text.split()
    for limit in (9, 7, 5):
        said = shorten(text, limit, cut_clauses=False).split()  # its "we" said "they": the draft's own words back
        same = said == [PRONOUNS.get(w, w) for w in words[:len(said)]]  # not cut at a comma: an aside starts
        short = " ".join(words[:len(said)]) if same else ""
        rest = words[len(said):] if short else []
        if rest and (rest[0].lower() in MODIFIER_STARTS or _BY_PARTICIPLE.match(" ".join(rest[:2]))) \
                and len(said) >= 3 and not _needs_rest(short, rest):
            cuts.append(short)
    relative = _RELATIVE.search(text)  # "bounds on performance [that can be expected in an evaluation]"
    if relative and 3 <= len(before := text[:relative.start()].split()) <= 9 \
            and not _needs_rest(" ".join(before), text[relative.start():].split()):
        cuts.append(" ".join(before))
    return cuts


def compressions(text: str, action: bool = False) -> list[str]:
    """:func:`_compressions`, memoised: a closing asks for them once to choose its aspect
    (:func:`relatex.writing.closings.sayable`) and again to say it."""
    return list(_compressions(text, action))


@lru_cache(maxsize=2048)
def _compressions(text: str, action: bool) -> tuple[str, ...]:
    """The aspect whole, without its asides, without praise (:func:`without_praise`), its purpose
    said with a gerund, with one inner modifier dropped, then with its trailing modifiers dropped
    (cut before a preposition), then each of these as an infinitive (:func:`as_infinitive`). An
    action that names only a kind of thing ("present an extensive analysis", what of having been
    cut), a bare container ("present a list") or only how the work is tested is not said, nor a cut
    inside a list."""
    fewer = [v for v in (task_named(text), without_modifier_list(text), as_doing(text), as_can(text),
                      without_measure(text)) if v]
    cuts = [cut for v in (text, *fewer) for cut in _trailing_cuts(v)]
    # "is generative[, producing ...]", "is deterministic [and is driven by ...]"; never how a finding
    # was reached ("[, using ...]")
    second = re.search(r"\s+and\s+(?:is|are|was|were)\s|,\s+(?!using\b)[a-z]+ing\s", text)
    if second and len(text[:second.start()].split()) >= 2:
        cuts.append(text[:second.start()])
    # an example list or a time span goes whole ("the parameters of the task[, including the format, ...]")
    cuts += [v[:tail.start()] for v in (text, without_praise(text)) if (tail := _TAIL.search(v))]
    # "a model to estimate X" -> "a model for estimating X"; not a finding ("show our algorithm to produce X")
    gerund = text if _FINDING.match(text) else purpose_as_gerund(text)
    out: list[str] = []
    plain = without_praise(text)
    variants = [text, without_asides(text), plain, gerund, *fewer, *_modifier_drops(text), *_modifier_drops(gerund),
                *_modifier_drops(plain), *[d for v in fewer for d in _modifier_drops(v)], *cuts]
    variants += [said for v in variants if action and (said := as_infinitive(v))]
    for variant in variants:
        thin = action and (vague(variant.split(maxsplit=1)[-1]) or _thin_object(variant)
                           or evaluation_only(variant))
        # a list cut short: "an analysis of language, relevance, dependency", "X, Y [and Z]"
        cut_list = "," in variant and bool(re.match(r",|\s+(?:and|or)\b", text.removeprefix(variant)))
        listed = variant != text and (variant.count(",") >= 2 or cut_list)
        whole = phrase_complete(variant) and _ends_whole(variant)
        if variant not in out and whole and not thin and not listed:
            out.append(variant)
    done = what_is_shown_done(text) if action else ""  # "show how to enhance X": "enhance X", compressed
    if done:
        out += [v for v in _compressions(done, action) if v not in out]
    return tuple(out)
