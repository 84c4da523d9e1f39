"""What the draft says its own work does, read from its abstract: the aspects the offline
writer relates each theme to ("our system retrieves candidate papers ...")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from relatex.analysis.claims.rhetorical_roles import BACKGROUND, CONCLUSION, RESULT, classify_sentences
from relatex.analysis.claims.topic_claims import singular
from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.agreement import adverb, singular_action, third_person
from relatex.writing.appositives import RELATIVE
from relatex.writing.contribution_extract import mask_inner_periods, unmask
from relatex.writing.contributions import (
    CONTRIBUTION,
    VERB_CLASSES,
    keeps_case,
    sentences_of,
    shorten,
)
from relatex.writing.phrase_ends import DANGLING, IDIOM_NOUNS, dangling_end
from relatex.writing.title_topics import ARTEFACT_HEADS


@dataclass(frozen=True)
class DraftAspect:
    """One thing the draft says it does, for relating a theme to it.

    ``kind`` is ``"action"`` (``text`` is a verb phrase agreeing with ``subject``: "our system"
    + "retrieves candidate papers ..."), ``"clause"`` (a whole clause: "a checker flags ...") or
    ``"finding"`` (a clause of a result or conclusion sentence: "the learnt representations are useful
    in ...", a finding of the work, not a part of its design).
    """

    kind: str
    subject: str
    text: str


# verbs a draft says its own work with, beyond those read from cited papers ("this paper surveys ...")
DRAFT_VERBS: dict[str, str] = {**VERB_CLASSES, "devise": "propose", "survey": "study", "outline": "describe",
                               "derive": "propose", "approach": "study", "establish": "show"}
# verb classes with which a draft builds what it may name ("we propose a model named BGCN") ...
_BUILDING = frozenset({"propose", "describe"})
# ... or makes at all: in "we propose a model that ...", the model is the draft's own ("our model");
# in "we study X, which ...", X is not
_MAKING = _BUILDING | {"define", "release"}
# ... and its perfect ("we have developed") and a few more adverbs ("we additionally show"); never "we have
# previously / recently ...": that is the authors' earlier work
_MORE_ADVERBS = (r"(?:ha(?:ve|s)\s+)?(?:additionally\s+|briefly\s+|specifically\s+|formally\s+|"
                 r"carefully\s+|")
DRAFT_CONTRIBUTION = re.compile(
    CONTRIBUTION.pattern.replace("(?P<verb>", "(?P<verb>" + "".join(f"{v}|" for v in DRAFT_VERBS
                                                                     if v not in VERB_CLASSES), 1)
    .replace(r"(?:also\s+|", _MORE_ADVERBS + r"also\s+|", 1), CONTRIBUTION.flags)
# words ending in "s" that are no verb ("within and across word classes", "and its ...")
_NO_VERB_AHEAD = r"(?!(?:across|towards|as|its|this|thus|plus|less|unless|whereas|besides|always|perhaps|" \
                 r"sometimes|afterwards|various|numerous|previous|us)\b)"
_THIRD_PERSON_SPLIT = re.compile(rf",\s+(?:and\s+)?(?={_NO_VERB_AHEAD}[a-z]+s\b)|"
                                 rf"\s+and\s+(?={_NO_VERB_AHEAD}[a-z]+s\s)")
_CLAUSE_SUBJECT = re.compile(r"^(?:a|an|the|our|its)\s+[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2}?\s+"
                             r"(?:(?:then|also|finally|first)\s+)?(?:[a-z]+s|is\s+\w+ed|are\s+\w+ed)\b", re.I)
_BARE_SUBJECT = re.compile(r"^[a-z][\w\-]*(?:\s[a-z][\w\-]*){0,3}\s[a-z]+s\s(?:the|a|an|all|most)\s", re.I)
_SUBORDINATE = re.compile(r"^(?:although|though|while|whereas|since|because|if|when|as|unless|it|this|these|they|"
                          r"such|(?:the (?:first|second|third|former|latter|other)|both)(?![\w-])|"  # which, unseen
                          r"the (?:objective|goal|aim|task|problem|purpose) is|"
                          r"(?:a|the|our) (?:(?:key|main|major|primary) )?"
                          r"(?:contribution|novelty|idea|insight)s? (?:is|are|lies|lie))\b",
                          re.I)  # "a key contribution is in ...": not what the work does
# a sentence citing other work speaks of that work ("In Lin and Och (2004), we proposed ..."), not the draft's
_CITES_OTHER_WORK = re.compile(r"\[\d+(?:\s*[,\u2013-]\s*\d+)*\]|\b[A-Z][a-z]+(?:\s+(?:and|&)\s+[A-Z][a-z]+|"
                               r"\s+et\s+al\.?)?,?\s+\(?(?:19|20)\d\d[a-z]?\)")
# a parenthetical citation names a source of what the draft does; the sentence still says what it does
_PAREN_CITATION = re.compile(r"\s*\((?:see\s+)?[A-Z][^()]{0,120}?,?\s(?:19|20)\d\d[a-z]?\)")
# the draft's own artefact as the subject after a lead-in, in a sentence that reads as background
_OWN_SUBJECT = re.compile(r",\s+(?P<subject>our\s+(?:[a-z][\w-]*\s+){0,2}?(?P<kind>[a-z]+))\s+"
                          r"(?P<action>(?:is|are|[a-z]+s)\s.+)$")
_LEAD_IN = re.compile(r"^(?:on|in|for|with|across|using|through|[a-z]{3,}ing)\s[^,]{3,80},\s*", re.I)


def _cap_clause(text: str, max_words: int = 20) -> str:
    """A clause of the draft short enough to quote whole, else its part before the first comma or
    before its relative clause, else nothing (a clause cut mid-way says something the draft does not)."""
    words = text.split()
    if len(words) > max_words:  # before its first comma, else before its relative clause (a whole clause)
        before_comma = text.split(", ")[0].split()
        after = words[len(before_comma)] if len(before_comma) < len(words) else ""
        if before_comma and after and is_adjective_like(before_comma[-1]) and is_adjective_like(after):
            before_comma = []  # "a large, unlabeled corpus": a comma between two adjectives ends no clause
        relative = re.split(r"\s(?:that|which|who|whose|where)\s", text)[0]
        if re.search(r"\bthe\s+[\w-]+$", relative):
            relative = ""  # "estimate the error [that such missing data causes]": the clause says which
        heads = [before_comma, relative.split(),
                 re.split(r"\s(?:by|with|using|through|via)\s", text)[0].split()]  # before how it is done
        head = next((h for h in heads if 5 <= len(h) <= max_words), None)
        if head is None:
            return ""
        words = head
    while words and words[-1].lower().strip(",;:") in DANGLING and not (
            words[-1].lower() in IDIOM_NOUNS and not dangling_end(words)):  # "query terms", not "in terms"
        words.pop()
    return " ".join(words).strip(" ,;:")


_DRAFT_VERB_ALT = "|".join(sorted(DRAFT_VERBS, key=len, reverse=True))
_AND_VERB = re.compile(rf"(?:^|,?\s+)and\s+(?:also\s+|then\s+)?(?P<verb>{_DRAFT_VERB_ALT})(?:s|es|d|ed)?"
                       r"(?:\s+on\b)?\s+(?P<rest>(?!of\b).+)", re.I)
# "we collected and analyzed X": analyze X; as CONTRIBUTION does, "on" after the verb ("and focus on X")
# is read with the verb; "and use of X" is a noun
_PRONOUN_OBJECT = re.compile(r"\s*(?:that\s+)?(?:it|they|these|those|this|he|she)\b", re.I)


def _coordinated(verb: str, rest: str) -> list[tuple[str, str]]:
    """The actions of one sentence: "we argue that X, and propose Y" gives (argue, that X) and
    (propose, Y); verbs sharing their object stay together ("we collected and analyzed X": (collect
    and analyze, X)); an action whose object is a pronoun ("and argues that they ...") says nothing."""
    out = []
    while (second := _AND_VERB.search(rest)) is not None:
        if second.start() > 0:
            out.append((verb, rest[: second.start()]))
            verb = second.group("verb").lower()
        else:
            verb = f"{verb} and {second.group('verb').lower()}"
        rest = second.group("rest")
    out.append((verb, rest))
    return [(v, r) for v, r in out if not _PRONOUN_OBJECT.match(r)]


# "we present here X"; "we use X and are looking for Y": the second verb phrase is no object of the first
_OWN_OBJECT = re.compile(r"^(?:here|so far|thus far|in this (?:paper|article|work))\s+|"
                         r"\s+and\s+(?:are|were|have|had)\b.*$", re.I)


def _own_clause(before: str, rest: str) -> bool:
    """Whether "we <verb>" opens a clause of its own: not inside a noun phrase ("the system we have
    developed is ...", "the one we describe, ..."), not before another verb ("and experimented X")."""
    words = rest.split()
    if not words or rest[0] in ",;" or words[0].lower() in {"since", "so", "because", "is", "are", "was",
                                                              "were"}:
        return False
    if words[0].lower() == "and" and len(words) > 1 and words[1].lower().endswith("ed") \
            and not _AND_VERB.match(rest):
        return False  # "we have designed and experimented novel kernels": "design and experimented"
    before = before.strip()
    return not (_NOUN_BEFORE.search(before) and not _LEAD.match(before))


_NOUN_BEFORE = re.compile(r"\b(?:the|a|an|this|that|these|those|our|its|their|each|every|which)\s+"
                          r"(?:[\w-]+\s+){0,3}"
                          r"(?!(?:paper|work|article|study|thesis|section|chapter|note|year|time|end|"
                          r"of|in|on|for|to|with|by|from|at|as|than)$)[\w-]+$", re.I)
_LEAD = re.compile(r"^(?:on|in|for|with|using|to|by|after|before|while|when|from|as|through|based|given|"
                   r"[a-z]+ing)\b", re.I)  # "Considering phrases that ... trees we develop X"


def _complete(text: str) -> bool:
    """Not cut at an abbreviation ("unbiased w.") or inside brackets or dashes."""
    last = text.split()[-1] if text.split() else ""
    return (len(last) > 2 or last.lower() in {"it", "us", "ai", "ir", "ml"}) and text.count("(") == text.count(")") \
        and " - " not in text and "--" not in text


# how a work is tested, not what it contributes: no contrast with other work can rest on it
_EVALUATION_VERBS = frozenset({"evaluate", "conduct", "perform", "report", "run", "carry", "validate", "test",
                               "benchmark", "compare", "experiment", "assess", "outperform"})
_EVALUATION_OBJECTS = frozenset({"experiment", "experiments", "experimental", "evaluation", "evaluations", "empirical",
                                 "set", "series", "results", "comparison", "comparisons", "a", "an", "the", "our",
                                 "extensive", "comprehensive", "thorough", "detailed", "large-scale", "several",
                                 "number", "of", "initial", "preliminary", "systematic", "careful", "rigorous"})


_COMPARATIVE = re.compile(r"\b(?:as\s+\w+\s+as|(?!rather\b|other\b)\w+er\s+(?:(?!rather\b)[a-z]+\s+)?than|"
                          r"(?:more|less)\s+\w+\s+than|"
                          r"better|outperforms?|superior\s+to|state[- ]of[- ]the[- ]art)\b")


def evaluation_only(action: str) -> bool:
    """An action that only says how the draft's work is tested ("conduct experiments on four
    datasets", "provide an experimental evaluation of our approach"), or that lacks its object
    ("show in this paper"): true of any paper, so it cannot set the draft apart."""
    if _COMPARATIVE.search(action.lower()):
        return True  # "is twice as accurate as the state of the art": a result against others, no aspect
    words = action.lower().split()
    while len(words) > 1 and adverb(words[0]):
        words = words[1:]  # "significantly outperforms ...": the verb follows its adverb
    if not words:
        return True
    rest = [w for w in words[1:] if not w.rstrip(",").endswith("ly")] or words[1:]  # "show empirically, on ..."
    verb = words[0]
    forms = {verb} | ({verb[:-1], verb[:-2]} if re.search(r"(?:s|ed)$", verb) else set())  # "reports", "compared"
    if forms & _EVALUATION_VERBS:
        return not rest or rest[0] not in {"whether", "if", "how", "why", "what"}  # a question is an objective
    if len(rest) > 1 and rest[0] == "to" and rest[1] not in {"the", "a", "an", "our", "this", "these", "its", "their"}:
        return False  # "propose to improve the estimation of ...": what is proposed, as an infinitive
    if verb.startswith("focus") and rest[:1] == ["on"]:
        rest = rest[1:]  # "focuses on X": X is what it focuses on
    if not rest or rest[0] in {"in", "on", "at", "for", "with", "by", "to", "here", "through", "via", "using",
                               "across", "over", "from"}:
        return True  # "show in this paper": the verb without what is shown
    head = rest[: next((i for i, w in enumerate(rest) if w in {"of", "on", "in", "for", "with", "by"} and i), len(rest))]
    if head and head[-1] in {"set", "series", "number"} and rest[len(head):len(head) + 1] == ["of"]:
        return evaluation_only(" ".join([verb, *rest[len(head) + 1:]]))  # "a set of experiments"
    return all(w in _EVALUATION_OBJECTS for w in head)


# "we aim to investigate X" says what the work does as "we investigate X" does
_AIM = re.compile(r"\b(we|this (?:paper|work|study|article)|our (?:paper|work|study))\s+"
                  r"(?:(?:will|shall|ha(?:ve|s))\s+)?(?:aims?|seeks?|attempts?|sets? out)\s+to\s+(?=[a-z])",
                  re.I)  # "this paper will attempt to establish", "we have set out to find"
_NAME = r"(?P<name>[A-Z][\w-]*[A-Z0-9][\w-]*|[A-Z][a-z]{3,})"
# the draft naming what it builds: "a model named BGCN", "a framework (DeepCT)", "propose Choppy, a model"
_NAMING = (re.compile(rf"\b(?P<head>[a-z]+),?\s+(?:named|called|dubbed|termed)\s+{_NAME}\b"),
           re.compile(rf"\b(?P<head>[a-z]+)\s+\({_NAME}\)"),
           re.compile(rf"\b(?:propose|present|introduce|develop)\s+{_NAME},\s+(?:a|an)\s+"
                      r"(?:[\w-]+\s+){0,4}?(?P<head>[a-z]+)\b"
                      r"(?=\s+(?:based|that|which|for|to|of|with)\b|[,.]|$)"))
_ARTEFACT_KINDS = ARTEFACT_HEADS | {"app", "application", "toolkit", "resource"}
# a title naming the draft's artefact before its subtitle: "Joshua: An Open Source Toolkit for ...",
# "TnT - A Statistical Part-of-Speech Tagger"; the subtitle's head (before its first preposition) says
# its kind
_TITLE_NAME = re.compile(r"^(?P<name>[A-Z][\w'-]*)\s*(?::|\s-\s)\s*(?:(?:a|an|the)\s+)?(?P<rest>.+)$")
_HEAD_END = re.compile(r"\s(?:for|of|to|with|in|on|at|based|using|via|that|from)\s|[,;]", re.I)
# what a named artefact does, not how it compares: a result is no aspect to contrast a theme with
_RESULT_VERBS = frozenset({"improves", "outperforms", "achieves", "yields", "increases", "reduces", "boosts",
                           "enhances", "beats", "surpasses", "obtains", "is", "was", "has", "does", "needs"})


def _artefact_names(sentences: list[str]) -> dict[str, str]:
    """The names the draft gives what it builds, each with its kind ("BGCN" -> "model"), where it
    says it builds it ("we propose a model named BGCN"; not "we use a language model (BERT)")."""
    names: dict[str, str] = {}
    for sentence in sentences:
        built = DRAFT_CONTRIBUTION.search(sentence)
        if built is None or DRAFT_VERBS[built.group("verb").lower()] not in _BUILDING:
            continue
        for pattern in _NAMING:
            for found in pattern.finditer(built.group(0)):
                if found.group("head") in _ARTEFACT_KINDS:
                    names.setdefault(found.group("name"), found.group("head"))
    return names


def _title_artefact(title: str, text: str) -> dict[str, str]:
    """The name a draft's title gives its artefact, with its kind ("Joshua: An Open Source Toolkit
    for ..." -> {"Joshua": "toolkit"}); empty when the subtitle's head names no artefact, or when
    the name is a word the abstract (``text``) also writes in lower case ("Search: A Tool for ...":
    "search" is no name, and "Search engines ..." is not what the tool does)."""
    found = _TITLE_NAME.match(" ".join(title.split()))
    if found is None or re.search(rf"\b{re.escape(found.group('name').lower())}\b", text):
        return {}
    head = _HEAD_END.split(f" {found.group('rest')} ", maxsplit=1)[0].split()
    kind = singular(head[-1].lower()) if head else ""
    return {found.group("name"): kind} if kind in _ARTEFACT_KINDS else {}


def _named_action(sentence: str, names: dict[str, str]) -> DraftAspect | None:
    """"BGCN unifies X into Y" as what "our model" does, where the draft named its model BGCN; so
    is "The model unifies ..." (the draft's own model, named or not, is the one it speaks of)."""
    for name, head in names.items():
        found = re.match(rf"(?:{re.escape(name)}|(?:The|This)\s+{re.escape(head)})\s+(?:also\s+)?"
                         r"(?P<action>(?P<verb>[a-z]+s)\s+.+)$", sentence)
        if found and found.group("verb") not in _RESULT_VERBS:
            action = _cap_clause(found.group("action"))
            if len(action.split()) >= 3 and _complete(action) and not evaluation_only(action):
                return DraftAspect("action", f"our {head}", action)
    return None


# where in the draft something is said ("provide a definition in the next section"): no part of the work
_PAPER_LAYOUT = re.compile(r"\bin\s+(?:the\s+)?(?:next|following|previous|last|later)\s+sections?\b|"
                           r"\bin\s+sections?\s+\d", re.I)


def draft_aspects(abstract: str, title: str = "") -> list[DraftAspect]:
    """What the draft's abstract says its work does, one aspect per coordinated action or clause:
    "We present a system that reads X, retrieves Y and selects Z" gives three actions of "our
    system"; "A checker flags citations ..." gives a clause. Background sentences (by their
    rhetorical role) give none: they describe the field, not the draft's work, unless their subject
    is the artefact the draft names (in its ``title`` or its abstract) or its kind ("the toolkit")."""
    text = re.sub(r"\\cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{[^{}]*\}", "[0]", abstract or "")  # a citation stays visible
    text = re.sub(r"\\[a-zA-Z]+\*?(?:\{\})?", lambda m: m.group(0)[1:].replace("{}", ""), text)
    text = " ".join(text.replace("{", "").replace("}", "").split())
    out: list[DraftAspect] = []
    sentences = sentences_of(text)
    names = {**_title_artefact(title, text), **_artefact_names(sentences)}
    for sentence, role in zip(sentences, classify_sentences(sentences), strict=True):
        sentence = _PAREN_CITATION.sub("", sentence)  # "... the pairwise approach (Herbrich et al., 1999)"
        if _CITES_OTHER_WORK.search(sentence):
            continue  # a cited work, not the draft's
        sentence = _AIM.sub(r"\1 ", mask_inner_periods(sentence.strip()).rstrip("."))  # "e.g." ends no phrase
        if named := _named_action(sentence, names):
            out.append(named)
            continue
        if role == BACKGROUND:
            own = _OWN_SUBJECT.search(sentence)  # "In contrast to much current work, ..., our system is ..."
            if own and own.group("kind") in _ARTEFACT_KINDS:
                action = _cap_clause(own.group("action"))
                if len(action.split()) >= 2 and _complete(action) and not evaluation_only(action):
                    out.append(DraftAspect("action", own.group("subject"), action))
            continue  # the field and its gaps ("relevance is an essential concept"), not the draft's work
        match = DRAFT_CONTRIBUTION.search(sentence)
        if match:
            rest = re.sub(r"\s*\([^()]{0,60}\)", "", match.group("rest"))
            rest = _OWN_OBJECT.sub("", rest).split(":")[0]  # "five grammars: Catalan, ...": the list left out
            if not _own_clause(sentence[:match.start()], rest):
                continue  # "the system we have developed is ...": the draft's work as a subject
            head = shorten(rest, 6)
            relative = RELATIVE.match(rest[len(head):]) if rest.lower().startswith(head.lower()) else None
            if relative and relative.group("rel").lower() not in {"that", "which"}:
                relative = None
            if relative and DRAFT_VERBS[match.group("verb").lower()] not in _MAKING:
                rest, relative = head.split(",")[0], None  # "we investigate causal retrieval": a topic
            if relative:
                noun = re.sub(r"^(?:a|an|the)\s+", "", head, flags=re.I)
                kind = noun.split(" of ")[0]  # "a method of unknown word tagging which ...": our method
                if len(noun.split()) > 3 and len(kind.split()) <= 2 and kind.split()[-1] in _ARTEFACT_KINDS:
                    noun = kind
                subject = f"our {noun}" if 0 < len(noun.split()) <= 3 else "our work"
                for part in _THIRD_PERSON_SPLIT.split(relative.group("body")):
                    part = _cap_clause(part)
                    first = part.split()[0].lower() if part.split() else ""
                    if first in {"it", "they", "this", "these", "we", "which", "that"}:
                        continue  # "..., and it is extendable": a new clause, not the noun's action
                    if subject == "our work":
                        part = singular_action(part) or part  # "(models) that mitigate": "our work mitigates"
                    if len(part.split()) >= 3 and _complete(part) and not evaluation_only(part):
                        out.append(DraftAspect("action", subject, part))
                continue
            subject = "we" if match.group(0).lower().startswith("we ") else "our work"  # "this paper proposes"
            for verb, said in _coordinated(match.group("verb").lower(), rest):
                said = f"on {said}" if verb == "focus" else said  # the pattern reads "focus on" as the verb
                base = f"{verb} {said}"  # "describe and evaluate X": "our work describes and evaluates X"
                said = base if subject == "we" else singular_action(base) or f"{third_person(verb)} {said}"
                action = _cap_clause(said)
                if len(action.split()) >= 3 and _complete(action) and not evaluation_only(action):
                    out.append(DraftAspect("action", subject, action))
            continue
        sentence = _LEAD_IN.sub("", sentence)
        for part in re.split(r",\s+and\s+|;\s+", sentence):
            if _SUBORDINATE.match(part):
                continue  # "although memorization is ...", "it reduces ...": not a clause to stand alone
            if _CLAUSE_SUBJECT.match(part) or _BARE_SUBJECT.match(part):
                part = re.sub(r"\s(?:then|also|finally)\s", " ", part)
                clause = _cap_clause(part[:1].lower() + part[1:] if not keeps_case(part.split()[0]) else part)
                # "extends the state-of-the-art architecture": what the method builds on, no comparison
                plain = re.sub(r"\bthe state-of-the-art\s+(?=[a-z])", "the ", clause.lower())
                compared = _COMPARATIVE.search(plain)
                # "the values are shown in the table": the paper's layout, not its work
                layout = re.search(r"\b(?:tables?|figures?|fig|sections?)\b", clause, re.I)
                if len(clause.split()) >= 4 and _complete(clause) and not compared and not layout:
                    out.append(DraftAspect("finding" if role in {RESULT, CONCLUSION} else "clause", "", clause))
    return [DraftAspect(a.kind, a.subject, unmask(a.text)) for a in out if not _PAPER_LAYOUT.search(a.text)]
