"""Reading one abstract into a :class:`~relatex.writing.contributions.Contribution`, by role.

The abstract is split by the abbreviation-aware splitter and each sentence gets its rhetorical
role (:mod:`relatex.analysis.claims.rhetorical_roles`). The contribution is read only from objective
(or, for a finding, result) sentences, never from background; the result only from result
sentences; the method only from method sentences. Surveys state no result or method of their
own. Inner periods ("e.g.", "U.S.") are masked while the phrase patterns run, so that a phrase
is never cut at an abbreviation.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

from relatex.analysis.claims.rhetorical_roles import (
    BACKGROUND,
    METHOD,
    OBJECTIVE,
    RESULT,
    paper_type,
    roled_sentences,
)
from relatex.retrieval.label_forms import LANGUAGES
from relatex.writing.agreement import adverb
from relatex.writing.appositives import descriptor_variants, gerund_of, is_bare_appositive
from relatex.writing.broken_words import truncated_words
from relatex.writing.contributions import (
    _BAD_RESULT_START,
    CONTRIBUTION,
    DATASET,
    EVALUATION_WORDS,
    GENERIC_WORDS,
    NAMED,
    OUTPERFORMS,
    PASSIVE,
    TASK,
    TASK_OF,
    VERB_CLASSES,
    Contribution,
    Relation,
    _fix_articles,
    has_finite_verb,
    shorten,
    with_article,
)
from relatex.writing.contributions import (
    METHOD as METHOD_PATTERN,
)
from relatex.writing.contributions import (
    RESULT as RESULT_PATTERN,
)
from relatex.writing.phrase_ends import GROUPING_COMMA, INNER_PERIOD

# the subject of a result credited to the paper's own approach ("our model outperforms ...")
_OWN_SUBJECT = re.compile(r"\b(?:our|the proposed|this|the new)\s+(?:[\w-]+\s+){0,3}?(?:approach|model|method|"
                          r"system|framework|algorithm|technique|architecture|parser|classifier)s?\b[^,;]{0,40}$", re.I)


_HEDGE = re.compile(r"\b(?:could|may|might|can|would|potentially|possibly|likely|expected|hope|aims?)\b", re.I)


# "emph{...}" with its backslash lost, "emphmulti-product" with its braces lost too (not "emphasis")
_FLATTENED_COMMAND = re.compile(r"\\?\b(?:texttt|textbf|textit|textsc|textrm|textsf|mathrm|mathcal|mathbf|"
                                r"emph(?!as|at|ys))(?:\{(?P<arg>[^{}]*)\}|(?=[A-Za-z0-9]))")
_CONCESSIVE = re.compile(
    r",?\s+(?:but|yet)\s+(?:(?:very|highly|surprisingly|also|still)\s+)?(?:effective|efficient|powerful|accurate|"
    r"robust|fast|scalable|practical|competitive|strong|elegant|general|flexible|useful|novel),?(?=\s+[a-z])",
    re.I)
# a place in the paper or its system said between the verb and its object ("in this paper", "in LIRE")
_WHERE_FIRST = re.compile(r"^\s*(?:in|within)\s+(?P<place>this\s+(?:paper|work|article|study)|"
                          r"(?:Section|Sect\.|§)\s*\d+|particular|detail|addition|[A-Z][\w-]*)\s*,?\s+"
                          r"(?=(?:a|an|the)\s)")
_ATTENTION = re.compile(r"^\s*(?:our|their|its|the)\s+(?:attention|efforts?|focus)\s+(?:on|to|upon)\s+", re.I)
_REPORT_HEAD = re.compile(
    r"(?:a|an|the|our|some|several)?\s*(?:[a-z-]+\s+){0,2}?"
    r"(?:results?|findings|evidence|analys[ie]s|stud(?:y|ies)|experiments?|work|overview|comparison|survey|review|"
    r"evaluation|observations?|insights?|lessons|discussion|summary|report)(?=\s+(?:of|on|in|into|for|to|that|with|"
    r"across|about|towards?)\b|\s*$|,)", re.I)


# the comma of a grouped number ("50,000 sentences"): the phrase patterns stop at commas
_GROUPING_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# a plural pronoun inside a phrase and the plural nouns that may come before it in the phrase
_PLURAL_PRONOUN = re.compile(r"\b(?:them|they)\b", re.I)
_PLURAL_NOUN = re.compile(r"\b[a-z][a-z-]{2,}(?<![su])s\b", re.I)


def mask_inner_periods(sentence: str) -> str:
    """The sentence with every period but a final one masked (abbreviations, decimals, initials),
    and the commas of grouped numbers ("50,000")."""
    body = _GROUPING_COMMA.sub(GROUPING_COMMA, sentence.rstrip())
    end = len(body) - 1 if body.endswith(".") else len(body)
    return body[:end].replace(".", INNER_PERIOD) + body[end:]


def unmask(text: str) -> str:
    return text.replace(INNER_PERIOD, ".").replace(GROUPING_COMMA, ",")


def _contribution(sentence: str, title: str, max_words: int, cut_clauses: bool) -> dict[str, object] | None:
    """The contribution phrase of one sentence ("we propose X"), or None."""
    match = CONTRIBUTION.search(sentence)
    if not match or len(match.group("rest").split()) < 2:
        return None
    source_verb = match.group("verb").lower()
    verb = VERB_CLASSES.get(source_verb, "propose")
    rest = re.sub(r"\s*\([^()]{0,60}\)", "", match.group("rest"))  # "(MMR)": asides
    where = _WHERE_FIRST.match(rest)  # "we propose in LIRE a way of ...": where it is said is no part of it
    if where and where.group("place").lower() not in LANGUAGES:  # "in English a parser" says which parser
        rest = rest[where.end():]
    rest = _CONCESSIVE.sub("", rest)  # "a simple and heuristic, but effective model": the praise goes, the noun stays
    rest = _fix_articles(re.sub(r"\bnovel\s+", "", rest, flags=re.I))  # puffery, and a copied run less
    doing = re.match(r"\s*to\s+(?!be\b)([a-z]+)\s+(\S.*)", rest)
    if doing and source_verb in {"propose", "suggest"}:  # "we propose to use X": "propose using X"
        rest, verb = f"{gerund_of(doing.group(1))} {doing.group(2)}", "propose_doing"
    if verb == "study":  # "we focus our attention on Web sites": what they study is the Web sites
        rest = _ATTENTION.sub("", rest)
    if verb == "propose" and _REPORT_HEAD.match(rest.strip()):
        verb = "describe"  # "we present results of ...", "our work towards ...": reported, not proposed
    if verb == "show" and re.match(r"(?:the|a|an|our|their|its|this|these)\s", rest.strip(), re.I):
        verb = "describe"  # "this paper reports on the first ...": a description, not a finding
    if not cut_clauses:  # the draft's own phrase: up to the first comma
        rest = rest.split(", ")[0]
    alternatives: tuple[str, ...] = ()
    if verb == "show":  # a clause: cut short it stops making sense, so keep it whole or not at all
        rest = re.sub(r"^that\s+", "", rest.strip(), flags=re.I)
        rest = re.split(r"\s(?:instead of|rather than|compared with|compared to)\s", rest)[0]
        phrase = shorten(rest, max(max_words, 12), cut_clauses=False, strict=True)
        if not has_finite_verb(phrase):  # "that structured search capabilities of X": cut short
            phrase = ""
    else:
        phrase = shorten(rest, max_words, cut_clauses=cut_clauses)
    phrase = re.sub(r"^(The|A|An|This|These|Our|Their)\b", lambda m: m.group(1).lower(), phrase)
    if re.match(r"(?:this|these|that|those|such|it|them)\b", phrase, re.I) or OUTPERFORMS.match(phrase) \
            or refers_outside(" ".join(rest.split()[: len(phrase.split())])):  # before "we" became "they"
        return None  # "study this question": means nothing out of context; try the next sentence
    if not phrase:
        return None
    if cut_clauses and verb != "show" and is_bare_appositive(phrase):
        variants = descriptor_variants(phrase, rest, title)
        if variants:
            phrase, alternatives = variants[0], tuple(variants[1:]) + (phrase,)
    return {"verb": verb, "phrase": phrase, "alternatives": alternatives, "source_verb": source_verb}


def refers_outside(phrase: str) -> bool:
    """Whether "them" or "they" in a phrase can only mean something of the abstract's earlier sentences:
    no plural noun comes before it in the phrase ("an approach to incorporate them into the framework")."""
    found = _PLURAL_PRONOUN.search(phrase)
    if not found:
        return False
    before = phrase[: found.start()]
    return not any(not re.search(r"\b(?:that|which|who|it)\s+$", before[: noun.start()], re.I)
                   for noun in _PLURAL_NOUN.finditer(before))  # "a loss that makes them": a verb, no noun


def contribution_of_sentence(sentence: str, title: str = "", max_words: int = 12) -> Contribution | None:
    """The contribution one (masked) sentence states, or None."""
    found = _contribution(sentence, title, max_words, True)
    if not found:
        return None
    return Contribution(verb=str(found["verb"]), phrase=unmask(str(found["phrase"])),
                        source_verb=str(found["source_verb"]))


def result_of_sentence(sentence: str) -> str:
    """The finding one (masked) result sentence states, or ""."""
    return unmask(_result(sentence))


def _result(sentence: str) -> str:
    """A finding of a result sentence: what "results show that" introduces, or what the paper's own
    approach "outperforms"; "" when the sentence does not credit the finding clearly."""
    match = RESULT_PATTERN.search(sentence)
    if match and not CONTRIBUTION.search(sentence[: match.start() + 3]):
        found = match.group("rest").split(" (")[0]  # "(e.g." asides end the finding
        candidate = shorten(found, 10, cut_clauses=False, strict=True) or shorten(found, 10, strict=True)
        words = candidate.split()
        if len(words) >= 3 and words[0].lower() not in _BAD_RESULT_START and has_finite_verb(candidate):
            return candidate
        return ""
    better = OUTPERFORMS.search(sentence)
    own = _OWN_SUBJECT.search(sentence[: better.start()]) if better is not None else None
    if better is None or own is None:
        return ""  # "X outperforms Y" with X a baseline: not this paper's finding
    if _HEDGE.search(own.group(0)):
        return ""  # "our method could potentially improve ...": said without the hedge it would overstate
    candidate = shorten(better.group(0), 9, strict=True)
    if len(candidate.split()) < 3:
        return ""
    head, _, tail = candidate.partition(" ")
    if not head.lower().endswith("s"):
        head += "es" if head.lower().endswith(("ch", "sh", "x")) else "s"
    return f"the approach {head} {tail}"


# a sentence about the field's work, not the paper's ("Most systems are optimized by using implicit feedback")
_OTHERS_WORK = re.compile(r"^(?:(?:however|but|yet|today|currently|traditionally|in practice),?\s+)?"
                          r"(?:most|many|existing|previous|prior|current|traditional|conventional|typical|"
                          r"standard|popular|earlier|classical|state-of-the-art)(?![\w-])", re.I)
# how the paper was tested ("we conduct experiments using X"): X is its data, not what its approach rests on;
# what it was compared with ("we compare our system with a system using X"): X is the other system's
_TESTED = re.compile(r"\b(?:experiments?|evaluat\w+|tested|tests|baselines?|comparisons?)\b"
                     r"|\b(?:we|they)\s+(?:\w+\s+)?compared?\b", re.I)  # not "Compared to X, we develop ..."
# what a sentence finds wanting in an approach ("A drawback of this approach is that ... while decisions
# can be based on ..."), or another approach set against the paper's with nothing of its own after it
# ("Unlike X, our approach is based on Y" is the paper's; "while using" is a time, not a contrast)
_CONTRAST = r"(?:while|whereas|although|unlike)"
_CRITIQUE = re.compile(r"\b(?:drawbacks?|limitations?|shortcomings?|disadvantages?|weakness(?:es)?)\b|"
                       rf"\b{_CONTRAST}\s+(?![a-z]+ing\b)"
                       r"(?:(?!\b(?:we|our|us)\b).)*$", re.I)


# the subject after a contrast ("Unlike other partitioning methods, CRISP is fit using ...")
_CONTRAST_SUBJECT = re.compile(rf"\b{_CONTRAST}\b[^,]*,\s*(?P<subject>[\w-]+(?:\s+[\w-]+){{0,2}})", re.I)


def _own_after_contrast(sentence: str, title: str) -> bool:
    """Whether the clause after a contrast is the paper's own: its subject is a name its title
    gives ("CRISP") or "this"/"the proposed" work."""
    found = _CONTRAST_SUBJECT.search(sentence)
    if not found:
        return False
    subject = found.group("subject")
    name = subject.split()[0]
    return bool(name[:1].isupper() and name.lower() not in {"the", "this", "it", "they", "these"}
                and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", title)) \
        or bool(re.match(r"(?:this|the proposed|the new)\s+(?:approach|method|model|system|framework|"
                         r"algorithm)", subject, re.I))


def _method(sentence: str, title: str = "") -> str:
    match = METHOD_PATTERN.search(sentence)
    if not match or EVALUATION_WORDS.search(match.group("rest")):
        return ""  # how the contribution works, not how it was evaluated
    critique = _CRITIQUE.search(sentence[:match.end()])
    if critique and re.match(_CONTRAST, critique.group(0), re.I) \
            and _own_after_contrast(sentence[:match.start()], title):
        critique = None  # the paper's own work set against others'
    if _OTHERS_WORK.match(sentence) or critique or _TESTED.search(sentence[:match.start()]):
        return ""  # what other work is based on, or what the paper was tested with ("experiments using X")
    before = sentence[:match.start()].split()
    if match.group(0).lower().startswith("based") and len(before) >= 2 and adverb(before[-1]) \
            and before[-2].lower() not in _COPULAS:
        return ""  # "adjusts the graph adaptively based on X": how one step is done, not what the approach is
    method = re.sub(r"^(?:only|just|simply|both)\s+", "", shorten(match.group("rest"), 6), flags=re.I)
    if _VERB_INSIDE.search(method) or re.search(r"[\\\[\]~|{}]|\w-\s", method) or _points_back(method) \
            or re.match(r"(?:more|less|fewer)\s", method, re.I):  # "the input", "more accessible X": which?
        return ""  # "[based on] Markov models performs at least", "the rule/\['-~7\]", "Inside- Outside"
    return _counted(method)


# singular heads of a method phrase that name one thing and take an article ("[a] question attention network")
_COUNTED_HEADS = frozenset({"algorithm", "model", "framework", "method", "approach", "technique", "classifier",
                            "network", "architecture", "layer", "module", "mechanism", "scheme", "strategy",
                            "procedure", "parser", "tagger", "encoder", "decoder", "function", "graph", "tree"})


_COPULAS = frozenset({"is", "are", "was", "were", "be", "been"})  # "is entirely based on X": what it rests on
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "its", "their", "our", "each",
                          "every", "any", "some", "one", "two", "three", "several", "multiple", "both"})


def _counted(method: str) -> str:
    """The method phrase with "a" or "an" where the abstract wrote a singular count noun without one
    ("using Maximum Entropy tagging method": "a Maximum Entropy tagging method"); not before a named
    part ("Estimation stage") or a phrase that opens on a determiner or a number."""
    words = re.split(r"\s(?:of|in|on|for|with|from|by|over|between|to|and|or)\s", method)[0].split()
    if len(words) < 2 or words[-1] not in _COUNTED_HEADS or words[-2][:1].isupper():
        return method
    if words[0].lower() in _DETERMINERS or re.match(r"\d", words[0]):
        return method
    return with_article(method)


# what a definite method phrase without a name may be ("the maximum entropy principle"); any other points
# back to the abstract's earlier sentences ("the subjective nouns", "the path in the parse tree")
_METHOD_HEADS = frozenset({"algorithm", "principle", "model", "models", "framework", "method", "approach",
                           "technique", "criterion", "paradigm", "formalism", "theory", "architecture", "classifier"})


def _points_back(method: str) -> bool:
    """A method phrase that says which only through what the abstract said before it: "this
    representation", "the input", "the user answers" (a definite phrase without a name, whose head is no
    method noun)."""
    words = method.split()
    if not words or words[0].lower() in {"these", "those", "this", "that"}:
        return bool(words)
    if words[0].lower() != "the" or any(w[:1].isupper() or re.search(r"\d", w) for w in words[1:]):
        return False
    head = re.split(r"\s(?:of|in|on|for|with|from|by|over|between|to)\s", method)[0].split()[-1].lower()
    return head not in _METHOD_HEADS


# a verb inside what should be a noun phrase: the phrase ran on into the abstract's next clause
_VERB_INSIDE = re.compile(r"\s(?:is|are|was|were|been|will|can|could|has|have|had|performs|produces|achieves|"
                          r"yields|outperforms|generates|requires|uses|makes|gives|works|inform)\b")


def _task(sentence: str) -> str:
    match = TASK_OF.search(sentence)
    contribution = CONTRIBUTION.search(sentence)
    if match is None and contribution is not None:
        match = TASK.search(contribution.group("rest"))
    if match and len(match.group("rest").split()) >= 2:
        return shorten(match.group("rest"), 7)
    return ""


def extract(text: str, title: str = "", *, max_words: int = 12, cut_clauses: bool = True) -> Contribution:
    """The contribution, task, method, result, entities and relations of one abstract."""
    text = " ".join(html.unescape(text or "").split())  # "Deep &amp; Cross": an entity is no sentence end
    text = _FLATTENED_COMMAND.sub(lambda m: m.group("arg") or "", text)  # "textttConv-KNRM": a command
    text = re.sub(r",(?=[A-Za-z])", ", ", text)  # "a semantic parser,SCISSOR": a space lost in the PDF
    text = re.sub(r"(?<=[a-z])[\u00bb\u00ab\u00b4](?=s\b)", "'", text)  # "a user\u00bbs": an apostrophe
    kind = paper_type(text, title)
    found: dict[str, object] = {}
    second: dict[str, object] = {}
    task = method = result = ""
    broken = truncated_words(f"{title}. {text}")  # "translamodel": never said, so its sentence is left
    for item in roled_sentences(text):
        if broken.intersection(re.findall(r"[a-z]+", item.text)):
            continue
        sentence = mask_inner_periods(item.text)
        if found and not second and item.role == OBJECTIVE:  # "we propose X": what the paper offers
            second = _contribution(sentence, title, max_words, cut_clauses) or {}
            offered = second.get("verb") in {"propose", "release"} and second.get("phrase") != found["phrase"]
            second = second if offered else {}
        if not found and item.role != BACKGROUND:
            found = _contribution(sentence, title, max_words, cut_clauses) or {}
            if found and found["verb"] == "show" and item.role not in (OBJECTIVE, RESULT):
                found = {}
            if not found and item.role == OBJECTIVE:
                passive = PASSIVE.search(sentence)
                if passive:
                    phrase = re.sub(r"^(The|A|An)\b", lambda m: m.group(1).lower(), shorten(passive.group("rest")))
                    found = {"verb": "propose", "phrase": phrase}
        if not task and item.role in (OBJECTIVE, METHOD):
            task = _task(sentence)
        if kind == "survey":
            continue  # a survey reports no finding or method of its own
        if not result and item.role == RESULT:
            result = _result(sentence)
        if not method and item.role == METHOD:
            method = _method(sentence, title)
    entities = _entities(text, title)
    first = _found(found, task, method, result, entities, kind)
    return replace(first, second=_found(second, task, method, result, entities, kind) if second else None,
                   relations=_relations(first.phrase, first.task, first.method, first.result, entities, text))


def _found(found: dict[str, object], task: str, method: str, result: str, entities: tuple[str, ...],
           kind: str) -> Contribution:
    """The contribution a sentence's reading (:func:`_contribution`) gives, with the paper's task,
    method and result."""
    return Contribution(
        verb=str(found.get("verb", "")), phrase=unmask(str(found.get("phrase", ""))), task=unmask(task),
        method=unmask(method), result=unmask(result), entities=entities,
        alternatives=tuple(unmask(a) for a in found.get("alternatives", ()) or ()),  # type: ignore[attr-defined]
        source_verb=str(found.get("source_verb", "")), paper_type=kind,
    )


def _entities(text: str, title: str) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for source in (title, text):
        for match in NAMED.finditer(source):
            name = match.group(0)
            if name not in GENERIC_WORDS and len(name) <= 30:
                found.setdefault(name, None)
    return tuple(found)[:6]


def _relations(phrase: str, task: str, method: str, result: str, entities: tuple[str, ...],
               text: str) -> tuple[Relation, ...]:
    relations: list[Relation] = []
    if phrase:
        relations.append(Relation("paper", "proposes", phrase))
    if task:
        relations.append(Relation("paper", "addresses", task))
    if method:
        relations.append(Relation("paper", "uses", method))
    for match in DATASET.finditer(text):
        relations.append(Relation("paper", "evaluated_on", match.group("name")))
    better = re.search(r"\boutperforms?\s+(?P<rest>[^,.;]*)", text, re.I)
    if better:
        relations.append(Relation(entities[0] if entities else "paper", "outperforms", shorten(better.group("rest"), 6)))
    if result:
        relations.append(Relation("paper", "shows", result))
    return tuple(relations)


def task_key(contribution: Contribution) -> str:
    """A normalised handle on the task, for grouping papers that share one."""
    words = re.findall(r"[a-z]{3,}", contribution.task.lower())
    stop = {"the", "and", "with", "from", "that", "this", "their", "large", "scale", "based"}
    return " ".join(w for w in words if w not in stop)[:60]
