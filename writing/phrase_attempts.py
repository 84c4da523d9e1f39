"""The ways to say a paper's contribution, best first: the phrase as the abstract gives it,
then without its asides, then cuts at whole modifiers; a bare kind of thing ("a recommendation
method") completed by its title's purpose, or said only after the title."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from relatex.analysis.claims.topic_claims import singular
from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.agreement import third_person
from relatex.writing.appositives import gerund_of, is_bare_appositive
from relatex.writing.contributions import (
    Contribution,
    cut_before_of,
    keeps_case,
    shorten,
    without_asides,
)
from relatex.writing.phrase_variants import lowered_expansions, name_first, without_generic_modifier
from relatex.writing.sentence_checks import LIST_JOIN, MODIFIER_STARTS
from relatex.writing.title_coverage import thin_beside_title
from relatex.writing.title_topics import paper_topic, title_purpose


def usable_method(contribution: Contribution) -> bool:
    """A method phrase worth a sentence: a short noun phrase not already said."""
    method = contribution.method
    words = method.split()
    if not 2 <= len(words) <= 6 or method.lower() in contribution.phrase.lower():
        return False
    if words[0].lower() in {"their", "them", "they", "it", "this", "these", "which", "that", "such"}:
        return False
    if words[1].lower() in {"the", "a", "an", "its", "their", "our", "this", "these", "each"}:
        return False  # "measures the proximity of nodes": a verb and its object, not a noun phrase
    if singular(words[-1].lower()) in _GENERIC_WAYS and all(
            is_adjective_like(w) or w.lower() in {"a", "an", "the"} for w in words[:-1]):
        return False  # "It builds on fully automated approaches": no way of doing it is named
    return not re.search(r"\b(called|named|is|are|was|were|can|to|they|it|have|has|we)\b", method, re.I)


_GENERIC_WAYS = frozenset({"approach", "method", "technique", "way", "solution", "strategy"})


def attempts(contribution: Contribution, title: str = "") -> list[Contribution]:
    """The contribution as it should be said, then ever safer versions: the alternative
    phrasings (appositive completed differently), without asides and a generic modifier
    (:mod:`relatex.writing.phrase_variants`), and shorter cuts, each first with and then
    without the result and method sentences; then the name alone, the abstract's next contribution
    (:attr:`Contribution.second`) and the title; never a bare head noun. A bare
    kind of thing ("a two-stage learning framework") is completed by its title's purpose first; a
    phrase thinner than the title (:func:`thin_beside_title`) comes after the title's sentence."""
    variants = list(contribution.variants or ("",))
    later: list[Contribution] = []
    variants += [n for n in map(name_first, variants[:1]) if n and n not in variants]  # "SetRank, a model"
    if contribution.verb == "show":  # "find X" without "that", then (a finding cut short is wrong) the title
        good = [replace(contribution, phrase=v) for v in variants] + [
            replace(contribution, phrase=v, verb="show_bare") for v in variants]
        weak = [replace(contribution, phrase="")]
    elif contribution.alternatives:  # a completed appositive: its variants, the name alone, then the title
        variants += [r for v in list(variants) for r in (purpose_as_gerund(v), purpose_as_clause(v))
                     if r not in variants]
        good = [replace(contribution, phrase=v) for v in variants if "," in v or not is_bare_appositive(v)]
        weak = [replace(contribution, phrase=v) for v in variants if v not in {g.phrase for g in good}]
        weak.append(replace(contribution, phrase=""))
    else:  # the phrase, then without its asides ("(SMT)", "dynamically"), then cuts of both, longest first
        plain = without_asides(lowered_expansions(variants[0], contribution.entities))  # "deep" of "DRE" too
        sources = list(dict.fromkeys([variants[0], plain, without_generic_modifier(plain), *variants[1:]]))
        sources += [g for g in map(purpose_as_gerund, sources) if g not in sources]  # "to enhance" -> "for enhancing"
        sources += [g for g in map(purpose_as_clause, sources) if g not in sources]  # "that rates"
        if contribution.verb == "study":  # "study the problem of ranking X" -> "study how to rank X"
            sources += [g for g in map(problem_as_how, sources) if g not in sources]
        good = [replace(contribution, phrase=s) for s in sources if not _bare_kind(s)]
        later = [replace(contribution, phrase=s) for s in sources if _bare_kind(s)]  # "a recommendation method"
        for max_words, source in itertools.product((10, 8, 6, 4), sources):
            short = shorten(source, max_words)
            if is_bare_appositive(short) and not is_bare_appositive(source):
                short = short.split(",")[0]  # "SciBERT, a model" says less than "SciBERT"
            ranked = _RANKED.search(short) if short != source else None
            if ranked:  # "the first open source library [for ranking problems]"
                short = short.split(",")[0] if "," in short[: ranked.start()] else ""
                if not short:
                    continue  # cut, a claim of being first or best says more than the paper does
            if cut_before_of(source, short) or not _cut_at_boundary(source, short):
                continue  # "the design and evaluation | of PrefMiner": the noun is left empty
            kept = (short == source and not _bare_kind(short)) or says_more_than_a_kind(short)
            (good if kept else later).append(replace(contribution, phrase=short))
        weak = [replace(contribution, phrase="")]  # nothing sayable: the title
    good = [c for g in good for c in (_with_purpose(g, title), g) if c]
    out = good + [c for c in map(_with_purpose, later, itertools.repeat(title)) if c]
    out += [c for c in later if _says_a_finding(c)]  # a bare kind of thing with its finding ...
    out += [replace(c, method="", result="") for c in good]
    if contribution.second:  # the abstract's next contribution, its ways that come before its own title
        second = attempts(contribution.second, title)
        out += list(itertools.takewhile(lambda c: bool(c.phrase), second))
    out += [replace(c, method="", result="") for c in weak]  # ... or the title say more than the bare kind alone,
    out += [replace(c, method="", result="") for c in later]  # which is still better than a citation list
    ways = list(dict.fromkeys(out))
    thin = [c for c in ways if thin_beside_title(c.phrase, title)]
    if thin and paper_topic(title):  # else a thin phrase still says more than a citation list
        return _title_before_thin(ways, thin, replace(contribution, phrase="", method="", result=""))
    return ways


