"""Low-level LaTeX scanning: comment/verbatim masking and command-argument reading.

Everything works on character offsets of the original text. :func:`mask_text` returns a
string of the same length in which comments and verbatim-like content are blanked out, so
that later regex scans never see a commented-out ``\\cite`` or one inside ``verbatim``,
while every offset still points into the original text.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

VERBATIM_ENVIRONMENTS: frozenset[str] = frozenset(
    {
        "verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "LVerbatim", "lstlisting",
        "minted", "comment", "alltt", "filecontents", "filecontents*", "spverbatim", "code",
    }
)

# One alternation, tried left to right at each candidate position: a verbatim-like
# environment start, an inline verbatim command, any escaped character (``\%``, ``\\``), or a
# comment start.
_MASK_RE = re.compile(
    r"\\begin[ \t]*\{(?P<env>[A-Za-z]+\*?)\}"
    r"|\\(?P<verb>verb|lstinline|mintinline|Verb)(?![A-Za-z@])"
    r"|\\(?P<url>url|href|nolinkurl)[ \t]*\{"
    r"|\\."
    r"|%",
    re.DOTALL,
)

_WS = " \t\r\n"
# Paragraph breaks: a line holding only spaces in the original text.
PARAGRAPH_BREAK_RE = re.compile(r"\n[ \t]*\r?\n")


@dataclass(frozen=True)
class Group:
    """A delimited argument: ``[open, close]`` are the delimiter offsets, content is between."""

    open: int
    close: int  # offset of the closing delimiter (== len(text) when unterminated)
    closed: bool = True

    @property
    def content_start(self) -> int:
        return self.open + 1

    @property
    def content_end(self) -> int:
        return self.close

    @property
    def end(self) -> int:
        """Offset just after the group."""
        return self.close + 1 if self.closed else self.close


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] not in "\r\n":
            chars[i] = " "


def mask_text(text: str) -> str:
    """Same-length copy of ``text`` with comments and verbatim content replaced by spaces.

    Newlines are kept, so line structure is unchanged. An unescaped ``%`` starts a comment
    that runs to the end of the line; ``\\%`` is a literal percent sign. The bodies of
    verbatim-like environments (``verbatim``, ``lstlisting``, ``minted``, ``comment``, ...)
    and of ``\\verb|...|`` are blanked; an unterminated one runs to the end of the text.
    """
    if "%" not in text and "\\begin" not in text and "\\verb" not in text and "\\Verb" not in text \
            and "inline" not in text:
        return text
    chars: list[str] | None = None
    pos = 0
    n = len(text)
    while pos < n:
        m = _MASK_RE.search(text, pos)
        if m is None:
            break
        if chars is None:
            chars = list(text)
        token = m.group(0)
        if token == "%":
            line_end = _line_end(text, m.start())
            _blank(chars, m.start(), line_end)
            pos = line_end
        elif m.group("env") is not None:
            env = m.group("env")
            if env not in VERBATIM_ENVIRONMENTS:
                pos = m.end()
                continue
            body_start = m.end()
            if env == "minted":
                body_start = _skip_minted_args(text, body_start)
            end_token = "\\end{" + env + "}"
            body_end = text.find(end_token, body_start)
            if body_end < 0:
                body_end = n
            _blank(chars, body_start, body_end)
            pos = body_end + len(end_token) if body_end < n else n
        elif m.group("url") is not None:
            # URLs are read verbatim by LaTeX: a "%" inside one is not a comment.
            close = text.find("}", m.end(), min(n, m.end() + 2000))
            newline = text.find("\n", m.end(), close if close >= 0 else n)
            pos = close + 1 if close >= 0 and newline < 0 else m.end()
        elif m.group("verb") is not None:
            pos = _mask_inline_verbatim(text, chars, m.end(), m.group("verb"))
        else:
            pos = m.end()
    return "".join(chars) if chars is not None else text


def _line_end(text: str, pos: int) -> int:
    nl = text.find("\n", pos)
    cr = text.find("\r", pos)
    ends = [e for e in (nl, cr) if e >= 0]
    return min(ends) if ends else len(text)


def _skip_minted_args(text: str, pos: int) -> int:
    """Skip ``[options]{language}`` after ``\\begin{minted}``."""
    pos = skip_spaces(text, pos)
    if pos < len(text) and text[pos] == "[":
        group = read_group(text, pos, "[", "]", limit=2000)
        if group is not None:
            pos = skip_spaces(text, group.end)
    if pos < len(text) and text[pos] == "{":
        group = read_group(text, pos, "{", "}", limit=200)
        if group is not None:
            pos = group.end
    return pos


def _mask_inline_verbatim(text: str, chars: list[str], pos: int, command: str) -> int:
    """Blank the body of ``\\verb|..|``, ``\\lstinline[..]{..}``, ``\\mintinline{lang}|..|``."""
    n = len(text)
    if pos < n and text[pos] == "*":
        pos += 1
    if command in ("lstinline", "Verb") and pos < n and text[pos] == "[":
        group = read_group(text, pos, "[", "]", limit=500)
        if group is not None:
            pos = group.end
    if command == "mintinline":
        pos = skip_spaces(text, pos)
        if pos < n and text[pos] == "[":
            group = read_group(text, pos, "[", "]", limit=500)
            if group is not None:
                pos = skip_spaces(text, group.end)
        if pos < n and text[pos] == "{":
            group = read_group(text, pos, "{", "}", limit=200)
            if group is not None:
                pos = group.end
    if pos >= n or text[pos] in "\r\n" or (command == "verb" and text[pos] in " \t"):
        return pos
    delimiter = text[pos]
    closing = "}" if delimiter == "{" and command != "verb" else delimiter
    line_end = _line_end(text, pos + 1)
    close = text.find(closing, pos + 1, line_end)
    body_end = close if close >= 0 else line_end
    _blank(chars, pos + 1, body_end)
    return body_end + 1 if close >= 0 else body_end


def skip_spaces(text: str, pos: int, *, allow_paragraph: bool = True) -> int:
    """First offset at or after ``pos`` that is not whitespace.

    With ``allow_paragraph=False`` stops before a blank line (a paragraph break ends a
    command's arguments in LaTeX).
    """
    n = len(text)
    newlines = 0
    while pos < n and text[pos] in _WS:
        if text[pos] == "\n":
            newlines += 1
            if newlines > 1 and not allow_paragraph:
                return pos
        pos += 1
    return pos


_BRACE_TOKEN_RE = re.compile(r"\\.|[{}]", re.DOTALL)


@lru_cache(maxsize=32)
def brace_matches(text: str) -> dict[int, int]:
    """Offset of the matching ``}`` for every balanced ``{`` of ``text`` (escapes skipped).

    Computed once per text in one linear pass, so reading many arguments of the same text
    (or of pathological input full of unclosed braces) stays linear.
    """
    matches: dict[int, int] = {}
    stack: list[int] = []
    for m in _BRACE_TOKEN_RE.finditer(text):
        ch = m.group()
        if ch == "{":
            stack.append(m.start())
        elif ch == "}" and stack:
            matches[stack.pop()] = m.start()
    return matches


@lru_cache(maxsize=32)
def _delimiter_positions(text: str, closing: str) -> list[int]:
    """Sorted offsets of unescaped ``{``, ``}`` and ``closing`` in ``text``."""
    pattern = re.compile(r"\\.|[{}" + re.escape(closing) + r"]", re.DOTALL)
    return [m.start() for m in pattern.finditer(text) if m.group() in ("{", "}", closing)]


def read_group(text: str, pos: int, opening: str = "{", closing: str = "}", *,
               limit: int | None = None) -> Group | None:
    """Read a delimited group starting exactly at ``pos`` (which must hold ``opening``).

    Braces nest; for ``[...]`` groups, brackets inside braces do not count. Backslash escapes
    are skipped. Returns None when ``text[pos]`` is not ``opening``; returns an unterminated
    Group (``closed=False``) when the text ends, or ``limit`` characters pass, before it closes.
    """
    n = len(text)
    if pos >= n or text[pos] != opening:
        return None
    stop = n if limit is None else min(n, pos + limit)
    braces = brace_matches(text)
    if opening == "{":
        close = braces.get(pos)
        if close is not None and close < stop:
            return Group(pos, close)
        return Group(pos, stop, closed=False)
    delimiters = _delimiter_positions(text, closing)
    cursor = pos + 1
    while cursor < stop:
        index = bisect_left(delimiters, cursor)
        if index >= len(delimiters) or delimiters[index] >= stop:
            break
        at = delimiters[index]
        token = text[at]
        if token == closing:
            return Group(pos, at)
        if token == "}":
            return Group(pos, at, closed=False)  # a stray "}" ends a bracket group
        inner = braces.get(at)  # "{": skip the whole brace group
        if inner is None or inner >= stop:
            break
        cursor = inner + 1
    return Group(pos, stop, closed=False)


@dataclass(frozen=True)
class CommandArgs:
    """The arguments read after a command name: optional ``[...]`` and mandatory ``{...}``."""

    optional: tuple[Group, ...]
    required: tuple[Group, ...]
    end: int  # offset just after the last argument read


def read_arguments(text: str, pos: int, *, max_optional: int = 2, required: int = 1,
                   limit: int | None = 4000) -> CommandArgs:
    """Read up to ``max_optional`` bracket groups then up to ``required`` brace groups.

    Whitespace (including single newlines) between arguments is skipped, as LaTeX does;
    a blank line stops. Missing arguments are simply absent from the result.
    """
    optional: list[Group] = []
    mandatory: list[Group] = []
    end = pos
    cursor = pos
    while len(optional) < max_optional:
        at = skip_spaces(text, cursor, allow_paragraph=False)
        group = read_group(text, at, "[", "]", limit=limit)
        if group is None or not group.closed:
            break
        optional.append(group)
        cursor = end = group.end
    while len(mandatory) < required:
        at = skip_spaces(text, cursor, allow_paragraph=False)
        group = read_group(text, at, "{", "}", limit=limit)
        if group is None:
            break
        mandatory.append(group)
        cursor = end = group.end
        if not group.closed:
            break
    return CommandArgs(tuple(optional), tuple(mandatory), end)


def iter_comma_items(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Ranges of the comma- or whitespace-separated non-empty items of ``text[start:end]``."""
    for m in re.finditer(r"[^,\s]+", text[start:end]):
        yield start + m.start(), start + m.end()


def find_end_of_document(masked: str) -> int | None:
    """Offset of ``\\end{document}`` in masked text, or None."""
    m = re.search(r"\\end[ \t]*\{document\}", masked)
    return m.start() if m else None
