"""Closing sentences of the offline writer: each theme related to the draft's own contribution.

:func:`assign_aspects` gives each theme the aspect of the draft (an action or clause of its
abstract, :mod:`relatex.writing.draft_aspects`) it overlaps most, distinct where possible;
:func:`closing` writes the theme's last sentence from it, a different template per theme.
:class:`Style` is the writer's reproducible template choice. How a paragraph names its theme is
:mod:`relatex.writing.theme_names`.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from relatex.analysis.claims.claim_words import stem as suffix_stem
from relatex.analysis.claims.term_statistics import default_term_statistics
from relatex.writing.agreement import MODALS, adverb, plural_action, singular_action
from relatex.writing.aspect_compressions import compressions
from relatex.writing.contributions import AUXILIARIES
from relatex.writing.copy_guard import CopyGuard
from relatex.writing.draft_aspects import DraftAspect
from relatex.writing.offline_templates import CLOSING_ACTION, CLOSING_CLAUSE, CLOSING_FINDING, CLOSING_GENERIC
from relatex.writing.plan import ThemeOutline, WritingPlan
from relatex.writing.sentence_checks import MODIFIER_STARTS, well_formed
from relatex.writing.theme_names import fits_label, label_terms, theme_label, word_stems
from relatex.writing.title_topics import names_an_artefact

T = TypeVar("T")


@dataclass
class Style:
    """Template choice: random but reproducible, avoiding the templates used in the last sentences
    (when all were, the one used longest ago)."""

    rng: random.Random
    recent: list[str] = field(default_factory=list)

    def pick(self, options: Sequence[T]) -> T:
        fresh = [o for o in options if str(o) not in self.recent[-3:]] or [min(  # else the one used longest ago
            options, key=lambda o: max((i for i, r in enumerate(self.recent) if r == str(o)), default=-1))]
        choice = fresh[self.rng.randrange(len(fresh))]
        self.recent.append(str(choice))
        return choice


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


_STEM_STOP = frozenset({"with", "from", "that", "this", "which", "their", "these", "those", "into", "over", "each",
                        "every", "both", "such", "than", "then", "also", "they", "them", "when", "where", "while",
                        "being", "been", "have", "does", "paper", "papers", "work", "works", "based", "using"})


def _stems(text: str) -> set[str]:
    """Crude word stems of a text (first five letters of words of four or more), for overlap."""
    return {w[:5] for w in re.findall(r"[a-z][a-z\-]{3,}", text.lower()) if w not in _STEM_STOP}


def _theme_weights(plan: WritingPlan, theme: ThemeOutline) -> dict[str, float]:
    """How strongly each stem belongs to a theme: its label terms, then its titles, then its abstracts."""
    briefs = [plan.papers[k] for k in theme.keys if k in plan.papers]
    weights: dict[str, float] = {}
    for stem in _stems(" ".join(theme.terms)):
        weights[stem] = weights.get(stem, 0.0) + 3.0
    for brief in briefs:
        for stem in _stems(brief.record.title):
            weights[stem] = weights.get(stem, 0.0) + 2.0 / len(briefs)
        for stem in _stems(brief.record.abstract or ""):
            weights[stem] = weights.get(stem, 0.0) + 1.0 / len(briefs)
    return weights


def voices(aspect: DraftAspect) -> list[tuple[str, str, str]]:
    """(subject, words, compression) for each way a closing can say ``aspect``: each compression
    (:func:`compressions`, longest first) after its own subject, and for "we" after "our work" with the verb
    agreeing ("our work analyzes the role of ...": the draft's "we analyze the role of ..." is no
    longer a run of it), for "our work" (the draft's "this paper ...") after "we"."""
    action = aspect.kind == "action"
    texts = compressions(aspect.text, action=action)
    out: list[tuple[str, str, str]] = []
    for text in texts:  # the longer compression first, whichever subject says it
        out.append((aspect.subject, text, text))
        if action and aspect.subject == "we" and (inflected := singular_action(text)):
            out.append(("our work", inflected, text))
        elif action and aspect.subject == "our work" and (base := plural_action(text)):
            out.append(("we", base, text))  # "This paper provides an overview of ...": "we provide ..."
    return out


def sayable(aspect: DraftAspect, guard: CopyGuard | None = None) -> str:
    """The words of ``aspect`` a closing can say: its first compression that is a well-formed
    sentence with its subject (or "our work", :func:`voices`) and copies no run of the ``guard``'s
    length ("" when none does)."""
    for subject, text, _ in voices(aspect):
        said = f"{subject} {text}".strip()  # "we" + the action: a run of the draft
        if (guard is None or guard.ok(said)) and _whole(subject, text, aspect.kind):
            return text
    return ""


def _verbs(text: str, kind: str) -> frozenset[str]:
    """The words known to be verbs in a closing's aspect: an action's first word, the word after a
    clause's opening "we" (the draft's own "we view X as Y")."""
    words = text.split()
    if kind == "action":
        return frozenset(words[:1])
    return frozenset(words[1:2]) if words[:1] == ["we"] and len(words) > 2 else frozenset()


def _whole(subject: str, text: str, kind: str) -> bool:
    """Whether an aspect said with its subject is a sentence on its own (not a clause cut to its
    subject, "the lower and upper values")."""
    return well_formed(capitalise(f"{subject} {text}".strip()) + ".", _verbs(text, kind))


def assign_aspects(plan: WritingPlan, themes: Sequence[ThemeOutline], aspects: Sequence[DraftAspect],
                   guard: CopyGuard | None = None) -> dict[int, tuple[DraftAspect, float]]:
    """The draft aspect each theme's closing sentence relates to: distinct aspects with the best total
    overlap (exactly for a few themes, else greedily, best pairs first); once every aspect is used,
    they are used again, least used first. The overlap is counted on the words the closing can say
    (:func:`sayable`): a match on words the copy limit cuts relates nothing. A clause or finding ("bears
    directly on one step of our approach: ...") counts only words of weight 2 or more (the label's, or
    most titles'), words scattered over the abstracts tie no step to the theme. An aspect that only
    restates a theme's label is not its aspect (the closing then names the draft's title, or is left out)."""
    said = [sayable(aspect, guard) for aspect in aspects]
    aspects = [aspect for aspect, text in zip(aspects, said, strict=True) if text]
    said = [text for text in said if text]
    table = [[0.0] * len(aspects) for _ in themes]
    for t, theme in enumerate(themes):
        weights = _theme_weights(plan, theme)
        for a, text in enumerate(said):  # a clause is tied to a theme by its label's or most titles' words only
            least = 0.0 if aspects[a].kind == "action" else 2.0
            table[t][a] = -1.0 if _circular(text, theme) else sum(
                min(4.0, w) for s in _stems(text) if (w := weights.get(s, 0.0)) >= least)
    if not aspects:
        return {}
    return {t: pair for t, pair in _assigned(table, aspects, len(themes)).items() if pair[1] >= 0}


def _said_as(template: str, text: str, term: str, named: AbstractSet[str], holds: Callable[[str], bool]) -> str:
    """The action template for the words a closing says (``text``, maybe compressed): where the contrast
    does not hold on them (``holds``), "Against this background"; where they lost what made the action a
    case of the theme, "Unlike" for "Where these works treat X in general" (the contrast holds either
    way); where they lost every stem of the words naming the theme (``named``), "Against this
    background" for "Within this line of work"."""
    if template in _CONTRASTS and not holds(text):
        return _AGAINST
    if template == _IN_GENERAL and not _case_of(text, term):
        return _UNLIKE
    if template == _WITHIN and not _tie_stems(text) & named:
        return _AGAINST
    return template


@lru_cache(maxsize=1024)
def _named_stems(term: str) -> frozenset[str]:
    """What an action must share with the words naming the theme in a closing (``term``, by
    :func:`_tie_stems`) for the draft to be said to be within that line of work: the term's head (the last
    word that says more than that something was built: "translation [models]" is "translation") or a
    word of it rare in the field ("[coreference] resolution"). A common modifier does not tie ("faceted
    [search] interfaces" to "a dataset of 50 search sessions"), nor does a word of the papers' titles."""
    stems = [suffix_stem(w) for w in _tie_words(term)]
    stems = [s for s in stems if s not in _BUILT_STEMS]
    statistics = default_term_statistics()
    rare = {s for s in stems if statistics.df.get(s, 0) < _RARE_DF * statistics.documents}
    return frozenset(rare | set(stems[-1:]))


_RARE_DF = 0.02  # a word in fewer than 2% of the field's abstracts names a line of work by itself


def _tie_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in _STEM_STOP]


