"""Sentences of LaTeX source and the claims they make with citations.

A *claim* is a prose sentence that carries citations, as plain text with a mapping back to
source offsets. Citation commands are removed from the claim text; textual citations
(``\\citet{x} show ...``) become "this work" so that the sentence keeps its subject. A sentence
with several citation commands yields one :class:`Claim` per command (citation group), all
sharing the sentence text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from relatex.analysis.latex.latex_scan import PARAGRAPH_BREAK_RE, read_arguments, skip_spaces
from relatex.analysis.latex.latex_text import plain_text
from relatex.analysis.latex.project_model import CitationSite, Claim
from relatex.analysis.sentences import split_sentences

TEXTUAL_CITATION_PLACEHOLDER = "this work"

_BLOCK_START_RE = re.compile(
    r"\\(item|par|bibitem|maketitle|begin|end)(?![A-Za-z@])"
)
_LABEL_RE = re.compile(r"\\label[ \t]*\{[^{}]*\}")
_WRAPPER_RE = re.compile(r"\\(?:footnote|footnotetext|caption|thanks|subcaption)(?![A-Za-z@])\*?")
_HEADING_RE = re.compile(
    r"\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph)(?![A-Za-z@])\*?"
)


def _after_label(masked: str, pos: int) -> int:
    """Skip a ``\\label{..}`` that directly follows a heading or environment start."""
    m = _LABEL_RE.match(masked, skip_spaces(masked, pos, allow_paragraph=False))
    return m.end() if m else pos


def _blocks(text: str, masked: str, end: int) -> list[tuple[int, int]]:
    """Ranges of prose between paragraph breaks and structural commands."""
    cuts: list[tuple[int, int]] = []  # (cut start, resume at)
    for m in PARAGRAPH_BREAK_RE.finditer(text, 0, end):
        cuts.append((m.start(), m.end()))
    for m in _BLOCK_START_RE.finditer(masked, 0, end):
        if m.group(1) in ("begin", "end"):
            args = read_arguments(masked, m.end(), max_optional=0, required=1, limit=200)
            resume = args.end
            if m.group(1) == "begin":
                resume = read_arguments(masked, resume, max_optional=1, required=0, limit=200).end
        else:
            resume = read_arguments(masked, m.end(), max_optional=1, required=0, limit=200).end
        cuts.append((m.start(), _after_label(masked, max(resume, m.end()))))
    for m in _HEADING_RE.finditer(masked, 0, end):
        args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=2000)
        cuts.append((m.start(), _after_label(masked, max(args.end, m.end()))))
    for m in _WRAPPER_RE.finditer(masked, 0, end):
        args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=20000)
        if not args.required:
            continue
        group = args.required[0]
        cuts.append((m.start(), group.content_start))
        if group.closed:
            cuts.append((group.close, group.end))
    cuts.sort()
    blocks: list[tuple[int, int]] = []
    cursor = 0
    for cut_start, resume in cuts:
        if cut_start > cursor:
            blocks.append((cursor, cut_start))
        cursor = max(cursor, resume)
    if cursor < end:
        blocks.append((cursor, end))
    return blocks


def source_sentences(text: str, masked: str, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence ranges of LaTeX source (comments ignored, paragraphs and headings respected)."""
    stop = len(text) if end is None else end
    sentences: list[tuple[int, int]] = []
    for start, block_end in _blocks(text, masked, stop):
        sentences.extend(split_sentences(masked, start, block_end, paragraph_breaks=False))
    return sentences


def with_sentences(sites: Sequence[CitationSite], sentences: Sequence[tuple[int, int]]) -> list[CitationSite]:
    """Sites with ``sentence_start``/``sentence_end`` set to the sentence(s) they sit in."""
    starts = [s for s, _ in sentences]
    result: list[CitationSite] = []
    for site in sites:
        first = _containing(starts, sentences, site.start)
        last = _containing(starts, sentences, max(site.start, site.end - 1))
        if first is None:
            result.append(replace(site, sentence_start=site.start, sentence_end=site.end))
            continue
        start = sentences[first][0]
        end = sentences[last][1] if last is not None else sentences[first][1]
        result.append(replace(site, sentence_start=min(start, site.start),
                              sentence_end=max(end, site.end)))
    return result


