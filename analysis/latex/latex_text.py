"""Plain text of a LaTeX source range, with the source offset of every output character.

Used for embeddings, claim checking and hover text. A fast tokenizer handles the common cases
(text runs, groups, comments, ties, dashes, quotes, accents, sectioning); symbol macros such as
``\\alpha`` or ``\\ldots`` and the content of short inline math are converted with pylatexenc.

Conventions (documented because claim texts depend on them):

- ``\\emph{x}``, ``\\textbf{x}``, unknown macros' brace groups -> ``x``;
- ``\\ref``/``\\cref``/``\\eqref`` ... -> ``[ref]``; ``\\label``, ``\\footnote``, ``\\thanks``,
  ``\\includegraphics`` ... -> nothing;
- citation commands -> nothing; with ``textual_citation="this work"`` the textual ones
  (``\\citet``, ``\\textcite``, ``\\citeauthor``) and any citation that opens the range become
  that phrase, so "\\citet{x} show that" reads "this work show that" instead of losing its
  subject;
- inline math -> its text when short (``$O(n^2)$`` -> ``O(n^2)``), else ``[math]``; display math
  and math environments -> ``[math]``; tables, TikZ pictures and verbatim are dropped;
- whitespace collapses to one space; blank lines, sectioning commands, ``\\item`` and block
  environments become paragraph breaks (``"\\n\\n"``).

Placeholder characters map to the offset of the command they replace.
"""

from __future__ import annotations

import re
import unicodedata

from relatex.analysis.latex.cite_commands import is_cite_command, is_textual, read_citation_arguments
from relatex.analysis.latex.cite_macros import current_cite_macros, read_macro_arguments
from relatex.analysis.latex.latex_scan import mask_text, read_arguments, read_group, skip_spaces
from relatex.analysis.latex.plain_text_rules import (
    ACCENTS,
    DROP_ARGS,
    ENVIRONMENT_ARGS,
    MATH_ENVIRONMENTS,
    MATH_PLACEHOLDER,
    PARAGRAPH_MACROS,
    RAW_ARGUMENT_MACROS,
    REF_MACROS,
    REF_PLACEHOLDER,
    SKIPPED_ENVIRONMENTS,
    SYMBOL_ESCAPES,
    VERBATIM_INLINE,
    math_text,
    symbol_text,
)

_WORD = r"(?:[^\\{}$%~\s`'&#^\-]|-(?!-)|'(?!'))+"
_TOKEN_RE = re.compile(
    r"(?P<comment>%[^\r\n]*(?:\r?\n[ \t]*(?![ \t]*\r?\n))?)"
    r"|(?P<macro>\\[A-Za-z@]+\*?)"
    r"|(?P<symbol>\\[^A-Za-z@]?)"
    r"|(?P<math>\$\$?)"
    r"|(?P<space>\s+)"
    r"|(?P<dash>-{2,3})"
    r"|(?P<quote>``|''|`)"
    r"|(?P<run>" + _WORD + r"(?: " + _WORD + r")*)"
    r"|(?P<other>.)",
    re.DOTALL,
)

_NO_SPACE_BEFORE = frozenset(".,;:!?)")


class _Builder:
    """Accumulates output characters and their source offsets, collapsing whitespace."""

    def __init__(self, masked: str) -> None:
        self.masked = masked  # the source with comments/verbatim blanked, for reading arguments
        self.chars: list[str] = []
        self.offsets: list[int] = []
        self.wraps: list[str | None] = []
        self.next_wrap: str | None = None

    def text(self, value: str, offset: int) -> None:
        for ch in value:
            if ch.isspace():
                self.space(offset)
            else:
                if ch in _NO_SPACE_BEFORE and self.chars and self.chars[-1] == " ":
                    self.chars.pop()
                    self.offsets.pop()
                self.chars.append(ch)
                self.offsets.append(offset)

    def run(self, value: str, start: int) -> None:
        if value and value[0] in _NO_SPACE_BEFORE and self.chars and self.chars[-1] == " ":
            self.chars.pop()
            self.offsets.pop()
        self.chars.extend(value)
        self.offsets.extend(range(start, start + len(value)))

    def space(self, offset: int) -> None:
        if self.chars and self.chars[-1] not in " \n":
            self.chars.append(" ")
            self.offsets.append(offset)

    def paragraph(self, offset: int) -> None:
        while self.chars and self.chars[-1] == " ":
            self.chars.pop()
            self.offsets.pop()
        if not self.chars or (len(self.chars) >= 2 and self.chars[-1] == "\n" and self.chars[-2] == "\n"):
            return
        if self.chars[-1] == "\n":
            self.chars.append("\n")
            self.offsets.append(offset)
            return
        self.chars.extend("\n\n")
        self.offsets.extend((offset, offset))

    def result(self) -> tuple[str, tuple[int, ...]]:
        start, end = 0, len(self.chars)
        while start < end and self.chars[start].isspace():
            start += 1
        while end > start and self.chars[end - 1].isspace():
            end -= 1
        return "".join(self.chars[start:end]), tuple(self.offsets[start:end])


