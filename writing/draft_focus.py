"""Closings from the draft's focus: the noun phrases of its title ("prosody modulation", "active
learning"), each set against a theme whose papers never speak of it.

A paragraph whose theme no aspect of the draft's abstract relates to (and whose section has named
the draft's title already) can still end by saying where the draft differs: "Our work differs
from these in its focus on prosody modulation." The contrast is only written when it holds on the
papers' own text: no title or abstract of the theme's papers names the phrase's head noun phrase,
nor a word the phrase specifies its head by ("noun" in "noun phrases": papers on noun compounds).
Where it cannot be checked, the theme is named as background to the phrase instead. After the
title's phrases come the tasks the abstract says the draft's own work is for ("a framework for answer
extraction"): a draft whose title has few phrases can still close each paragraph differently.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from relatex.analysis.claims.claim_words import STOPWORDS
from relatex.analysis.claims.rhetorical_roles import BACKGROUND, classify_sentences
from relatex.analysis.claims.topic_claims import singular
from relatex.retrieval.label_forms import ONE_OF_A_KIND_HEADS
from relatex.retrieval.theme_labels import GENERIC_LABEL_WORDS, title_phrases
from relatex.retrieval.word_classes import is_adjective_like
from relatex.writing.aspect_compressions import TASK_VERBS, THE_TASK_OF
from relatex.writing.contributions import sentences_of
from relatex.writing.draft_aspects import DRAFT_CONTRIBUTION
from relatex.writing.offline_templates import CLOSING_GENERIC
from relatex.writing.sentence_checks import well_formed
from relatex.writing.theme_names import fits_label, word_stems
from relatex.writing.title_topics import ARTEFACT_HEADS, lowered, names_a_span

CLOSING_SHARED = (  # {term}: the theme's label, which the draft's title or its own work names too
    "Like these works, our work is concerned with {term}.",
    "Our work shares this concern with {term}.",
)

CLOSING_FOCUS = (  # {phrase}: a noun phrase of the draft's title that no paper of the theme names
    "Our work differs from these in its focus on {phrase}.",
    "Unlike these works on {term}, our work focuses on {phrase}.",
    "What sets our work apart from this line of research is its focus on {phrase}.",
)


# singular heads that name one thing and would need an article ("a morphological analyzer")
_COUNT_HEADS = frozenset({"function", "analyzer", "analyser", "translator", "generator", "extractor", "detector",
                          "learner", "ranker", "encoder", "decoder", "tokenizer", "segmenter", "lexicon", "grammar",
                          "tree", "graph", "vector", "matrix", "task", "problem", "study", "paradigm", "technique",
                          "strategy"})


_WORK_HEADS = ARTEFACT_HEADS | {"program", "programme", "technique"}  # heads naming a kind of work

# second halves of compounds written apart ("large scale", "fine grained", "high level")
_COMPOUND_TAILS = frozenset({"scale", "grained", "level", "based", "oriented", "driven", "aware", "specific"})


def focus_phrases(title: str) -> list[str]:
    """The noun phrases of the draft's title, in the title's order, longest first where they
    share a head ("efficient test collection construction" before "test collection construction"),
    lower-cased except names and acronyms; a singular artefact ("neural network") needs an article
    a focus cannot take and is left out."""
    out: list[str] = []
    title = re.sub(r"\s*\([^()]*\)", "", title)  # an aside ("(When Given a Good Start)") is no focus
    phrases = title_phrases(title, max_words=4)
    ends = {p.split()[-1].lower() for p in phrases}
    for phrase in phrases:
        head = phrase.split()[-1].lower()
        if head in ARTEFACT_HEADS or head in _COUNT_HEADS or head in ONE_OF_A_KIND_HEADS or re.search(r"\d", phrase) \
                or names_a_span(phrase):
            continue  # "our work focuses on neural network", "... on SIGHAN bakeoff", "... on fifteen years"
        if phrase.split()[0].lower() in _COMPOUND_TAILS:
            continue  # "[large] scale machine translation", "[fine] grained entity typing": half a compound
        at = re.escape(phrase)
        moving = re.search(rf"\bfrom\s+[^:;]+?\s+to\s+{at}\b", title, re.I)  # "From X to Global Ranking"
        if re.search(rf"\b{at}(?:\s+and\s+[a-z-]+)?\s+of\b", title, re.I):
            phrase = _with_its_of(phrase, phrases, title)  # "semantic classification of noun phrases"
            if not phrase:
                continue  # "automatic identification [and classification of reviews]" says what of nothing
        elif re.search(rf"\bto\s+{at}\b", title, re.I) and not moving:
            continue  # "[to] interpret ..."
        if re.search(rf"\bfrom\s+{at}\s+to\s", title, re.I):
            continue  # "From Local Classification to Global Ranking": what the draft moves away from
        shared = re.search(rf"(\S+)\s+(and|or)\s+{at}\b", title, re.I)
        if shared and shared.group(1).lower() not in ends:
            phrase = _coordinated(shared.group(1), shared.group(2), phrase)
            if not phrase:
                continue  # "[pro and] con reasons": the head is shared with a word that is no phrase of its own
        if lowered(phrase) not in out:
            out.append(lowered(phrase))
    return out


def _with_its_of(phrase: str, phrases: Sequence[str], title: str) -> str:
    """A title phrase with the of-phrase that says what of ("Semantic Classification" of "Noun
    Phrases"), where that is a title phrase of its own of two words or more and the whole has at
    most six words; "" where it is not ("Classification of Reviews")."""
    for after in phrases:
        joined = re.search(rf"\b{re.escape(phrase)}\s+of\s+(?:the\s+)?{re.escape(after)}\b", title, re.I)
        if joined and len(after.split()) >= 2 and len(joined.group(0).split()) <= 6:
            return joined.group(0)
    return ""


def _coordinated(before: str, conjunction: str, phrase: str) -> str:
    """A title phrase after "X and": the phrase itself where X names a thing of its own ("CCG and
    Log-Linear Models"), the two modifiers with their shared head where the phrase opens on one
    ("Upper and Lower Bounds": "upper and lower bounds"), else "" (the head is shared with a word
    that is no modifier the lexicon knows: "Pro and Con Reasons")."""
    if len(before) > 1 and before.isupper():
        return phrase  # an acronym names a thing of its own
    if (is_adjective_like(phrase.split()[0]) and before.isalpha()) or is_adjective_like(before):
        return f"{before} {conjunction.lower()} {phrase}"
    return ""


@lru_cache(maxsize=64)
def draft_focus_phrases(title: str, abstract: str) -> tuple[str, ...]:
    """The focus phrases of the draft: its title's (:func:`focus_phrases`), then the tasks its
    abstract says its own work is for (:func:`task_phrases`), each once."""
    out = list(focus_phrases(title))
    heads = {_head(p).lower() for p in out}
    for phrase in task_phrases(abstract, title):
        if _head(phrase).lower() not in heads:
            out.append(phrase)
            heads.add(_head(phrase).lower())
    return tuple(out)


# a task the draft's own work is for: "a general framework for [answer extraction]", "address [the task
# of] [unsupervised POS tagging]", "focus on [the problem of] [cross-lingual sentiment classification]"
_TASK = re.compile(rf"(?:^(?:{TASK_VERBS})\s+|\sfor\s+)(?:{THE_TASK_OF})?"
                   r"(?P<np>[A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*){1,3}?)"
                   r"(?=\s+(?:which|that|with|using|by|in|on|from|for|of|and|or|via|based)\b|[,;]|$)")
# words saying how well rather than what ("for [better] estimation"): no task of their own
_HOW_WELL = frozenset({"better", "improved", "more", "less", "faster", "higher", "lower", "efficient", "effective",
                       "accurate", "robust", "good"})
# heads naming a task ("extraction", "tagging", "classification"), not a thing ("relations", "parsers")
_TASK_HEAD = re.compile(r"(?:tion|sion|ing|sis|ment)$")


def task_phrases(abstract: str, title: str = "") -> list[str]:
    """The tasks the draft's own work is for, as noun phrases of two to four words headed by a task
    noun: "answer extraction" of "We introduce a general framework for answer extraction which ...".
    Only sentences stating the draft's work ("we ...", "this paper ...") count, background ones not
    (they speak of the field); a phrase opening on a gerund ("harvesting semantic relations") names
    no task, nor one holding a function word."""
    out: list[str] = []
    for found in _own_statements(abstract):
        for task in _TASK.finditer(f"{found.group('verb')} {found.group('rest')}"):
            words = task.group("np").split()
            if words[0].lower().endswith("ing") or words[0].lower() in _HOW_WELL \
                    or not _TASK_HEAD.search(words[-1].lower()) or any(w.lower() in STOPWORDS for w in words):
                continue
            phrase = lowered(task.group("np"))
            if phrase not in out:
                out.append(phrase)
    return out


def _head(phrase: str) -> str:
    """The phrase's head: its last two words ("answer selection" of "efficient transformer-based
    answer selection"), what a paper must not name for the contrast to hold."""
    return " ".join(phrase.split()[-2:])


_NOT_SPECIFYING = GENERIC_LABEL_WORDS | STOPWORDS  # modifiers that say no kind ("user", "the")


def _named_by(phrase: str, papers: Sequence[tuple[str, str]]) -> bool:
    """Whether a paper names the phrase's head, or a word the phrase specifies it by (not a generic one
    such as "user"): papers on "noun compounds" or "active sampling" study a kin of "noun phrases" or
    "active learning", and a focus on it does not set the draft apart from them."""
    modifiers = [w for w in phrase.split()[:-1] if w.lower() not in _NOT_SPECIFYING]
    return any(fits_label(title, abstract, [_head(phrase), *modifiers]) for title, abstract in papers)


def focus_closing(phrases: Sequence[str], term: str, label: str, papers: Sequence[tuple[str, str]],
                  pick: Callable[[list[str]], str], used: set[str]) -> str:
    """The theme (``term`` in the sentence, ``label`` in full) set against the first focus phrase
    not yet said in the section (``used``; one per head word) that shares no word with the label
    and that no paper of the theme (``papers``: title, abstract) names; ``pick`` chooses the
    template among those not used yet. "" when no phrase holds, or when a paper has no abstract: a
    title alone ("Beyond Pooling") cannot show what a paper leaves out."""
    if not papers or any(not abstract.strip() for _, abstract in papers):
        return ""
    for phrase in phrases:
        if _said(phrase, used) or _named_by(phrase, papers):
            continue
        if word_stems(label) & word_stems(phrase):
            continue  # "unlike these works on test collections, ... efficient test collection construction"
        sentence = _say(CLOSING_FOCUS, phrase, pick, used, term=term, phrase=phrase)
        if sentence:
            return sentence
    return ""


def focus_relation(phrases: Sequence[str], term: str, pick: Callable[[list[str]], str], used: set[str],
                   topic: str = "") -> str:
    """The theme (``term``) named as background to the first focus phrase not yet said in the
    section (``used``; one per head word) that is not the term itself: "These works on dependency
    parsing are background to our work on shift-reduce parsing." Claims nothing of the papers beyond
    the theme's label, so it holds where a contrast cannot be checked (a paper without an abstract,
    a paper naming the phrase); "" when no phrase is left. A phrase that is the whole of the draft's
    title ``topic`` is not said again once the section has said the title, and the means the title
    names ("machine learning for coreference resolution") is no study of the draft's own."""
    for phrase in phrases:
        if _said(phrase, used) or word_stems(_without_work_head(phrase)) <= word_stems(term):
            continue  # "... provides context for our study of word-sense disambiguation programs": the term
        if _means(phrase, topic):
            continue  # "... provides context for our study of machine learning": the draft uses it
        if topic and "topic" in used and word_stems(topic) <= word_stems(phrase):
            continue  # "... to our study of syntax-based alignment" twice
        study = "work on" if phrase.split()[0].endswith("ing") else "study of"
        sentence = _say(CLOSING_GENERIC, phrase, pick, used, term=term, topic=phrase, study=study)
        if sentence:
            return sentence
    return ""


def _without_work_head(phrase: str) -> str:
    """The phrase without a head that names a kind of work ("word-sense disambiguation [programs]")."""
    words = phrase.split()
    return " ".join(words[:-1]) if len(words) > 1 and singular(words[-1].lower()) in _WORK_HEADS else phrase


def _means(phrase: str, topic: str) -> bool:
    """Whether the title names ``phrase`` as what the draft uses, not what it studies: a learning
    method or network before "for" ("machine learning for coreference resolution"), or anything
    before "to" and a verb ("using semantic roles to improve question answering"). "Query rewriting
    for voice shopping" and "optimization strategies for online learning" are what they study."""
    at = re.escape(phrase)
    return bool(re.search(rf"\b{at}\s+to\s+(?!(?:the|a|an)\b)[a-z]+(?<!ing)\b", topic, re.I)  # a verb
                or (phrase.split()[-1].lower() in {"learning", "network", "networks"}
                    and re.search(rf"\b{at}\s+for\s", topic, re.I)))


def _said(phrase: str, used: set[str]) -> bool:
    """Whether the section has closed a paragraph on this phrase's head word already."""
    return any(f"focus:{stem}" in used for stem in word_stems(phrase.split()[-1]))


def _say(templates: Sequence[str], focus: str, pick: Callable[[list[str]], str], used: set[str],
         **fill: str) -> str:
    """A closing from the first of ``templates`` not used yet (``pick`` chooses), filled with
    ``fill``; the template and the ``focus`` phrase's head word are marked used. "" when it does not
    read whole."""
    template = pick([t for t in templates if t not in used] or list(templates))
    sentence = " ".join(template.format(**fill).split())
    if not well_formed(sentence):
        return ""
    used.add(template)
    used.update(f"focus:{stem}" for stem in word_stems(focus.split()[-1]))
    return sentence


def shared_concern(term: str, title: str, abstract: str, pick: Callable[[list[str]], str], used: set[str]) -> str:
    """The theme (``term``) named as a concern the draft shares, where its title names the term whole
    ("dyslexia" for "web search by people with and without dyslexia") or a sentence of its
    abstract stating its own work names the term whole: "Like these works, our work is concerned with
    dyslexia." The last closing left to a paragraph whose theme is the draft's own subject, so that no
    contrast or background phrase is left for it; each template once per section ("" after)."""
    templates = [t for t in CLOSING_SHARED if t not in used]
    if not templates or not term.strip() or not (_named(term, title) or _stated(term, abstract)):
        return ""
    template = pick(templates)
    sentence = " ".join(template.format(term=term).split())
    if not well_formed(sentence):
        return ""
    used.add(template)
    return sentence


def _stated(term: str, abstract: str) -> bool:
    """Whether a sentence of the abstract that states the draft's own work names ``term`` whole."""
    return any(_named(term, found.string) for found in _own_statements(abstract))


def _own_statements(abstract: str) -> list[re.Match[str]]:
    """The abstract's statements of the draft's own work ("we ...", "this paper ..."), each as the
    match of its subject and verb in its sentence; background sentences speak of the field."""
    sentences = sentences_of(abstract or "")
    return [found for sentence, role in zip(sentences, classify_sentences(sentences), strict=True)
            if role != BACKGROUND and (found := DRAFT_CONTRIBUTION.search(sentence))]


def _named(term: str, text: str) -> bool:
    """Whether ``text`` names ``term`` whole, its words in a row in either number ("Quasi-synchronous
    Grammars" for "quasi-synchronous grammar"); words found apart ("Dependency Parser ... Parsing
    Strategy") or sharing only a stem ("ontologizing" for "ontological") do not count."""
    words = [rf"{re.escape(singular(w.lower()))}(?:s|es)?" for w in re.split(r"[\s-]+", term.strip()) if w]
    return bool(words) and re.search(r"\b" + r"[\s-]+".join(words) + r"\b", text, re.I) is not None
