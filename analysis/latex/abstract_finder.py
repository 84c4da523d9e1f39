"""The draft's abstract, wherever the author wrote it.

In file order: an ``abstract`` environment, ``\\abstract{...}`` or a thesis class's
``\\startabstractpage`` (:func:`relatex.analysis.latex.structure.find_abstract`); then a heading titled
"Abstract" (``\\chapter*{Abstract}``, ``\\addchap{Abstract}``, ``\\section*{Abstract}``). When the
found range holds no text but includes a file (``\\begin{abstract}\\input{abstract}\\end{abstract}``,
``\\chapter*{Abstract}\\input{front/abstract}``), the abstract is that file's text: the result
names the file and the range where the words are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from relatex.analysis.latex.project_model import Section
from relatex.analysis.latex.structure import abstract_block, find_abstract

ABSTRACT_TITLES = frozenset({"abstract", "abstracts", "summary of the thesis", "thesis abstract"})
_MAX_FOLLOW = 3


@dataclass(frozen=True)
class FileView:
    """What the finder needs of one loaded file: its text, masked text, end of document and
    includes as ``(start, end, resolved target or None)``."""

    text: str
    masked: str
    doc_end: int | None
    includes: tuple[tuple[int, int, Path | None], ...] = ()


@dataclass(frozen=True)
class FoundAbstract:
    """The abstract as one line of plain text and the source range of its words."""

    text: str
    path: Path
    start: int
    end: int


def _norm(title: str) -> str:
    return " ".join(re.sub(r"[^a-z]+", " ", title.lower()).split())


def _walk(sections: Sequence[Section]) -> Iterator[Section]:
    for section in sections:
        yield section
        yield from _walk(section.children)


def _in_range(files: Mapping[Path, FileView], path: Path, start: int, end: int,
              depth: int = 0) -> FoundAbstract | None:
    """The abstract in ``[start, end)`` of ``path``, following included files when it has no words."""
    view = files[path]
    block = abstract_block(view.text, view.masked, start, end)
    if block.text:
        return FoundAbstract(block.text, path, block.start, block.end)
    if depth >= _MAX_FOLLOW:
        return None
    for inc_start, _inc_end, target in view.includes:
        if target is None or target not in files or not start <= inc_start < end:
            continue
        found = _whole_file(files, target, depth + 1)
        if found is not None:
            return found
    return None


def _whole_file(files: Mapping[Path, FileView], path: Path, depth: int) -> FoundAbstract | None:
    """An included file's abstract: its own environment if it has one, else all its text."""
    view = files[path]
    block = find_abstract(view.text, view.masked, view.doc_end)
    if block is not None:
        return _in_range(files, path, block.start, block.end, depth)
    return _in_range(files, path, 0, view.doc_end if view.doc_end is not None else len(view.text), depth)


def _heading_content_start(text: str, section: Section) -> int:
    close = text.find("}", section.title_end)
    return close + 1 if close != -1 and close < section.end else section.title_end


def locate_abstract(files: Mapping[Path, FileView], order: Sequence[Path],
                    sections: Sequence[Section]) -> FoundAbstract | None:
    """The first abstract with words, by environment or command, then by an "Abstract" heading."""
    for path in order:
        view = files[path]
        block = find_abstract(view.text, view.masked, view.doc_end)
        if block is None:
            continue
        found = _in_range(files, path, block.start, block.end)
        if found is not None:
            return found
    for section in _walk(sections):
        if _norm(section.title) in ABSTRACT_TITLES and section.path in files:
            start = _heading_content_start(files[section.path].text, section)
            found = _in_range(files, section.path, start, section.end)
            if found is not None:
                return found
    for path in order:  # an abstract.tex included without any heading or environment
        if path.stem.lower() in ("abstract", "abstract-en", "abstract_en") and path != order[0]:
            found = _whole_file(files, path, 1)
            if found is not None:
                return found
    return None
