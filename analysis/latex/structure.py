"""Document structure: title, authors, abstract and the section headings of one file.

All scans run on masked text (comments and verbatim blanked) and return offsets into the
original text. Section *ranges* need the whole project (included files can end a section),
so they are computed by :mod:`relatex.analysis.latex.latex_project` from these headings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from relatex.analysis.latex.latex_scan import read_arguments, read_group, skip_spaces
from relatex.analysis.latex.latex_text import plain_text
from relatex.analysis.latex.project_model import BibItem, Section

SECTION_LEVELS: dict[str, int] = {
    "part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5,
    "subparagraph": 6, "addpart": 0, "addchap": 1, "addsec": 2,  # KOMA-Script's unnumbered headings
}
_SECTION_RE = re.compile(
    r"\\(part|chapter|section|subsection|subsubsection|paragraph|subparagraph|addpart|addchap|addsec)"
    r"(?![A-Za-z@])(\*?)"
)
_LABEL_RE = re.compile(r"\\label[ \t]*\{([^{}]*)\}")
_TITLE_RE = re.compile(r"\\(title|icmltitle|TITLE)(?![A-Za-z@])\*?")
_AUTHOR_RE = re.compile(
    r"\\(author|IEEEauthorblockN|icmlauthor)(?![A-Za-z@])\*?"
)
_AUTHOR_SPLIT_RE = re.compile(r"\\(?:and|And|AND)(?![A-Za-z@])")
_ABSTRACT_ENV_RE = re.compile(r"\\begin[ \t]*\{(abstract\*?|Abstract|abstracts|abstractpage)\}")
_ABSTRACT_CMD_RE = re.compile(r"\\(abstract|startabstractpage)(?![A-Za-z@])")
_ABSTRACT_PAGE_END_RE = re.compile(
    r"\\(?:endabstractpage|clearpage|cleardoublepage|newpage|chapter|section|addchap|addsec|begin|end)(?![A-Za-z@])"
)
_KEYWORDS_RE = re.compile(r"\\begin[ \t]*\{(IEEEkeywords|keywords?|keyword)\}")
_KEYWORDS_CMD_RE = re.compile(r"\\(?:keywords|keyword|KEYWORDS|ccsdesc|terms)(?![A-Za-z@])")
_NAME_SPLIT_RE = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|;\s*)")
_ARG_LIMIT = 20000
_BIBITEM_RE = re.compile(r"\\bibitem(?![A-Za-z@])")


@dataclass(frozen=True)
class SectionHeading:
    """A sectioning command found in one file (its range is computed project-wide)."""

    command: str
    level: int
    start: int
    head_end: int  # just after the title argument (and label, when one follows)
    title: str
    title_start: int
    title_end: int
    label: str | None


def find_section_headings(text: str, masked: str, end: int | None = None) -> list[SectionHeading]:
    """Sectioning commands (``\\part`` .. ``\\subparagraph``, starred, ``[short]`` title)."""
    headings: list[SectionHeading] = []
    for m in _SECTION_RE.finditer(masked, 0, len(masked) if end is None else end):
        args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=2000)
        if not args.required or not args.required[0].closed:
            continue
        group = args.required[0]
        if "#" in masked[group.content_start:group.content_end]:
            continue  # inside a macro definition
        title, _ = plain_text(text, group.content_start, group.content_end, masked=masked)
        label: str | None = None
        head_end = args.end
        after = skip_spaces(masked, args.end, allow_paragraph=False)
        label_match = _LABEL_RE.match(masked, after)
        if label_match is not None:
            label = label_match.group(1).strip() or None
            head_end = label_match.end()
        headings.append(
            SectionHeading(
                command=m.group(1) + m.group(2),
                level=SECTION_LEVELS[m.group(1)],
                start=m.start(),
                head_end=head_end,
                title=" ".join(title.split()),
                title_start=group.content_start,
                title_end=group.content_end,
                label=label,
            )
        )
    return headings


def find_title(text: str, masked: str, end: int | None = None) -> str | None:
    """The document title (``\\title[short]{long}``), as one line of plain text."""
    m = _TITLE_RE.search(masked, 0, len(masked) if end is None else end)
    if m is None:
        return None
    args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=_ARG_LIMIT)
    if not args.required or not args.required[0].closed:
        return None
    group = args.required[0]
    title, _ = plain_text(text, group.content_start, group.content_end, masked=masked)
    title = " ".join(title.split())
    return title or None


def find_authors(text: str, masked: str, end: int | None = None) -> list[str]:
    """Author names from ``\\author`` (repeated, ``\\and``-separated, ``[label]``), IEEE
    ``\\IEEEauthorblockN``, ICML ``\\icmlauthor`` and acmart-style ``\\author{..}\\affiliation``.

    Each author block keeps only its first line (affiliations and e-mails follow ``\\\\``);
    footnote-like commands (``\\thanks``, ``\\inst``, ``\\IEEEauthorrefmark``) are dropped.
    """
    names: list[str] = []
    for m in _AUTHOR_RE.finditer(masked, 0, len(masked) if end is None else end):
        args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=_ARG_LIMIT)
        if not args.required or not args.required[0].closed:
            continue
        group = args.required[0]
        if "\\IEEEauthorblockN" in masked[group.content_start:group.content_end]:
            continue  # the blocks inside are read on their own
        for chunk_start, chunk_end in _split_ranges(masked, group.content_start, group.content_end):
            first_line_end = _first_line_end(masked, chunk_start, chunk_end)
            plain, _ = plain_text(text, chunk_start, first_line_end, masked=masked)
            for name in _split_names(" ".join(plain.split())):
                if name not in names:
                    names.append(name)
    return names


def _split_ranges(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    cursor = start
    for m in _AUTHOR_SPLIT_RE.finditer(masked, start, end):
        ranges.append((cursor, m.start()))
        cursor = m.end()
    ranges.append((cursor, end))
    return ranges


def _first_line_end(masked: str, start: int, end: int) -> int:
    """End of the first ``\\\\``-separated line at brace depth 0 (affiliations follow)."""
    depth = 0
    i = start
    while i < end:
        ch = masked[i]
        if ch == "\\":
            if i + 1 < end and masked[i + 1] == "\\" and depth == 0:
                return i
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        i += 1
    return end


def _split_names(line: str) -> list[str]:
    """Split "A, B and C" into names when every part looks like a person's name."""
    line = line.strip(" ,;*\u2020\u2021")
    if not line:
        return []
    parts = [p.strip(" ,;*\u2020\u2021") for p in _NAME_SPLIT_RE.split(line)]
    parts = [p for p in parts if p]
    if len(parts) > 1 and all(_looks_like_name(p) for p in parts):
        return parts
    return [line] if _looks_like_name(line) or len(parts) <= 1 else parts