def _containing(starts: list[int], sentences: Sequence[tuple[int, int]], offset: int) -> int | None:
    index = bisect_right(starts, offset) - 1
    if index < 0:
        return None
    start, end = sentences[index]
    return index if start <= offset < end else None


_POINTER_WORDS = frozenset({"see", "also", "e.g", "eg", "cf", "for", "example", "examples", "instance", "details",
                            "detail", "more", "further", "and", "references", "therein", "the", "a", "an", "in",
                            "particular", "or", "i.e", "ie", "etc", "among", "others"})


def _only_pointer(words: str) -> bool:
    """A sentence that only points to the cited work ("See also", "cf.", "e.g."): it states nothing to check."""
    tokens = re.findall(r"[A-Za-z]+(?:\.[A-Za-z]+)*", words.lower())
    return bool(tokens) and all(t in _POINTER_WORDS for t in tokens)


def claims_for_file(path: Path, text: str, sites: Sequence[CitationSite], masked: str | None = None) -> list[Claim]:
    """One Claim per citation command in prose.

    ``\\nocite``, key-less sites and sentences with no words left once citations are removed
    (a bare ``\\cite{x}``), or only pointer words ("See also \\cite{x}."), give no claim.
    """
    claims: list[Claim] = []
    sentence_cache: dict[tuple[int, int], tuple[str, tuple[int, ...]]] = {}
    for site in sites:
        keys = tuple(k.key for k in site.keys if k.key != "*")
        if site.is_nocite or not keys:
            continue
        span = (site.sentence_start, site.sentence_end)
        if span not in sentence_cache:
            plain, offsets = plain_text(text, span[0], span[1],
                                        textual_citation=TEXTUAL_CITATION_PLACEHOLDER, masked=masked)
            plain, offsets = _normalise(plain, offsets)
            sentence_cache[span] = (plain, offsets)
        plain, offsets = sentence_cache[span]
        if claims and claims[-1].keys == keys and (claims[-1].start, claims[-1].end) == span:
            continue  # "\\citeauthor{x}~(\\citeyear{x})" is one citation group
        words = plain.replace(TEXTUAL_CITATION_PLACEHOLDER.capitalize(), "").replace(TEXTUAL_CITATION_PLACEHOLDER, "")
        if not any(ch.isalnum() for ch in words) or _only_pointer(words):
            continue
        claims.append(
            Claim(
                text=plain,
                keys=keys,
                path=path,
                start=span[0],
                end=span[1],
                cite_start=site.start,
                cite_end=site.end,
                offsets=offsets,
            )
        )
    return claims


_LEFTOVER_RES = (
    re.compile(r" ?\((?:[ ,;]|and)*\)"),  # "()" or "(, )" left by removed citations
    re.compile(r" ?\[[ ,;]*\]"),
    re.compile(r" ?[,;] ?(?=[.,;:)])"),  # ", ." -> "."
)


def _remove(plain: str, offsets: tuple[int, ...], pattern: re.Pattern[str]) -> tuple[str, tuple[int, ...]]:
    spans = [(m.start(), m.end()) for m in pattern.finditer(plain)]
    if not spans:
        return plain, offsets
    text_parts: list[str] = []
    offset_parts: list[tuple[int, ...]] = []
    cursor = 0
    for start, end in spans:
        text_parts.append(plain[cursor:start])
        offset_parts.append(offsets[cursor:start])
        cursor = end
    text_parts.append(plain[cursor:])
    offset_parts.append(offsets[cursor:])
    return "".join(text_parts), tuple(off for part in offset_parts for off in part)


def _normalise(plain: str, offsets: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """One line of text (paragraph marks become spaces), orphaned punctuation removed and a
    leading placeholder capitalised."""
    plain, offsets = _remove(plain, offsets, re.compile(r"(?<=\n)\n"))
    plain = plain.replace("\n", " ")
    for pattern in _LEFTOVER_RES:
        plain, offsets = _remove(plain, offsets, pattern)
    stripped = plain.strip()
    if stripped != plain:
        lead = len(plain) - len(plain.lstrip())
        offsets = offsets[lead:lead + len(stripped)]
        plain = stripped
    if plain.startswith(TEXTUAL_CITATION_PLACEHOLDER):
        plain = plain[0].upper() + plain[1:]
    return plain, offsets