def plain_text(text: str, start: int = 0, end: int | None = None, *,
               textual_citation: str = "", masked: str | None = None) -> tuple[str, tuple[int, ...]]:
    """Plain text of ``text[start:end]`` and, per output character, its offset in ``text``.

    Never raises on content. ``textual_citation`` replaces textual citation commands
    (``\\citet``...); all other citation commands are removed. ``masked`` may pass
    ``mask_text(text)`` when the caller already has it (saves time on many small ranges).
    """
    stop = len(text) if end is None else max(0, min(end, len(text)))
    begin = max(0, min(start, stop))
    source = text[begin:stop]
    if masked is not None and len(masked) == len(text):
        out = _Builder(masked[begin:stop])
    else:
        out = _Builder(mask_text(source))
    _convert(source, begin, out, textual_citation)
    return out.result()


def _find_closing(source: str, pos: int, token: str) -> int:
    found = source.find(token, pos)
    return found if found >= 0 else len(source)


def _convert(source: str, base: int, out: _Builder, textual_citation: str) -> None:
    pos = 0
    n = len(source)
    while pos < n:
        m = _TOKEN_RE.match(source, pos)
        if m is None:  # pragma: no cover - the last alternative matches any character
            break
        kind = m.lastgroup
        value = m.group(0)
        at = base + pos
        pos = m.end()
        if kind == "run":
            out.run(value, at)
        elif kind == "space":
            if value.count("\n") >= 2 and re.search(r"\n[ \t\r]*\n", value):
                out.paragraph(at)
            else:
                out.space(at)
        elif kind == "comment":
            continue
        elif kind == "other":
            if value == "{":
                out.wraps.append(out.next_wrap)
                out.next_wrap = None
            elif value == "}":
                wrap = out.wraps.pop() if out.wraps else None
                if wrap == "\n\n":
                    out.paragraph(at)
                elif wrap:
                    out.text(wrap, at)
            elif value in "~&":
                out.space(at)
            elif value != "#":
                out.text(value, at)
        elif kind == "dash":
            out.text("\u2013" if len(value) == 2 else "\u2014", at)
        elif kind == "quote":
            out.text({"``": "\u201c", "''": "\u201d", "`": "\u2018"}[value], at)
        elif kind == "math":
            pos = _math(source, pos, value, at, base, out)
        elif kind == "symbol":
            pos = _symbol(source, pos, value, at, base, out)
        else:
            pos = _macro(source, pos, value, at, base, out, textual_citation)


def _math(source: str, pos: int, delimiter: str, at: int, base: int, out: _Builder) -> int:
    close = _find_closing(out.masked, pos, delimiter)
    if delimiter == "$$":
        out.space(at)
        out.text(MATH_PLACEHOLDER, at)
        out.space(at)
    else:
        _inline_math(source, pos, close, at, base, out)
    return min(len(source), close + len(delimiter))


def _inline_math(source: str, start: int, end: int, at: int, base: int, out: _Builder) -> None:
    """Inline math as text; when the text is the source itself (``$x$``) offsets stay exact."""
    content = source[start:end]
    value = math_text(content)
    stripped = content.strip()
    if value == stripped and value:
        out.run(value, base + start + content.index(stripped))
    else:
        out.text(value, at)


def _symbol(source: str, pos: int, value: str, at: int, base: int, out: _Builder) -> int:
    ch = value[1:]
    if ch in ACCENTS:
        return _accent(source, pos, ch, at, out)
    if ch == "(":
        close = _find_closing(out.masked, pos, "\\)")
        _inline_math(source, pos, close, at, base, out)
        return min(len(source), close + 2)
    if ch == "[":
        close = _find_closing(out.masked, pos, "\\]")
        out.space(at)
        out.text(MATH_PLACEHOLDER, at)
        out.space(at)
        return min(len(source), close + 2)
    replacement = SYMBOL_ESCAPES.get(ch, "")
    if replacement == " ":
        out.space(at)
    else:
        out.text(replacement, at)
    return pos


def _accent(source: str, pos: int, accent: str, at: int, out: _Builder) -> int:
    """``\\'e``, ``\\'{e}``, ``\\c{c}``, ``\\"{\\i}`` -> the composed character."""
    n = len(source)
    cursor = pos
    if accent.isalpha():
        cursor = skip_spaces(source, cursor, allow_paragraph=False)
    base_char = ""
    if cursor < n and source[cursor] == "{":
        group = read_group(source, cursor, limit=20)
        if group is not None and group.closed:
            inner = source[group.content_start:group.content_end].strip()
            base_char = {"\\i": "i", "\\j": "j"}.get(inner, inner)
            cursor = group.end
    elif cursor < n and source.startswith("\\i", cursor) and not source[cursor + 2:cursor + 3].isalpha():
        base_char, cursor = "i", cursor + 2
    elif cursor < n and not source[cursor].isspace() and source[cursor] not in "\\}":
        base_char, cursor = source[cursor], cursor + 1
    if not base_char:
        return pos
    composed = unicodedata.normalize("NFC", base_char[0] + ACCENTS[accent]) + base_char[1:]
    out.text(composed, at)
    return cursor


