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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from relatex.analysis.sentences import split_sentences
from relatex.writing.closings import GENERAL_STEMS, word_stems
from relatex.writing.latex_validator import cited_keys

_LIST_OR_POINTER = ("Other work on", "See also")


@dataclass(frozen=True)
class FoldedTheme:
    """A thin theme as it joins another paragraph: its label, the papers its list sentence cites,
    and the papers it only pointed to."""

    label: str
    listed: tuple[str, ...]
    pointed: tuple[str, ...]


def _sentences(paragraph: str) -> list[str]:
    return [paragraph[a:b].strip() for a, b in split_sentences(paragraph)]


def discusses(paragraph: str) -> bool:
    """Whether a paragraph says something of a paper beyond its topic sentence: a later sentence
    that cites, other than a citation list or a "See also" pointer."""
    return any("\\cite" in s and not s.startswith(_LIST_OR_POINTER) for s in _sentences(paragraph)[1:])


def as_folded(paragraph: str, label: str) -> FoldedTheme:
    """The thin ``paragraph`` (of a theme written under ``label``) as a :class:`FoldedTheme`."""
    pointed = [k for s in _sentences(paragraph) if s.startswith("See also") for k in cited_keys(s)]
    listed = [k for k in cited_keys(paragraph) if k not in pointed]
    return FoldedTheme(label, tuple(dict.fromkeys(listed)), tuple(dict.fromkeys(pointed)))


def _content_stems(label: str) -> set[str]:
    return word_stems(label) - GENERAL_STEMS  # "models", "methods" make no kin


def _kin(thin_label: str, label: str) -> int:
    """How near a thin theme's label is to another's: the content stems of the other label that
    a term of the thin one ("coreference resolution" of "metrics and coreference resolution")
    lies wholly within, 0 when none does ("cross-language information retrieval" is no kin of
    "cross-lingual textual entailment")."""
    stems = _content_stems(label)
    terms = [_content_stems(t) for t in re.split(r",\s*|\s+and\s+", thin_label)]
    return max((len(t) for t in terms if t and t <= stems), default=0)


def fold_targets(labels: Sequence[str], thin: Sequence[bool]) -> dict[int, int]:
    """For each thin theme (by index), the theme it folds into: of the themes that discuss their
    papers, the nearest (:func:`_kin`; the earlier on a tie); a thin theme near none is not
    folded. Nothing is folded when no theme discusses."""
    kept = [i for i, t in enumerate(thin) if not t]
    out: dict[int, int] = {}
    for i, is_thin in enumerate(thin):
        if not is_thin:
            continue
        best = max(((_kin(labels[i], labels[j]), -j) for j in kept), default=(0, 0))
        if best[0] > 0:
            out[i] = -best[1]
    return out


def folds_by_target(targets: Mapping[int, int], drafts: Sequence[str],
                    labels: Sequence[str]) -> dict[int, list[FoldedTheme]]:
    """The folded themes each target theme receives, in the section's order."""
    out: dict[int, list[FoldedTheme]] = {}
    for thin_index, target in sorted(targets.items()):
        out.setdefault(target, []).append(as_folded(drafts[thin_index], labels[thin_index]))
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
