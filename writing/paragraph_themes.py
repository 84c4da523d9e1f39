"""The themes a section's paragraphs are written under: their papers in reading order, the label
terms each paragraph names, and papers moved to the theme whose label their text names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from relatex.analysis.claims.topic_claims import names_term, singular
from relatex.writing.offline_templates import BRIDGE_AWAY, BRIDGE_NEAR, TOPIC_CITES
from relatex.writing.plan import LAYER_RANK, PaperBrief, ThemeOutline, WritingPlan
from relatex.writing.theme_names import (
    GENERAL_STEMS,
    fits_label,
    join_terms,
    label_terms,
    theme_label,
    word_stems,
)

__all__ = ["bridge_words", "earliest", "facet_kind", "facet_term", "joint_terms", "merged_alike",
           "ordered_briefs", "paragraph_label", "paragraph_terms", "regrouped", "theme_terms", "topic_papers"]


def ordered_briefs(keys: Sequence[str], plan: WritingPlan) -> list[PaperBrief]:
    """The theme's papers from foundation to frontier, in reading order within a layer."""
    position = {k: i for i, k in enumerate(plan.reading_order)}
    briefs = [plan.papers[k] for k in keys if k in plan.papers]
    return sorted(briefs, key=lambda b: (LAYER_RANK.get(b.layer, 1), position.get(b.key, len(position)),
                                         b.record.year or 0))


def bridge_words(brief: PaperBrief, label: str) -> str:
    """The words leading to a paper whose text does not name the paragraph's label: "Further afield,"
    when it shares no word with the label, else "In a related direction,"."""
    text = f"{brief.record.title} {brief.record.abstract or ''}"
    near = (word_stems(label) & word_stems(text)) - GENERAL_STEMS
    return BRIDGE_NEAR if near else BRIDGE_AWAY


def earliest(brief: PaperBrief, briefs: Sequence[PaperBrief]) -> bool:
    """Whether ``brief`` has a year and no paper of its paragraph (``briefs``) is older: "Early on, ..."
    says so (a reader sees every paper's year in its citation)."""
    year = brief.record.year
    return year is not None and year > 0 and not any(0 < (b.record.year or 0) < year for b in briefs)


def joint_terms(terms: list[str], briefs: Sequence[PaperBrief], others: Sequence[str] = ()) -> list[str]:
    """The label's first term and the first of its other ``terms`` that makes a second topic of the
    same papers (a third term is tried only where the first is shared with another theme's first
    term, in ``others``). A candidate is passed over when no paper is about both ("web pages and
    product" over papers on either: two halves, not one theme), when it fits at most half of the papers and
    adds none the first does not fit ("neural ranking [and weak supervision]" over two papers on
    neural ranking, one with weak supervision), or fewer than half while the first fits at least
    half ("eye tracking [and faceted search interfaces]"), or when it is a facet, not a topic
    (:func:`facet_term`). With none left, the first term alone; unless it shares a word with another
    theme's first term (``others``; a first term of one word, also a root: "tags" and "tagging"):
    then the second term, unless it names two halves or is a measure or a piece of a name, is what
    tells the paragraphs apart."""
    if len(terms) < 2:
        return terms
    words = {w[:5] for w in terms[0].lower().split()}
    distinct = not any(words & {w[:5] for w in other.lower().split()} for other in others)
    if len(terms[0].split()) == 1:  # "tags" beside "part-of-speech tagging": one word, said by another label
        distinct = distinct and not any(_roots(terms[0]) & _roots(other) for other in others)
    for candidate in terms[1:2] if distinct else terms[1:]:  # a weaker third term only where it is needed
        halves, weak = _second_term(terms[0], candidate, briefs)
        if not halves and not weak:
            return [terms[0], candidate]
    halves = _second_term(terms[0], terms[1], briefs)[0]
    named = terms[1].lower() in {other.lower() for other in others}  # "tags [and part-of-speech tagging]"
    if distinct or halves or named or facet_kind(terms[1], briefs) in ("measure", "fragment"):
        return terms[:1]  # nor does a measure, a piece of a name ("and Street Journal") or another's label
    return terms[:2]