def _tie_stems(text: str) -> set[str]:
    """The words of a text by a suffix-stripping stem: "parser" is "parsing", but "transferring" is not
    "transducers" (five letters would join them)."""
    return {suffix_stem(w) for w in _tie_words(text)}


def _circular(text: str, theme: ThemeOutline) -> bool:
    """Whether the aspect mostly restates the theme's label ("These works on related-work sections
    inform one part of our design: a writer drafts a related-work section")."""
    said = _stems(text)
    return bool(said) and len(said & _stems(" ".join(label_terms(theme)))) * 2 >= len(said)


def _assigned(table: list[list[float]], aspects: Sequence[DraftAspect],
              themes: int) -> dict[int, tuple[DraftAspect, float]]:
    out: dict[int, tuple[DraftAspect, float]] = {}
    if len(aspects) >= themes and math.perm(len(aspects), themes) <= 50_000:
        best: tuple[float, tuple[int, ...]] = (-math.inf, ())
        for chosen in itertools.permutations(range(len(aspects)), themes):
            total = sum(table[t][a] for t, a in enumerate(chosen))
            if total > best[0]:
                best = (total, chosen)
        return {t: (aspects[a], table[t][a]) for t, a in enumerate(best[1])}
    pairs = sorted(((table[t][a], t, a) for t in range(themes) for a in range(len(aspects))),
                   key=lambda s: (-s[0], s[1], s[2]))
    uses = [0] * len(aspects)
    while len(out) < themes:
        least = min(uses)
        score, t, a = next(p for p in pairs if p[1] not in out and uses[p[2]] == least)
        out[t] = (aspects[a], score)
        uses[a] += 1
    return out


