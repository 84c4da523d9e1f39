"""Evidence for claim checking: the sentences of a cited paper's title, abstract and full text.

A claim is judged against what the cited paper says about itself. The paper's text is cleaned of
LaTeX markup (abstracts in .bib files often carry it) and split into sentences; each sentence is
one :class:`Evidence` item, numbered in reading order.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from relatex.analysis.bib.bibtex import decode_latex
from relatex.analysis.latex.cite_commands import CITE_NAME_PATTERN
from relatex.analysis.sentences import split_sentences


@dataclass(frozen=True)
class Evidence:
    """One sentence a cited paper offers as evidence.

    ``paper_key`` is the draft's citation key, ``paper_id`` the knowledge-base record id when
    known, ``index`` the sentence's position in the paper's text (title 0 when present),
    ``source`` one of "title", "abstract", "full_text"; ``authors`` the paper's author surnames
    (judges remove them from the claim, where they only name the citation).
    """

    paper_key: str
    paper_id: str | None
    sentence: str
    index: int
    source: str = "abstract"
    authors: tuple[str, ...] = ()


def split_into_sentences(text: str) -> list[str]:
    """The sentences of a plain text, stripped, empty ones dropped."""
    result: list[str] = []
    for start, end in split_sentences(text):
        sentence = " ".join(text[start:end].split())
        if sentence:
            result.append(sentence)
    return result


_CITE = re.compile(r"\\" + CITE_NAME_PATTERN + r"\*?(?:\[[^\]]*\]){0,2}\{[^{}]*\}")


def clean_text(text: str) -> str:
    """Readable plain text from a (possibly LaTeX-marked-up) abstract, for comparison only."""
    return " ".join(decode_latex(_CITE.sub("", text)).split())


def paper_evidence(
    paper_key: str,
    paper_id: str | None,
    abstract: str | None,
    *,
    title: str | None = None,
    full_text: Iterable[str] = (),
    authors: Sequence[str] = (),
    max_sentences: int = 200,
) -> tuple[Evidence, ...]:
    """The evidence sentences of one paper: title, abstract sentences, then full-text chunks."""
    surnames = tuple(a for a in (_surname(x) for x in authors) if a)
    items: list[Evidence] = []

    def add(sentence: str, source: str) -> None:
        if len(items) < max_sentences and len(sentence) > 2:
            items.append(Evidence(paper_key, paper_id, sentence, len(items), source, surnames))

    if title and (clean_title := clean_text(title)):
        add(clean_title, "title")
    if abstract:
        for sentence in split_into_sentences(clean_text(abstract)):
            add(sentence, "abstract")
    for chunk in full_text:
        for sentence in split_into_sentences(clean_text(chunk)):
            add(sentence, "full_text")
    return tuple(items)


def has_body(evidence: Sequence[Evidence]) -> bool:
    """Whether evidence holds more than titles (a title alone is too little to judge a claim)."""
    return any(item.source != "title" for item in evidence)


def evidence_hash(evidence: Sequence[Evidence]) -> str:
    """A stable digest of the evidence content, for verdict caching."""
    digest = hashlib.sha256()
    for item in evidence:
        digest.update(f"{item.paper_key}\x1f{item.paper_id or ''}\x1f{item.source}\x1f{item.sentence}\x1e".encode())
    return digest.hexdigest()


def _surname(author: str) -> str:
    author = clean_text(author).strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    parts = author.split()
    return parts[-1] if parts else ""