def _roots(term: str) -> set[str]:
    """The words of a term by their root ("tags", "taggers" and "tagging" are all "tag"):
    singular, without "-ing" or "-er" and a doubled last consonant, at most five letters."""
    out = set()
    for word in term.lower().split():
        root = re.sub(r"(?<=[a-z]{3})(?:ing|er)$", "", singular(word))
        out.add((root[:-1] if len(root) > 3 and root[-1] == root[-2] else root)[:5])
    return out


def _second_term(first_term: str, term: str, briefs: Sequence[PaperBrief]) -> tuple[bool, bool]:
    """(no paper is about both terms, the second is weak beside the first), as :func:`joint_terms` says."""
    fits = [[fits_label(b.record.title, b.record.abstract or "", [t]) for t in (first_term, term)] for b in briefs]
    if not any(first and second for first, second in fits):
        return True, True
    first, second = sum(f[0] for f in fits), sum(f[1] for f in fits)
    adds = any(f[1] and not f[0] for f in fits)
    weak = (second * 2 <= len(briefs) and not adds) or second * 2 < len(briefs) <= first * 2 \
        or facet_term(term, briefs)
    return False, weak


# words of a result or a measure, which no topic is named by ("significant improvements", "F-measure")
_MEASURE_WORDS = frozenset({"improvement", "improvements", "accuracy", "f-measure", "f-score", "error", "errors",
                            "metric", "metrics", "performance", "results", "baseline", "baselines", "gains", "scores"})
# heads saying how a paper was tested ("blind tests"); "test collections" is a topic
_TESTING_HEADS = frozenset({"test", "tests", "experiments"})


def facet_term(term: str, briefs: Sequence[PaperBrief]) -> bool:
    """Whether a label's second term names a facet of its papers, not a topic beside the first
    (:func:`facet_kind`)."""
    return bool(facet_kind(term, briefs))


def facet_kind(term: str, briefs: Sequence[PaperBrief]) -> str:
    """What makes a label's second term a facet: "measure" for a result, a measure or a test ("[significant
    improvements]", "[blind tests]"), "fragment" for part of a longer name in every paper that has it ("dependency
    parsing and [Street Journal]", of "Wall Street Journal"), "word" for a single word ("semantic
    role labeling and [parses]"; not a compound: "learning-to-rank"); "" for a topic."""
    words = term.split()
    if _MEASURE_WORDS & {w.lower() for w in words} or words[-1].lower() in _TESTING_HEADS:
        return "measure"
    if term[:1].isupper():
        found = [m for b in briefs for m in re.finditer(rf"(\S*)\s+{re.escape(term)}\b",
                                                       f"{b.record.title}. {b.record.abstract or ''}")]
        before = [m.group(1).lstrip("([{\"'") for m in found]  # "(Wall Street Journal"
        if before and all(w[:1].isupper() and w[-1:].isalpha() for w in before):
            return "fragment"
    return "word" if len(words) == 1 and "-" not in term else ""


def theme_terms(plan: WritingPlan, themes: Sequence[ThemeOutline]) -> list[list[str]]:
    """The label terms each theme's paragraph is written under (as :func:`write_theme` picks them)."""
    firsts = [theme_label(t, short=True) for t in themes]
    return [paragraph_terms(t, ordered_briefs(t.keys, plan), firsts[:i] + firsts[i + 1:])
            for i, t in enumerate(themes)]


def paragraph_terms(theme: ThemeOutline, briefs: Sequence[PaperBrief], others: Sequence[str]) -> list[str]:
    """The label terms one theme's paragraph is written under, its papers being ``briefs`` and the
    other themes' first terms ``others`` (:func:`joint_terms`)."""
    return joint_terms(label_terms(theme, most=3), briefs, others)


