"""Sentence templates of the offline writer: verbs per contribution class, topic, paper,
grouping and closing sentences. Placeholders: {cite}, {cites}, {label}, {verb}, {what}, ..."""

from __future__ import annotations

import re
from collections.abc import Sequence

from relatex.writing.agreement import third_person

# verb class -> variants as (base form, third person singular)
VERBS: dict[str, tuple[tuple[str, str], ...]] = {
    "propose": (("propose", "proposes"), ("introduce", "introduces"), ("present", "presents"),
                ("develop", "develops")),
    "describe": (("describe", "describes"), ("present", "presents")),
    "define": (("define", "defines"), ("formulate", "formulates"), ("introduce", "introduces")),
    "release": (("release", "releases"), ("contribute", "contributes")),
    "annotate": (("annotate", "annotates"),),
    "show_bare": (("find", "finds"), ("argue", "argues"), ("report", "reports")),
    "propose_doing": (("propose", "proposes"), ("suggest", "suggests")),  # "propose using X"
    "extend": (("extend", "extends"), ("adapt", "adapts"), ("augment", "augments")),
    "apply": (("apply", "applies"), ("use", "uses"), ("employ", "employs")),
    "study": (("study", "studies"), ("investigate", "investigates"), ("examine", "examines"),
              ("analyse", "analyses")),
    "evaluate": (("evaluate", "evaluates"), ("compare", "compares")),
    "conduct": (("conduct", "conducts"), ("carry out", "carries out")),
    "show": (("show", "shows"), ("find", "finds"), ("demonstrate", "demonstrates"), ("report", "reports")),
    "modify": (("modify", "modifies"), ("adapt", "adapts")),
    "improve": (("improve", "improves"), ("improve on", "improves on"), ("refine", "refines")),
    "combine": (("combine", "combines"), ("integrate", "integrates")),
    "train": (("train", "trains"),),
}
# verbs that fit only a phrase with this preposition ("adapt X to Y", "augment X with Y")
VERB_NEEDS = {"adapt": r"\sto\s", "augment": r"^(?!.*\sto\s).*\swith\s"}
# verbs that do not fit a phrase with this pattern: "use X to Y" wants a verb after "to" ("we apply the
# hypothesis to information extraction" is no "use ... to information extraction")
VERB_REFUSES = {"use": r"\sto\s", "employ": r"\sto\s"}
PARTICIPLES = {"propose": "proposed", "introduce": "introduced", "present": "presented", "develop": "developed",
               "describe": "described", "release": "released", "define": "defined", "formulate": "formulated",
               "suggest": "suggested"}

TOPIC_FIRST = (
    "A first line of work concerns {label}{cites}.",
    "We begin with research on {label}{cites}.",
)
TOPIC_SECOND = "A second strand of research deals with {label}{cites}."
TOPIC_ONLY = "Work on {label}{cites} is closely related."  # a section of one theme: no "first line"
TOPIC_NEXT = (
    "Work on {label}{cites} is also closely related.",
    "Another group of papers centres on {label}{cites}.",
    "Several studies address {label}{cites}.",
    "Research on {label}{cites} forms a further strand.",
)
TOPIC_NEXT_ONE = tuple(t for t in TOPIC_NEXT if not t.startswith(("Another group of papers", "Several studies")))
TOPIC_CITES = 4  # papers cited together in a theme's topic sentence (its most relevant ones)
PLAIN = (
    "\\citet{{{key}}} {verb} {phrase}.",
    "In \\citet{{{key}}}, {the_authors} {verb} {phrase}.",
    "The work of \\citet{{{key}}} {verb3} {phrase}.",
    "\\citet{{{key}}}, in turn, {verb} {phrase}.",
    "Another contribution is due to \\citet{{{key}}}, who {verb} {phrase}.",
)
PLAIN_FIRST = tuple(t for t in PLAIN if not t.startswith("Another") and "in turn" not in t)  # nothing before it
NOUN = (
    "{Phrase} is {participle} by \\citet{{{key}}}.",
    "One example is {phrase} \\citep{{{key}}}.",
)
NOUN_NAMED = tuple(t for t in NOUN if "\\citet" in t)  # the paper named, as no example of several
EARLY = (
    "An early contribution is that of \\citet{{{key}}}, who {verb} {phrase}.",
    "Early on, \\citet{{{key}}} {verb} {phrase}.",
)
RECENT = (
    "More recently, \\citet{{{key}}} {verb} {phrase}.",
    "Recent work by \\citet{{{key}}} {verb3} {phrase}.",
    "In recent work, \\citet{{{key}}} {verb} {phrase}.",
)
CITING = (  # the paper cites an earlier one of its paragraph: the record says that, no more ("builds on" it
    # need not, and may argue against it)
    "Citing \\citet{{{prev}}}, \\citet{{{key}}} {verb} {phrase}.",
    "In work that cites \\citet{{{prev}}}, \\citet{{{key}}} {verb} {phrase}.",
)
CITED_BY = (  # an earlier paper of the paragraph cites this one
    "Cited by \\citet{{{prev}}}, \\citet{{{key}}} {verb} {phrase}.",
    "\\citet{{{key}}}, cited by \\citet{{{prev}}}, {verb} {phrase}.",
)
SIMILAR = (  # after the sentence on a paper the graph relates to this one by its text alone: no paper is
    # named, as nothing in either record says how the two relate ("Closely related to \\citet{a}" would), and
    # nothing is said of what the other did ("\\citet{b} likewise propose X", "A related approach is taken by")
    "Along similar lines, \\citet{{{key}}} {verb} {phrase}.",
    "In a related direction, \\citet{{{key}}} {verb} {phrase}.",
    "Similarly, \\citet{{{key}}} {verb} {phrase}.",
)
RESULTS = (
    " Their results indicate that {result}.",
    " They report that {result}.",
    " Their experiments show that {result}.",
    " According to their evaluation, {result}.",
    " The evaluation in that work suggests that {result}.",
)
METHODS = (
    " The approach rests on {method}.",
    " It is based on {method}.",
    " It builds on {method}.",
)
TITLE_TOPIC = (  # a title that is a plain noun phrase names the paper's subject
    "\\citet{{{key}}} {study} {topic}.",
    "{Topic} {is_} the subject of \\citet{{{key}}}.",
    "\\citet{{{key}}} {focus} on {topic}.",  # also a gerund: "focus on learning to rank ..."
)
TITLE_WORK = (  # a title that names a work ("a qualitative ... analysis of written versus spoken queries")
    "\\citet{{{key}}} {present} {topic}.",
    "{Topic} {is_} presented by \\citet{{{key}}}.",  # "Experiments with ... are presented by"
)
# the first paper of a paragraph whose title and abstract do not name the paragraph's label: away
# from it when they share no word with it, else beside it (neither names the label: the claim checker
# reads the sentence as said of the paper, and the paper does not name it)
BRIDGE_AWAY = "Further afield,"
BRIDGE_NEAR = "In a related direction,"
# a phrase that leaves out what the title names: the title as the subject, the phrase after it
TITLE_PAIRED = (
    "{Topic} {is_} the subject of \\citet{{{key}}}, who {verb} {phrase}.",
    "\\citet{{{key}}} {study} {topic} and {verb} {phrase}.",  # not "the subject of" twice in a row
)