def _looks_like_name(value: str) -> bool:
    words = value.split()
    return 1 <= len(words) <= 6 and not any(ch.isdigit() or ch == "@" for ch in value)


@dataclass(frozen=True)
class AbstractBlock:
    """The abstract's content range and plain text (keywords blocks excluded)."""

    start: int
    end: int
    text: str


def find_abstract(text: str, masked: str, end: int | None = None) -> AbstractBlock | None:
    """``\\begin{abstract}..\\end{abstract}`` (any class, before or after ``\\maketitle``),
    ``\\abstract{...}`` or a thesis class's ``\\startabstractpage`` page; keyword blocks inside it
    (IEEEkeywords, ``\\keywords{}``) are left out. The text may be empty (the abstract is in an
    included file: see :mod:`relatex.analysis.latex.abstract_finder`)."""
    stop = len(masked) if end is None else end
    content: tuple[int, int] | None = None
    env = _ABSTRACT_ENV_RE.search(masked, 0, stop)
    command = _ABSTRACT_CMD_RE.search(masked, 0, stop)
    if env is not None and (command is None or env.start() < command.start()):
        close = masked.find("\\end{" + env.group(1) + "}", env.end())
        content = (env.end(), close if close >= 0 else len(masked))
    elif command is not None and command.group(1) == "abstract":
        group = read_group(masked, skip_spaces(masked, command.end()), limit=_ARG_LIMIT)
        if group is not None:
            content = (group.content_start, group.content_end)
    elif command is not None:
        start = read_arguments(masked, command.end(), max_optional=1, required=0, limit=_ARG_LIMIT).end
        while (group := read_group(masked, skip_spaces(masked, start, allow_paragraph=False),
                                   limit=_ARG_LIMIT)) is not None and group.closed:
            start = group.end  # the page's own arguments (title, author, ...)
        page_end = _ABSTRACT_PAGE_END_RE.search(masked, start, stop)
        content = (start, page_end.start() if page_end else stop)
    if content is None:
        return None
    return abstract_block(text, masked, *content)