def regrouped(plan: WritingPlan, themes: Sequence[ThemeOutline]) -> list[ThemeOutline]:
    """The themes with each paper whose title and abstract do not name its own theme's label, but
    do name another's, moved to the first such theme (a dataset paper on related-work sections is
    written about under "related-work sections", not under "citation recommendation"); themes left
    empty are dropped, and themes a paragraph would name alike are one (:func:`merged_alike`)."""
    terms = theme_terms(plan, themes)
    keys: list[list[str]] = [list(t.keys) for t in themes]
    for i, theme in enumerate(themes):
        for key in theme.keys:
            brief = plan.papers.get(key)
            if brief is None or fits_label(brief.record.title, brief.record.abstract or "", terms[i]):
                continue
            home = next((j for j in range(len(themes)) if j != i and terms[j]
                         and fits_label(brief.record.title, brief.record.abstract or "", terms[j])), None)
            if home is not None:
                keys[i].remove(key)
                keys[home].append(key)
    return merged_alike(plan, [replace(t, keys=tuple(k)) for t, k in zip(themes, keys, strict=True) if k])


def paragraph_label(terms: Sequence[str], theme: ThemeOutline) -> str:
    """The label a theme's paragraph is written under: its terms (:func:`theme_terms`) joined, else
    the theme's own label."""
    return join_terms(terms) if terms else theme_label(theme)


# a theme of at most this many papers is a weak cluster: it joins an earlier theme whose label says
# all it says
WEAK_THEME_PAPERS = 4


def merged_alike(plan: WritingPlan, themes: Sequence[ThemeOutline]) -> list[ThemeOutline]:
    """The themes with each one whose paragraph would be written under the same label as an earlier
    theme's merged into that earlier theme (two paragraphs on "coreference resolution": the
    communities their papers form are not something a reader can see), and each weak one (at most
    :data:`WEAK_THEME_PAPERS` papers) whose label names the earlier one's first term and no term
    that the earlier one does not ("statistical machine translation" after "statistical machine
    translation and grammars"; not after "word sense disambiguation and statistical machine
    translation": that topic sentence would name word sense disambiguation for its papers). A larger
    theme stays its own paragraph: merged, it would make one paragraph of some twenty papers."""
    merged = list(themes)
    while True:
        shown = [[t.lower() for t in terms] or [theme_label(theme).lower()]
                 for terms, theme in zip(theme_terms(plan, merged), merged, strict=True)]
        named = [frozenset(terms) for terms in shown]
        pairs = ((i, j) for i in range(len(merged)) for j in range(i)
                 if named[i] == named[j] or shown[j][0] in named[i] and named[i] < named[j]
                 and len(merged[i].keys) <= WEAK_THEME_PAPERS)
        later, first = next(pairs, (None, 0))
        if later is None:
            return merged
        merged[first] = replace(merged[first], keys=merged[first].keys + merged[later].keys)
        del merged[later]


def topic_papers(briefs: Sequence[PaperBrief], fitting: set[str], terms: Sequence[str]) -> list[PaperBrief]:
    """The papers a theme's topic sentence cites: its most relevant papers whose text names the
    label; where no title among them names it, those whose titles do (a title says what a paper is
    about, so the judge can hold the topic sentence to it), when there are any; where none of those
    has an abstract, the most relevant that have one, when there are any (a title that names only
    part of a label of two terms leaves the judge nothing to hold the rest to)."""
    on_label = sorted((b for b in briefs if b.key in fitting), key=lambda b: -b.relevance)
    named = [b for b in on_label if any(names_term(b.record.title, term) for term in terms)]
    leading = on_label[:TOPIC_CITES]
    chosen = leading if not named or any(b in named for b in leading) else named[:TOPIC_CITES]
    if any(b.record.abstract for b in chosen):
        return chosen
    read = [b for b in on_label if b.record.abstract]
    return read[:TOPIC_CITES] or chosen