def _skip_arguments(masked: str, pos: int, optional: int, required: int) -> int:
    args = read_arguments(masked, pos, max_optional=optional, required=required, limit=4000)
    return args.end


def _macro(source: str, pos: int, value: str, at: int, base: int, out: _Builder,
           textual_citation: str) -> int:
    name = value[1:].rstrip("*")
    macro = current_cite_macros().get(name)
    if macro is not None:
        found = read_macro_arguments(out.masked, pos, macro)
        if found is None:
            return pos
        if textual_citation and (is_textual(macro.base) or not out.chars):
            out.text(textual_citation, at)
        return found[2]
    if is_cite_command(name):
        args = read_citation_arguments(out.masked, pos, name)
        if args is None:
            return pos
        # A citation opening the text is its subject ("\\cite{x} showed ..."), whatever the command.
        if textual_citation and (is_textual(name) or not out.chars):
            out.text(textual_citation, at)
        return args.end
    if len(name) == 1 and name in ACCENTS:
        return _accent(source, pos, name, at, out)
    if name == "begin" or name == "end":
        return _environment(source, pos, name, at, out)
    if name in PARAGRAPH_MACROS:
        out.paragraph(at)
        if name in ("bibitem", "maketitle", "par"):
            return _skip_arguments(out.masked, pos, *DROP_ARGS.get(name, (0, 0)))
        if name == "item":
            return pos
        cursor = _skip_arguments(out.masked, pos, 1, 0)
        out.next_wrap = "\n\n"
        return cursor
    if name in REF_MACROS:
        out.text(REF_PLACEHOLDER, at)
        return _skip_arguments(out.masked, pos, 1, 1)
    if name in DROP_ARGS:
        optional, required = DROP_ARGS[name]
        if name in ("newcommand", "renewcommand", "providecommand"):
            cursor = _skip_arguments(out.masked, pos, 0, 1)
            return _skip_arguments(out.masked, cursor, 2, 1)
        return _skip_arguments(out.masked, pos, optional, required)
    if name in RAW_ARGUMENT_MACROS:
        group = read_group(out.masked, skip_spaces(out.masked, pos, allow_paragraph=False), limit=2000)
        if group is None or not group.closed:
            return pos
        out.run(source[group.content_start:group.content_end], base + group.content_start)
        return group.end
    if name in VERBATIM_INLINE:
        return _inline_verbatim(source, pos, at, base, out)
    out.text(symbol_text(name), at)
    return pos


def _inline_verbatim(source: str, pos: int, at: int, base: int, out: _Builder) -> int:
    n = len(source)
    if pos < n and source[pos] == "*":
        pos += 1
    if pos < n and source[pos] == "[":
        group = read_group(source, pos, "[", "]", limit=500)
        if group is not None and group.closed:
            pos = group.end
    if pos >= n:
        return pos
    delimiter = "}" if source[pos] == "{" else source[pos]
    close = source.find(delimiter, pos + 1)
    newline = source.find("\n", pos + 1)
    if close < 0 or (0 <= newline < close):
        return pos + 1
    out.run(source[pos + 1:close], base + pos + 1)
    return close + 1


def _environment(source: str, pos: int, name: str, at: int, out: _Builder) -> int:
    cursor = skip_spaces(out.masked, pos, allow_paragraph=False)
    group = read_group(out.masked, cursor, limit=100)
    if group is None or not group.closed:
        return pos
    env = source[group.content_start:group.content_end].strip()
    bare = env.rstrip("*")
    cursor = group.end
    if name == "end":
        if bare not in ("math", "document", "abstract", "center", "small", "footnotesize"):
            out.paragraph(at)
        return cursor
    if bare in MATH_ENVIRONMENTS or bare in SKIPPED_ENVIRONMENTS or bare == "math":
        close = _find_closing(out.masked, cursor, "\\end{" + env + "}")
        if bare == "math":
            out.text(math_text(source[cursor:close]), at)
        elif bare in MATH_ENVIRONMENTS:
            out.space(at)
            out.text(MATH_PLACEHOLDER, at)
            out.space(at)
        return min(len(source), close + len("\\end{" + env + "}"))
    out.paragraph(at)
    optional, required = ENVIRONMENT_ARGS.get(bare, (1, 0))
    return _skip_arguments(out.masked, cursor, optional, required)
