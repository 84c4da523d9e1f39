"""The themes a section's paragraphs are written under: their papers in reading order, the label
terms each paragraph names, and papers moved to the theme whose label their text names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from relatex.writing.closings import fits_label, label_terms, theme_label
from relatex.writing.plan import LAYER_RANK, PaperBrief, ThemeOutline, WritingPlan

__all__ = ["joint_terms", "ordered_briefs", "regrouped", "theme_terms"]


def ordered_briefs(keys: Sequence[str], plan: WritingPlan) -> list[PaperBrief]:
    """The theme's papers from foundation to frontier, in reading order within a layer."""
    position = {k: i for i, k in enumerate(plan.reading_order)}
    briefs = [plan.papers[k] for k in keys if k in plan.papers]
    return sorted(briefs, key=lambda b: (LAYER_RANK.get(b.layer, 1), position.get(b.key, len(position)),
                                         b.record.year or 0))


def joint_terms(terms: list[str], briefs: Sequence[PaperBrief], others: Sequence[str] = ()) -> list[str]:
    """The label's terms, without the second when no paper is about both ("web pages and product"
    over papers on either: two halves, not one theme), or when it fits at most half of the papers
    and adds none the first does not fit ("neural ranking [and weak supervision]" over two papers on
    neural ranking, one with weak supervision), or fewer than half while the first fits at least half
    ("eye tracking [and faceted search interfaces]"); unless the first alone shares a word with
    another theme's first term (``others``): then the second is what tells the paragraphs apart."""
    if len(terms) < 2:
        return terms
    fits = [[fits_label(b.record.title, b.record.abstract or "", [t]) for t in terms[:2]] for b in briefs]
    if not any(first and second for first, second in fits):
        return terms[:1]
    first, second = sum(f[0] for f in fits), sum(f[1] for f in fits)
    adds = any(f[1] and not f[0] for f in fits)
    weak = (second * 2 <= len(briefs) and not adds) or second * 2 < len(briefs) <= first * 2
    words = {w[:5] for w in terms[0].lower().split()}
    distinct = not any(words & {w[:5] for w in other.lower().split()} for other in others)
    return terms[:1] if weak and distinct else terms


def theme_terms(plan: WritingPlan, themes: Sequence[ThemeOutline]) -> list[list[str]]:
    """The label terms each theme's paragraph is written under (as :func:`write_theme` picks them)."""
    firsts = [theme_label(t, short=True) for t in themes]
    return [joint_terms(label_terms(t), ordered_briefs(t.keys, plan), firsts[:i] + firsts[i + 1:])
            for i, t in enumerate(themes)]


def regrouped(plan: WritingPlan, themes: Sequence[ThemeOutline]) -> list[ThemeOutline]:
    """The themes with each paper whose title and abstract do not name its own theme's label, but
    do name another's, moved to the first such theme (a dataset paper on related-work sections is
    written about under "related-work sections", not under "citation recommendation"); themes left
    empty are dropped."""
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
    return [replace(t, keys=tuple(k)) for t, k in zip(themes, keys, strict=True) if k]