def _title_before_thin(ways: list[Contribution], thin: list[Contribution], by_title: Contribution) -> list[Contribution]:
    """The attempts with the thin ones ("develop similarity matching") moved just after the title's
    sentence, which says more: they stay the fallback when that sentence is refused. The title's
    place is its own (after the better phrasings) or, when absent, the first thin attempt's."""
    at = ways.index(by_title) if by_title in ways else ways.index(thin[0])
    before = [c for c in ways[:at] if c not in thin]
    after = [c for c in ways[at:] if c not in thin and c != by_title]
    return before + [by_title] + thin + after


def _says_a_finding(contribution: Contribution) -> bool:
    """Whether a result or method sentence will follow the phrase (as :func:`_paper_sentence` says them)."""
    result = contribution.result
    return bool(result) and result.lower() not in contribution.phrase.lower() or usable_method(contribution)


def _bare_kind(phrase: str) -> bool:
    """"a recommendation method", "consistent and automatic approaches": an indefinite noun phrase
    that names only a kind of thing."""
    words = phrase.lower().split()
    indefinite = bool(words) and (words[0] in {"a", "an"} or words[-1] in _PLURAL_KINDS)
    return indefinite and not says_more_than_a_kind(phrase)


_PLURAL_KINDS = frozenset({"approaches", "methods", "models", "techniques", "algorithms", "frameworks", "systems",
                           "solutions", "tools", "strategies", "architectures", "methodologies"})


def _with_purpose(contribution: Contribution, title: str) -> Contribution | None:
    """A bare kind of thing completed by what its title says it is for ("a simple and heuristic
    model for effective pseudo relevance feedback"), or None."""
    phrase = contribution.phrase
    if not title or not _bare_kind(phrase):
        return None
    purpose = title_purpose(title, phrase)
    return replace(contribution, phrase=f"{phrase} {purpose}") if purpose else None


def says_more_than_a_kind(phrase: str) -> bool:
    """A cut that still names something ("Caser", "a model for next-item prediction"), not only the
    kind of thing a paper offers ("a software solution", "a latent variable model"): what it is for was cut."""
    words = phrase.split()
    return "," in phrase or any(w.lower() in _NAMING_MODIFIERS for w in words[1:]) or any(
        keeps_case(w) for w in words)


_NAMING_MODIFIERS = MODIFIER_STARTS - {"and"}  # "algorithms and methods" still names only kinds


# a claim of rank ("the first ...", "the largest ..."): true only with what it is first or largest in
_RANKED = re.compile(r"\bthe\s+(?:first|only|largest|biggest|best|fastest|smallest|most|highest|lowest)\b", re.I)


def _cut_at_boundary(phrase: str, short: str) -> bool:
    """Whether ``short`` drops a whole modifier or clause of ``phrase`` (it ends where a
    preposition, a relative clause or a comma begins), not words in the middle of a noun phrase."""
    if short == phrase:
        return True
    if not phrase.startswith(short):
        return False
    rest = phrase[len(short):].lstrip()
    following = rest.split()[0].lower() if rest.split() else ""
    if following in {"and", "or"} and short.split() and is_adjective_like(short.split()[-1]):
        return False  # "language models for informational | and navigational web search"
    if following == "and" and re.search(r"\bbetween\b(?!.*\band\b)", short, re.I):
        return False  # "the relationships between users' cognitive styles | and their web searching"
    if following == "based" and not re.match(r"based\s+(?:on|upon)\b", rest, re.I):
        return False  # "an extension of a machine learning | based coreference resolution system": one modifier
    return rest.startswith(",") or following in MODIFIER_STARTS