def closing_that_fits(make: Callable[[], str], used: set[str], fits: Callable[[str], bool], tries: int = 3) -> str:
    """A closing from ``make`` that ``fits`` its place ("" when none does in ``tries``): one that does not
    is made again with only its template kept in ``used`` (templates hold "{"), so another is chosen."""
    for _ in range(tries):
        marked = set(used)
        made = make()
        if not made or fits(made):
            return made
        used.intersection_update(marked | {t for t in used - marked if "{" in t})
    return ""


_UNLIKE, _WITHIN, _IN_GENERAL, _IN_CONTRAST, _AGAINST = CLOSING_ACTION
# "Unlike these works ...", "Where these works treat X in general, ...", "In contrast to ...": each says the
# theme's papers do not do what the draft does
_CONTRASTS = (_UNLIKE, _IN_GENERAL, _IN_CONTRAST)
_CONTRAST_SLACK = 6  # words between those of a term a paper may write and still name it, for a contrast


def _case_of(action: str, term: str) -> bool:
    """Whether the action names the head of the theme's term ("presents a new approach for voice
    [search]" of "voice search"), so that "Where these works treat X in general" reads it as a case of X."""
    words = term.split()
    return bool(words) and word_stems(words[-1]) <= word_stems(action)


# heads that say only that something was built ("a new approach [for pre-retrieval QR]"): the contrast
# turns on what it is for as well
_BUILT_HEADS = frozenset({"approach", "method", "framework", "model", "technique", "system", "algorithm",
                          "solution", "strategy", "way"})
_BUILT_STEMS = frozenset(suffix_stem(h) for h in _BUILT_HEADS)


# heads that name the data a draft works on: a different dataset is no difference in kind
_NO_CONTRAST_HEADS = frozenset({"dataset", "datasets", "data", "corpus", "corpora", "collection", "collections",
                                "set", "sets", "sample", "samples", "number", "amount"})