def title_verbs(single_author: bool) -> dict[str, str]:
    """The verbs of the title templates, agreeing with one author or several."""
    return {verb: third_person(verb) if single_author else verb for verb in ("study", "focus", "present")}


GERUND_PHRASE = re.compile(r"\w+ing\s")  # a title subject that is one activity ("Learning to rank ..."): "is"


def title_paired(recent: list[str], topic: str) -> str:
    """The template pairing a title subject with a phrase, given the templates used lately
    (``recent``, where the title template it reads like is noted): "... is the subject of ..., who"
    unless a sentence just before said "the subject of"; a gerund ("Learning to rank ...") only so."""
    if TITLE_TOPIC[1] in recent[-3:] and not GERUND_PHRASE.match(topic):
        recent.append(TITLE_TOPIC[0])
        return TITLE_PAIRED[1]
    recent.append(TITLE_TOPIC[1])
    return TITLE_PAIRED[0]


GROUP = (
    "{Task} has been addressed by several works \\citep{{{keys}}}.",
    "Several papers tackle {task} \\citep{{{keys}}}.",
)
CLOSING_ACTION = (  # {subject}: "our system"; {action}: what it does, from the draft's abstract
    "Unlike these works on {term}, {subject} {action}.",
    "Within this line of work on {term}, {subject} {action}.",  # where; no draft says which works it builds on
    "Where these works treat {term} in general, {subject} {action}.",
    "In contrast to these approaches to {term}, {subject} {action}.",
    "Against this background of work on {term}, {subject} {action}.",
)
CLOSING_CLAUSE = (  # {clause}: a whole clause of the draft's abstract
    "These works on {term} bear on one part of our design: {clause}.",  # bear on, not "inform": no draft says so
    "Our work relates to {term} in one specific respect: {clause}.",  # relates, not "draws on"
    "The connection to our work lies in the step where {clause}.",
    "This line of work bears directly on one step of our approach: {clause}.",
)
CLOSING_FINDING = (  # {clause}: a whole clause of a result or conclusion sentence of the draft's abstract
    "Our results bear on these works on {term}: {clause}.",
    "Our findings add to this work on {term} in one respect: {clause}.",
)
CLOSING_GENERIC = (  # the draft's abstract says nothing usable; {topic}: the draft's title as a noun phrase,
    # {study}: "study of" ("work on" before a gerund: "our work on optimizing hyper-phrase queries")
    "These works on {term} are background to our {study} {topic}.",
    "Our {study} {topic} relates to this work on {term}.",  # relates, not "draws on": no draft says which it uses
    "This work on {term} provides context for our {study} {topic}.",
)


def see_also(keys: Sequence[str]) -> str:
    """Papers cited without a claim (their text does not name the theme, or the judge found the
    sentence that listed them unsupported): a pointer the claim checker does not judge."""
    return f"See also~\\citep{{{','.join(keys)}}}." if keys else ""


_SEE_ALSO = re.compile(r"See also~\\citep\{([^{}]*)\}\.")


def with_pointers(text: str, after: int, keys: Sequence[str]) -> str:
    """``keys`` joined to the "See also" list of the paragraph going on after ``after``, or given
    one at the paragraph's end: a pointer list reads as an aside, not as the paragraph's second sentence."""
    stop = text.find("\n\n", after)
    stop = len(text.rstrip()) if stop < 0 else stop
    found = _SEE_ALSO.search(text, after, stop)
    if found:
        merged = list(dict.fromkeys([*found.group(1).split(","), *keys]))
        return text[:found.start()] + see_also(merged) + text[found.end():]
    return f"{text[:stop]} {see_also(keys)}{text[stop:]}"