def abstract_block(text: str, masked: str, start: int, stop: int) -> AbstractBlock:
    """The abstract whose content is ``[start, stop)``, as one line of plain text."""
    excluded = _keyword_ranges(masked, start, stop)
    plain, offsets = plain_text(text, start, stop, masked=masked)
    if excluded:
        plain = "".join(
            ch for ch, off in zip(plain, offsets, strict=True)
            if not any(a <= off < b for a, b in excluded)
        )
    plain = " ".join(plain.split())
    return AbstractBlock(start, stop, plain)


def _keyword_ranges(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for m in _KEYWORDS_RE.finditer(masked, start, end):
        close = masked.find("\\end{" + m.group(1) + "}", m.end(), end)
        ranges.append((m.start(), close + len(m.group(1)) + 6 if close >= 0 else end))
    for m in _KEYWORDS_CMD_RE.finditer(masked, start, end):
        args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=_ARG_LIMIT)
        ranges.append((m.start(), args.end if args.required else m.end()))
    return ranges


def find_bib_items(path: Path, text: str, masked: str, start: int, end: int) -> list[BibItem]:
    """``\\bibitem[label]{key} text`` entries of a ``thebibliography`` body ``[start, end)``."""
    items: list[BibItem] = []
    matches = list(_BIBITEM_RE.finditer(masked, start, end))
    for index, m in enumerate(matches):
        args = read_arguments(masked, m.end(), max_optional=1, required=1, limit=1000)
        if not args.required or not args.required[0].closed:
            continue
        group = args.required[0]
        key = text[group.content_start:group.content_end].strip()
        if not key:
            continue
        item_end = matches[index + 1].start() if index + 1 < len(matches) else end
        body, _ = plain_text(text, args.end, item_end, masked=masked)
        while item_end > args.end and text[item_end - 1].isspace():
            item_end -= 1
        items.append(BibItem(key, " ".join(body.split()), path, m.start(), max(item_end, args.end)))
    return items


# -- section tree ----------------------------------------------------------------------------

@dataclass(frozen=True)
class FileOutline:
    """What section ranges need from one file: headings, resolved include points, end offset."""

    headings: tuple[SectionHeading, ...]
    includes: tuple[tuple[int, Path], ...]  # (offset of the include command, included file)
    end: int  # \\end{document} or the end of the text


def _subtree_levels(outlines: Mapping[Path, FileOutline]) -> dict[Path, int]:
    """Smallest heading level in each file together with the files it includes."""
    memo: dict[Path, int] = {}

    def level(path: Path, active: set[Path]) -> int:
        if path in memo:
            return memo[path]
        outline = outlines.get(path)
        if outline is None or path in active:
            return 99
        active.add(path)
        best = min((h.level for h in outline.headings), default=99)
        for _, target in outline.includes:
            best = min(best, level(target, active))
        active.discard(path)
        memo[path] = best
        return best

    for path in outlines:
        level(path, set())
    return memo


def _section_ends(outlines: Mapping[Path, FileOutline]) -> dict[tuple[Path, int], int]:
    """End of every heading's range: the next boundary of the same or a higher level in its
    file (a heading, or an include whose files hold one), else the file's end."""
    levels = _subtree_levels(outlines)
    ends: dict[tuple[Path, int], int] = {}
    for path, outline in outlines.items():
        boundaries = sorted(
            [(h.start, h.level) for h in outline.headings]
            + [(offset, levels.get(target, 99)) for offset, target in outline.includes]
        )
        for heading in outline.headings:
            end = outline.end
            for offset, boundary_level in boundaries:
                if offset > heading.start and boundary_level <= heading.level:
                    end = offset
                    break
            ends[(path, heading.start)] = max(end, heading.head_end)
    return ends


@dataclass
class _Node:
    heading: SectionHeading
    path: Path
    end: int
    children: list[_Node] = field(default_factory=list)

    def freeze(self) -> Section:
        h = self.heading
        return Section(
            title=h.title, level=h.level, command=h.command, path=self.path, start=h.start, end=self.end,
            title_start=h.title_start, title_end=h.title_end, label=h.label,
            children=tuple(child.freeze() for child in self.children),
        )


def build_section_tree(headings: Sequence[tuple[Path, SectionHeading]],
                       outlines: Mapping[Path, FileOutline]) -> tuple[Section, ...]:
    """The section forest from headings in document order (roots are the top-level sections)."""
    ends = _section_ends(outlines)
    roots: list[_Node] = []
    stack: list[_Node] = []
    for path, heading in headings:
        node = _Node(heading, path, ends.get((path, heading.start), heading.head_end))
        while stack and stack[-1].heading.level >= heading.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return tuple(node.freeze() for node in roots)