def contrast_holds(action: str, papers: Sequence[tuple[str, str]], draft: str = "") -> bool:
    """Whether "Unlike these works, we <action>" holds: no paper (title, abstract) names the word the
    contrast turns on, the head of what the action acts on (the last word before its first
    preposition: "use a publicly available structured output [SVM]"; before a comma too, both heads
    counting) or what the draft is said to be ("is [deterministic]"). Where that head only says
    something was built ("a new approach"), no paper may name the head of what it is for either ("for
    pre-retrieval [QR]"); an acronym counts with its expansion in the ``draft``'s abstract ("query
    rewriting (QR)"). A head naming the data the draft uses ("a [dataset] of ...") never holds."""
    raw = action.split()
    while raw and (raw[0].strip(",;:").lower() in MODALS or adverb(raw[0].strip(",;:"))):
        raw = raw[1:]
    raw = raw[1:]  # the verb
    words = [w.strip(",;:") for w in raw]
    cut = next((i for i, w in enumerate(words) if w.lower() in MODIFIER_STARTS - {"and"}
                or (w.lower() == "and" and words[i + 1:i + 2] and words[i + 1].lower() in AUXILIARIES)),
               len(words))  # "is deterministic [and is driven by ...]": a second verb phrase
    # the object may end at a comma too: "consider ... likelihood [objectives], including the presentation of
    # ..."; a name before an appositive, "[Choppy], an assumption-free [model]", is no contrast alone: both count
    comma = next((i + 1 for i, w in enumerate(raw) if w.endswith((",", ";"))), cut)
    if not cut:
        return False
    turns_on: list[str] = []
    for end in dict.fromkeys((min(cut, comma), cut)):
        turns_on.append(words[end - 1])
        if words[end - 1].lower() in _BUILT_HEADS and end < len(words) and words[end].lower() in {"for", "to"}:
            rest = words[end + 1:]
            stop = next((i for i, w in enumerate(rest) if w.lower() in MODIFIER_STARTS), len(rest))
            turns_on += rest[stop - 1:stop]  # "for pre-retrieval [QR]"
    if any(w.lower() in _NO_CONTRAST_HEADS for w in turns_on):
        return False  # "uses a dataset of 50 search sessions": the papers' studies had data too
    turns_on += [spelled for w in turns_on if (spelled := expansion(w, draft))]
    # a paper names it in other words order too ("rewriting null e-commerce queries" for "query rewriting")
    return not any(fits_label(title, abstract, turns_on, slack=_CONTRAST_SLACK) for title, abstract in papers)


# what a draft's abstract says it works by ("grouped into themes by community detection")
_MEANS = re.compile(r"\b(?:by|using|uses|use|with|via|through|based on)\s+(?!\w+ing\b)((?:[\w-]+\s+){0,3}[\w-]+)",
                    re.IGNORECASE)  # not "by [ensuring] that their alignments ...": a verb, not a means


def draft_uses(term: str, draft: str) -> bool:
    """Whether the ``draft``'s abstract says it works by what the theme's ``term`` names (its head or a
    rare word of it within four words after "by", "using", "with", ...): a draft that groups papers "by
    community detection" is set against no "approaches to communities"."""
    return bool(_named_stems(term) & _means_stems(draft))


@lru_cache(maxsize=64)
def _means_stems(draft: str) -> frozenset[str]:
    """The stems of what the draft's abstract says it works by (read once per draft, not per closing)."""
    return frozenset(stem for found in _MEANS.finditer(draft) for stem in _tie_stems(found.group(1)))


def expansion(acronym: str, text: str) -> str:
    """What ``text`` spells ``acronym`` out as, the words before it in parentheses whose initials
    (hyphenated parts each) are its letters ("query rewriting (QR)" for "QR"); "" where it does not."""
    if not re.fullmatch(r"[A-Z]{2,6}s?", acronym) or not text:
        return ""
    letters = acronym.rstrip("s")
    for found in re.finditer(rf"((?:[A-Za-z][\w-]*\s+){{1,{len(letters) + 1}}})\({re.escape(acronym)}\)", text):
        words = found.group(1).split()
        for start in range(len(words)):
            initials = "".join(part[0] for w in words[start:] for part in w.split("-") if part)
            if initials.upper() == letters:
                return " ".join(words[start:]).lower()
    return ""


