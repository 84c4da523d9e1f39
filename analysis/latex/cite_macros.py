"""Citation commands the author defines: ``\\newcommand{\\mycite}[1]{\\citep{#1}}``.

A macro whose body passes one of its arguments as the keys of a citation command is itself a
citation command. Definitions are read from ``\\newcommand`` (and ``\\renewcommand``,
``\\providecommand``, ``\\DeclareRobustCommand``, with an optional first argument),
``\\def\\name#1{...}`` and xparse's ``\\NewDocumentCommand`` with ``m``/``o`` arguments.

The macros of a project apply while its files are analysed: :func:`using_cite_macros` makes
them current for the scanners of :mod:`relatex.analysis.latex.citations` and
:mod:`relatex.analysis.latex.latex_text` (a context variable, so concurrent loads do not mix).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from relatex.analysis.latex.cite_commands import CITE_RE, read_citation_arguments
from relatex.analysis.latex.latex_scan import read_arguments, read_group, skip_spaces


@dataclass(frozen=True)
class CiteMacro:
    """A user command that cites: its arguments (``"o"`` optional, ``"m"`` mandatory), which
    argument holds the keys (0-based), and the citation command its body uses."""

    name: str
    args: tuple[str, ...]
    key_arg: int
    base: str
    more_key_args: tuple[int, ...] = ()  # further arguments holding keys (``\\cite{#1,#2}``)

    @property
    def key_args(self) -> tuple[int, ...]:
        return (self.key_arg, *self.more_key_args)


CiteMacros = tuple[CiteMacro, ...]

_NEWCOMMAND = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand)\*?[ \t\r\n]*"
    r"(?:\{[ \t\r\n]*\\(?P<braced>[A-Za-z@]+)[ \t\r\n]*\}|\\(?P<bare>[A-Za-z@]+))"
)
_DEF = re.compile(r"\\(?:g|e|x)?def[ \t\r\n]*\\(?P<name>[A-Za-z@]+)(?P<params>(?:#[1-9])*)[ \t\r\n]*(?=\{)")
_DOCUMENT_COMMAND = re.compile(
    r"\\(?:New|Renew|Provide|Declare)DocumentCommand[ \t\r\n]*"
    r"(?:\{[ \t\r\n]*\\(?P<braced>[A-Za-z@]+)[ \t\r\n]*\}|\\(?P<bare>[A-Za-z@]+))"
)
_PARAMETER = re.compile(r"^#([1-9])$")

_current: ContextVar[dict[str, CiteMacro]] = ContextVar("relatex_cite_macros", default={})  # noqa: B039


def current_cite_macros() -> dict[str, CiteMacro]:
    """The user citation macros in effect (name without backslash -> macro)."""
    return _current.get()


@contextmanager
def using_cite_macros(macros: Iterable[CiteMacro]) -> Iterator[None]:
    """Make ``macros`` the citation macros of the scans run inside the block."""
    token = _current.set({macro.name: macro for macro in macros})
    try:
        yield
    finally:
        _current.reset(token)


def _body_citation(body: str) -> tuple[tuple[int, ...], str] | None:
    """(0-based argument numbers, command) when ``body`` cites the keys of its arguments
    (``\\cite{#1}``, ``\\cite{#1,#2}``, ``\\citep{#1}\\citep{#2}``)."""
    found: dict[int, None] = {}
    base = ""
    for match in CITE_RE.finditer(body):
        args = read_citation_arguments(body, match.end(), match.group(1))
        if args is None:
            continue
        for group in args.key_groups:
            for item in body[group.content_start:group.content_end].split(","):
                parameter = _PARAMETER.match(item.strip())
                if parameter is not None:
                    found.setdefault(int(parameter.group(1)) - 1, None)
                    base = base or match.group(1)
    return (tuple(found), base) if found else None


def _macro(name: str, spec: tuple[str, ...], body: str) -> CiteMacro | None:
    found = _body_citation(body)
    if found is None:
        return None
    key_args, base = found
    if any(index >= len(spec) or spec[index] != "m" for index in key_args):
        return None
    return CiteMacro(name, spec, key_args[0], base, key_args[1:])


@lru_cache(maxsize=256)
def find_cite_macros(masked: str) -> CiteMacros:
    """The citation macros defined in one (masked) file, in definition order."""
    if "\\" not in masked or not any(word in masked for word in ("command", "def", "DocumentCommand")):
        return ()
    macros: list[CiteMacro] = []
    for match in _NEWCOMMAND.finditer(masked):
        args = read_arguments(masked, match.end(), max_optional=2, required=1, limit=4000)
        if not args.required or not args.required[0].closed:
            continue
        count_text = masked[args.optional[0].content_start:args.optional[0].content_end].strip() \
            if args.optional else "0"
        if not count_text.isdigit():
            continue
        count = int(count_text)
        spec = tuple(("o" if index == 0 and len(args.optional) > 1 else "m") for index in range(count))
        body = args.required[0]
        macro = _macro(match.group("braced") or match.group("bare"), spec,
                       masked[body.content_start:body.content_end])
        if macro is not None:
            macros.append(macro)
    for match in _DEF.finditer(masked):
        group = read_group(masked, match.end(), limit=4000)
        if group is None or not group.closed:
            continue
        spec = tuple("m" for _ in range(match.group("params").count("#")))
        macro = _macro(match.group("name"), spec, masked[group.content_start:group.content_end])
        if macro is not None:
            macros.append(macro)
    for match in _DOCUMENT_COMMAND.finditer(masked):
        args = read_arguments(masked, match.end(), max_optional=0, required=2, limit=4000)
        if len(args.required) < 2 or not all(group.closed for group in args.required):
            continue
        letters = masked[args.required[0].content_start:args.required[0].content_end].replace(" ", "")
        if not letters or set(letters) - {"m", "o"}:
            continue  # other argument types are not read as citations
        body = args.required[1]
        macro = _macro(match.group("braced") or match.group("bare"), tuple(letters),
                       masked[body.content_start:body.content_end])
        if macro is not None:
            macros.append(macro)
    return tuple(macros)


def read_macro_key_groups(text: str, pos: int, macro: CiteMacro) -> tuple[list[tuple[int, int]], int] | None:
    """The ranges of every key argument of a use of ``macro`` whose name ends at ``pos``, and
    the end of the command; None when a mandatory argument is missing or unclosed."""
    cursor = pos
    keys: list[tuple[int, int]] = []
    wanted = set(macro.key_args)
    for index, kind in enumerate(macro.args):
        at = skip_spaces(text, cursor, allow_paragraph=False)
        opening = "[" if kind == "o" else "{"
        if at >= len(text) or text[at] != opening:
            if kind == "o":
                continue
            return None
        group = read_group(text, at, opening, "]" if kind == "o" else "}", limit=3000)
        if group is None or not group.closed:
            return None
        if index in wanted:
            keys.append((group.content_start, group.content_end))
        cursor = group.end
    return (keys, cursor) if keys else None


def read_macro_arguments(text: str, pos: int, macro: CiteMacro) -> tuple[int, int, int] | None:
    """(first keys start, first keys end, end of the command) of a use of ``macro``."""
    found = read_macro_key_groups(text, pos, macro)
    if found is None:
        return None
    (start, end), *_ = found[0]
    return start, end, found[1]