def purpose_as_gerund(phrase: str) -> str:
    """The purpose of a thing said with "for" and a gerund ("a strategy to enhance long-tail
    recommendations" -> "a strategy for enhancing long-tail recommendations"): the same claim in
    other words, which breaks a run copied from the abstract; the phrase itself when there is none."""
    def gerund(match: re.Match[str]) -> str:
        preposition = "of" if match.group(1).lower() in {"way", "ways"} else "for"  # "a way of measuring"
        return f"{match.group(1)} {preposition} {gerund_of(match.group(2))}"
    return _PURPOSE.sub(gerund, phrase, count=1)


def purpose_as_clause(phrase: str) -> str:
    """The purpose of a thing said as a relative clause ("PageRank, a method for rating the
    importance of web pages" -> "PageRank, a method that rates the importance of web pages"): the
    same claim in other words, which breaks a run copied from the abstract; the phrase itself when
    it has no such purpose."""
    def clause(match: re.Match[str]) -> str:
        after = phrase[match.end():]
        if re.search(r"(?:,|\band|\bor)\s+\w+ing\b", after):
            return match.group(0)  # "for tagging and parsing": one verb would leave the other a gerund
        if not re.match(r"\s+\S", after) or _COMPOUND_HEAD.match(after):
            return match.group(0)  # "for identifying" without its object; "for rating prediction": a compound
        kind, base = match.group(1), _BASE_OF_GERUND[match.group(2).lower()]
        plural = kind.lower().endswith("s") and not kind.lower().endswith(("ss", "sis"))
        return f"{kind} that {base if plural else third_person(base)}"
    return _GERUND_PURPOSE.sub(clause, phrase, count=1)


def problem_as_how(phrase: str) -> str:
    """A problem of doing something said as how to do it ("the problem of representing and
    recommending products" -> "how to represent and recommend products"): the same question in
    other words, which breaks a run copied from the abstract; the phrase itself when it is none
    (a gerund this module does not know, or none with an object)."""
    found = _PROBLEM_OF.match(phrase)
    if not found:
        return phrase
    verbs = re.split(f"({LIST_JOIN})", found.group("verbs"))
    if any(_BASE_OF_GERUND.get(v.lower()) is None for v in verbs[::2]) or not found.group("rest"):
        return phrase
    bases = [_BASE_OF_GERUND[v.lower()] if i % 2 == 0 else v for i, v in enumerate(verbs)]
    return f"how to {''.join(bases)}{found.group('rest')}"


# a noun after the gerund that makes the two one compound ("rating prediction"), unless an of-phrase follows
_COMPOUND_HEAD = re.compile(r"\s+[a-z]+(?:tion|sion|ment|ance|ence|ness|ity)\b(?!\s+of\b)")


# verbs that follow a thing's "to" as its purpose ("a model to predict ..."), not a preposition's noun
_PURPOSE_VERBS = frozenset("""enhance improve rank rerank predict detect identify capture model learn reduce
    increase address solve support help estimate generate extract classify recommend find measure evaluate
    assess handle exploit leverage combine integrate represent encode retrieve answer explain select filter
    compute infer discover mitigate alleviate overcome tackle optimize optimise compare bridge transfer
    reformulate expand personalize personalise summarize summarise cluster annotate label segment translate
    align parse visualize visualise recognize recognise track diversify incorporate utilize utilise balance
    control maximize minimize simulate understand analyse analyze characterize quantify determine distinguish
    differentiate localize enable build construct create design train tune correct verify validate boost
    facilitate automate remove prevent resolve produce induce acquire harvest disambiguate tag rate score
    weight sort index match link mine""".split())
_KINDS = (r"(approach|approaches|method|methods|model|models|framework|technique|techniques|"
          r"strategy|strategies|system|algorithm|algorithms|tool|solution|mechanism|architecture|"
          r"scheme|procedure|metric|measure|network|pipeline|parser|parsers|tagger|taggers|"
          r"classifier|classifiers|decoder|grammar|grammars|module|component)")
_PURPOSE = re.compile(_KINDS[:-1] + r"|way|ways)\s+to\s+(" +
                      "|".join(sorted(_PURPOSE_VERBS, key=len, reverse=True)) + r")\b", re.I)
_BASE_OF_GERUND = {form: verb for verb in _PURPOSE_VERBS  # "model": "modeling" and "modelling"
                   for form in {gerund_of(verb), verb + "ling" if re.search(r"[aeiou]l$", verb)
                                else gerund_of(verb)}}
_GERUND_PURPOSE = re.compile(_KINDS + r"\s+for\s+(" +
                             "|".join(sorted(_BASE_OF_GERUND, key=len, reverse=True)) + r")\b", re.I)
_GERUND = r"[a-z]+ing"
_PROBLEM_OF = re.compile(rf"(?:the\s+)?(?:problem|question)\s+of\s+(?P<verbs>{_GERUND}(?:{LIST_JOIN}{_GERUND})*)"
                         r"(?P<rest>\s+(?!(?:and|or)\b)\S.*)?$", re.I)