def closing(theme: ThemeOutline, aspect: tuple[DraftAspect, float] | None, style: Style,
            used: set[str] | None = None, guard: CopyGuard | None = None, topic: str = "",
            term: str = "", papers: Sequence[tuple[str, str]] = (), draft: str = "") -> str:
    """The theme related to the draft, through the aspect of the draft closest to it; a template
    already used for another theme (``used``) is taken again only when none is left. The
    aspect is said whole when that copies no run of the ``guard``'s length from the draft, else
    with its trailing modifiers dropped, else the theme is named as background to the draft's
    ``topic`` (its title as a noun phrase; once per section, through ``used``); with no topic
    either, no closing ("": nothing is claimed about the draft that the draft does not say). A clause
    or finding that shares next to nothing with the theme (``aspect``'s score below 1) gives way to the
    topic where it is still unsaid. ``term`` names the theme (its label's first term when not given). An
    action is set against the theme ("Unlike these works ...") only where the contrast holds on the
    theme's ``papers`` (title, abstract; :func:`contrast_holds`, with the ``draft``'s abstract)."""
    used = set() if used is None else used

    def pick(options: Sequence[str]) -> str:
        choice = style.pick([o for o in options if o not in used] or list(options))
        used.add(choice)
        return choice

    def generic() -> str:
        if not topic or "topic" in used:
            return ""  # the draft's title is named once per section, not at the end of every paragraph
        study = "work on" if topic.split()[0].endswith("ing") else "study of"
        if names_an_artefact(topic):
            study = ""  # "our new approach for aligning parallel texts", not a study of it
        sentence = " ".join(pick(CLOSING_GENERIC).format(term=term, topic=topic, study=study).split())
        if not well_formed(sentence):
            return ""
        used.add("topic")
        return sentence

    term = term or theme_label(theme, short=True)
    if aspect is None:
        return generic()
    found, score = aspect
    if f"aspect:{found.text}" in used:  # said in another paragraph, by another of its compressions
        return generic()
    if found.kind != "action" and score < 1 and (titled := generic()):
        return titled  # a clause sharing next to nothing with the theme is no step the theme informs
    options: Sequence[str]
    tied: AbstractSet[str] = _named_stems(term) if found.kind == "action" else frozenset()
    if found.kind == "action":
        options = CLOSING_ACTION if score > 0 else _CONTRASTS
        if not _case_of(found.text, term):
            options = tuple(t for t in options if t != _IN_GENERAL)
        if papers and not contrast_holds(found.text, papers, draft) or draft_uses(term, draft):
            options = tuple(t for t in CLOSING_ACTION if t not in _CONTRASTS)  # the papers do it too, or the draft
            # works by them ("grouped into themes by community detection": no contrast to "approaches to communities")
        if not _tie_stems(found.text) & tied:  # "within this line of work on X" needs a word of X
            options = tuple(t for t in options if t != _WITHIN)
        template = pick(options)
    else:
        family = CLOSING_FINDING if found.kind == "finding" else CLOSING_CLAUSE  # a finding is no step of a design
        template = pick(family if score > 0 else (family[1],))
    for subject, text, key in voices(found):
        said = _said_as(template, text, term, tied, lambda words: not papers or contrast_holds(words, papers, draft))
        sentence = said.format(term=term, subject=subject, Subject=capitalise(subject), action=text, clause=text)
        verbs = _verbs(text, found.kind)  # an action is a verb phrase
        if (guard is None or guard.ok(sentence)) and _whole(subject, text, found.kind) \
                and well_formed(sentence, verbs) and f"aspect:{key}" not in used:
            used.update({f"aspect:{key}", f"aspect:{found.text}"})  # each paragraph relates a different part
            return sentence
    return generic()
