"""What both writers work from: the selected papers with their final keys, the theme outline and
the graph relations between papers, independent of how the selection was computed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from relatex.analysis.claims.claim_words import STOPWORDS, stem
from relatex.analysis.sentences import split_sentences
from relatex.retrieval.records import PaperRecord, surname

LAYER_RANK = {"foundation": 0, "development": 1, "frontier": 2}


@dataclass(frozen=True)
class PaperBrief:
    """A paper as the writers see it: its citation key, its place in the outline, what to read."""

    key: str
    record: PaperRecord
    layer: str = "development"
    theme: int = 0
    relevance: float = 0.0
    reasons: tuple[str, ...] = ()
    sentences: tuple[str, ...] = ()  # the text a writer may read (selected sentences or abstract)

    @property
    def id(self) -> str:
        return self.record.id

    def author_phrase(self) -> str:
        """"Smith", "Smith and Jones" or "Smith et al." for textual citations without natbib."""
        names = [surname(a) for a in self.record.authors if surname(a)]
        if not names:
            return "The authors"
        if len(names) == 1:
            return names[0]
        if len(names) == 2:
            return f"{names[0]} and {names[1]}"
        return f"{names[0]} et al."

    @property
    def single_author(self) -> bool:
        return len(self.record.authors) == 1


@dataclass(frozen=True)
class ThemeOutline:
    """One theme: its label and terms, and its papers' keys from foundation to frontier."""

    id: int
    label: str
    terms: tuple[str, ...]
    keys: tuple[str, ...]


@dataclass(frozen=True)
class WritingPlan:
    """Everything a writer needs; ``relations[(a, b)]`` are the graph edge kinds from a to b."""

    draft_title: str
    draft_abstract: str
    papers: Mapping[str, PaperBrief]
    themes: tuple[ThemeOutline, ...]
    reading_order: tuple[str, ...] = ()
    relations: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)

    def neighbours(self, key: str) -> set[str]:
        """Keys one hop from ``key`` (either direction)."""
        out: set[str] = set()
        for a, b in self.relations:
            if a == key:
                out.add(b)
            elif b == key:
                out.add(a)
        out.discard(key)
        return out

    def cites(self, citing: str, cited: str) -> bool:
        return "cites" in self.relations.get((citing, cited), ())

    def related(self, a: str, b: str) -> tuple[str, ...]:
        return self.relations.get((a, b), ()) + self.relations.get((b, a), ())

    def alike(self, a: str, b: str) -> bool:
        """Whether "Similarly, ..." may say of two papers that they are alike: related in the graph, and
        their titles share a word that names something ("dependency", not "model"): vectors alone put "The
        Probabilistic Relevance Framework" beside "Content-Based Citation Recommendation"."""
        first, second = self.papers.get(a), self.papers.get(b)
        return bool(self.related(a, b) and first and second
                    and title_words(first.record.title) & title_words(second.record.title))


# title words that name no subject of their own: what was built, or how
_GENERIC_TITLE_WORDS = frozenset(stem(w) for w in """model models system systems framework algorithm technique
    learning toward towards improving improved efficient effective simple beyond""".split())


def title_words(title: str) -> set[str]:
    """A title's words that name something, by a cheap stem (stop words and generic words left out)."""
    words = re.findall(r"[a-z][a-z0-9\-]{3,}", title.lower())
    return {stem(w) for w in words if w not in STOPWORDS} - _GENERIC_TITLE_WORDS


def reading_sentences(record: PaperRecord, read: tuple[str, ...], depth: int = 0) -> tuple[str, ...]:
    """The selection's chosen sentences, else the abstract's sentences (first ``depth`` when > 0)."""
    if read:
        return read
    abstract = " ".join((record.abstract or "").split())
    sentences = tuple(abstract[a:b] for a, b in split_sentences(abstract))
    return sentences[:depth] if depth > 0 else sentences
