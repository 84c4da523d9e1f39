"""Themes with nothing to say of their papers, folded into a kindred paragraph as a citation list.

A theme whose papers have only titles (or abstracts no sentence could be written from) makes a
paragraph of one topic sentence: "Research on metrics and coreference resolution \\citep{a,b,c}
forms a further strand." A reader would fold it into the paragraph it belongs with. Such a theme
is written as one list sentence at the end of the paragraph whose label holds a whole term of its
own ("Other work on metrics and coreference resolution includes~\\citep{a,b,c}." in the paragraph
on coreference resolution), before that paragraph's closing; papers it only pointed to join that
paragraph's "See also" list. A thin theme that no other theme's label is near stays a paragraph
of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from relatex.writing.contributions import sentences_of
from relatex.writing.plan import ThemeOutline
from relatex.writing.theme_names import GENERAL_STEMS, word_stems

_LIST_OR_POINTER = ("Other work on", "See also")


@dataclass(frozen=True)
class FoldedTheme:
    """A theme as it would join another paragraph if thin: its label and the terms the label
    joins, the papers its list sentence would cite, and the papers it only pointed to."""

    label: str
    terms: tuple[str, ...]
    listed: tuple[str, ...]
    pointed: tuple[str, ...]


@dataclass(frozen=True)
class ThemeParagraph:
    """A theme's paragraph as written, and the theme as a citation list (:class:`FoldedTheme`)."""

    text: str
    as_list: FoldedTheme


def _sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in sentences_of(paragraph)]


def discusses(paragraph: str) -> bool:
    """Whether a paragraph says something of a paper beyond its topic sentence: a later sentence
    that cites, other than a citation list or a "See also" pointer."""
    return any("\\cite" in s and not s.startswith(_LIST_OR_POINTER) for s in _sentences(paragraph)[1:])


def _content_stems(term: str) -> set[str]:
    return word_stems(term) - GENERAL_STEMS  # "models", "methods" make no kin


def _kin(thin_terms: Sequence[str], terms: Sequence[str]) -> int:
    """How near a thin theme's label is to another's (each by its terms): the content stems of the
    other label that a term of the thin one ("coreference resolution" of "metrics and coreference
    resolution") lies wholly within, 0 when none does ("cross-language information retrieval" is
    no kin of "cross-lingual textual entailment")."""
    stems = set().union(*map(_content_stems, terms))
    return max((len(t) for t in map(_content_stems, thin_terms) if t and t <= stems), default=0)


def fold_targets(terms: Sequence[Sequence[str]], thin: Sequence[bool]) -> dict[int, int]:
    """For each thin theme (by index; ``terms``: each theme's label terms), the theme it folds into:
    of the themes that discuss their papers, the nearest (:func:`_kin`; the earlier on a tie); a
    thin theme near none is not folded. Nothing is folded when no theme discusses."""
    kept = [i for i, t in enumerate(thin) if not t]
    out: dict[int, int] = {}
    for i, is_thin in enumerate(thin):
        if not is_thin:
            continue
        best = max(((_kin(terms[i], terms[j]), -j) for j in kept), default=(0, 0))
        if best[0] > 0:
            out[i] = -best[1]
    return out


def folds_by_target(targets: Mapping[int, int],
                    themes: Sequence[FoldedTheme]) -> dict[int, list[FoldedTheme]]:
    """The folded themes each target theme receives (``themes``: every theme as a list), in the
    section's order."""
    out: dict[int, list[FoldedTheme]] = {}
    for thin_index, target in sorted(targets.items()):
        out.setdefault(target, []).append(themes[thin_index])
    return out


def list_sentences(own_label: str, own_keys: Sequence[str], folded: Sequence[FoldedTheme]) -> list[str]:
    """The paragraph's citation lists: its own ("Other work on X includes ...") and one per folded
    theme, a folded theme written under the same label joining the paragraph's own list."""
    lists: dict[str, list[str]] = {own_label: list(own_keys)} if own_keys else {}
    for theme in folded:
        keys = lists.setdefault(theme.label, [])
        keys.extend(k for k in theme.listed if k not in keys)
    return [f"Other work on {label} includes~\\citep{{{','.join(keys)}}}."
            for label, keys in lists.items() if keys]


def folded_themes(themes: list[ThemeOutline], written: Sequence[ThemeParagraph]
                  ) -> tuple[list[ThemeOutline], dict[int, list[FoldedTheme]]]:
    """The themes still written as paragraphs, and the thin themes each one ends with (by its new
    index), from the paragraphs first ``written`` for all of them: a thin theme, one that
    :func:`discusses` none of its papers, folds into its kindred theme (:func:`fold_targets`)."""
    thin = [not discusses(p.text) for p in written]
    if not any(thin) or all(thin):
        return themes, {}
    targets = fold_targets([p.as_list.terms for p in written], thin)
    kept = [i for i in range(len(themes)) if i not in targets]
    folds = folds_by_target(targets, [p.as_list for p in written])
    return [themes[i] for i in kept], {n: folds[i] for n, i in enumerate(kept) if i in folds}
