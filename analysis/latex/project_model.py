"""The data model of a LaTeX project: plain frozen dataclasses over character offsets.

Built by :func:`relatex.analysis.latex.latex_project.load_project`; read by every other part of
relatex (retrieval, writing, verification, the language server).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from relatex.analysis.findings import Finding


@dataclass(frozen=True)
class SourceFile:
    """One file of the project as read (or as the editor has it, when an overlay is given)."""

    path: Path
    text: str


@dataclass(frozen=True)
class CitationKey:
    """One key inside a citation command; ``[start, end)`` covers exactly the key's characters."""

    key: str
    path: Path
    start: int
    end: int


@dataclass(frozen=True)
class CitationSite:
    """One citation command such as ``\\citep[see][p.~3]{a, b}``.

    ``start``/``end`` cover the whole command; ``sentence_start``/``sentence_end`` the source
    range of the enclosing sentence (same file).
    """

    command: str
    keys: tuple[CitationKey, ...]
    path: Path
    start: int
    end: int
    prenote: str | None = None
    postnote: str | None = None
    sentence_start: int = 0
    sentence_end: int = 0

    @property
    def is_nocite(self) -> bool:
        return self.command.lower().startswith("nocite")


@dataclass(frozen=True)
class Section:
    """A sectioning command and the range of the text it governs (up to the next peer)."""

    title: str
    level: int  # 0 part, 1 chapter, 2 section, 3 subsection, 4 subsubsection, 5 paragraph
    command: str
    path: Path
    start: int  # start of the command
    end: int  # end of the governed range (exclusive)
    title_start: int = 0
    title_end: int = 0
    label: str | None = None
    children: tuple[Section, ...] = ()


@dataclass(frozen=True)
class BibResource:
    """A bibliography declared by the draft: a .bib file or a ``thebibliography`` environment."""

    kind: str  # "bibliography" | "addbibresource" | "thebibliography"
    path: Path | None  # resolved .bib path (None for thebibliography)
    declared_in: Path
    start: int
    end: int
    exists: bool = True


@dataclass(frozen=True)
class BibItem:
    """``\\bibitem[label]{key} text`` inside a ``thebibliography`` environment."""

    key: str
    text: str
    path: Path
    start: int
    end: int


@dataclass(frozen=True)
class Claim:
    """A sentence of prose carrying citations, as plain text, for claim checking.

    ``text`` is the plain text of the sentence with citation commands removed;
    ``offsets[i]`` is the source offset (in ``path``) of ``text[i]``. One Claim per citation
    group: a sentence citing several groups gives one Claim per group, all sharing the
    sentence text, each with its own ``keys`` and ``cite_start``/``cite_end``.
    """

    text: str
    keys: tuple[str, ...]
    path: Path
    start: int  # sentence source range
    end: int
    cite_start: int  # the citation command of this group
    cite_end: int
    offsets: tuple[int, ...] = ()

    def source_offset(self, index: int) -> int:
        """Source offset of a character of ``text`` (clamped)."""
        if not self.offsets:
            return self.start
        return self.offsets[max(0, min(index, len(self.offsets) - 1))]


@dataclass(frozen=True)
class LatexProject:
    """A whole project loaded from its root file."""

    root: Path
    root_dir: Path
    files: Mapping[Path, SourceFile]
    file_order: tuple[Path, ...]
    title: str | None = None
    authors: tuple[str, ...] = ()
    abstract: str | None = None
    abstract_range: tuple[Path, int, int] | None = None
    sections: tuple[Section, ...] = ()
    citations: tuple[CitationSite, ...] = ()
    bib_resources: tuple[BibResource, ...] = ()
    bib_items: tuple[BibItem, ...] = ()
    claims: tuple[Claim, ...] = ()
    findings: tuple[Finding, ...] = ()
    citation_package: str = "none"  # "natbib" | "biblatex" | "none"
    includes: Mapping[Path, tuple[Path, ...]] = field(default_factory=dict)
    # the author's own citation commands: (name without backslash, mandatory arguments before the keys),
    # once per argument holding keys
    cite_macros: tuple[tuple[str, int], ...] = ()

    def cited_keys(self, nocite: bool = True) -> tuple[str, ...]:
        """Every key cited (``*`` of ``\\nocite{*}`` excluded), first occurrence order; without
        ``nocite``, only keys cited in the text (not those only listed by ``\\nocite``)."""
        seen: dict[str, None] = {}
        for site in self.citations:
            if site.is_nocite and not nocite:
                continue
            for key in site.keys:
                if key.key != "*":
                    seen.setdefault(key.key, None)
        return tuple(seen)

    def nocite_keys(self) -> tuple[str, ...]:
        """Keys listed by ``\\nocite`` and cited nowhere in the text."""
        cited = set(self.cited_keys(nocite=False))
        return tuple(key for key in self.cited_keys() if key not in cited)

    def bib_paths(self) -> tuple[Path, ...]:
        return tuple(r.path for r in self.bib_resources if r.path is not None)
