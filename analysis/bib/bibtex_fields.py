"""The BibTeX field parser: ``name = {value} # "value" # string, ...`` with @string expansion.

:class:`FieldParser` is the base of :class:`~relatex.analysis.bib.bibtex_scan.BlockScanner`; it
reads the fields of one block and raises :class:`BlockError` where the text cannot be read.
"""

from __future__ import annotations

import re
import sys

from relatex.analysis.bib.bibtex_entry import MONTHS

WS = re.compile(r"(?:\s|%[^\n]*)*")  # biber reads a % line inside an entry as a comment
_BRACES = re.compile(r"[{}]")
_QUOTE_SCAN = re.compile(r'[{}"]')
_FIELD_NAME = re.compile(r"([^\s=,{}\"#%()]+)\s*=\s*")
_BARE = re.compile(r"[^\s,#{}\"()=%]+")
_SIMPLE_FIELD = re.compile(r"\s*([^\s=,{}\"#%()]+)\s*=\s*\{([^{}]*)\}\s*")


_NAMES: dict[str, str] = {}


def field_name(raw: str) -> str:
    """Lower-case field name, shared between entries (saves memory on large files)."""
    name = _NAMES.get(raw)
    if name is None:
        name = raw.lower()
        if len(_NAMES) < 10000:
            _NAMES[raw] = name = sys.intern(name)
    return name


def _last(fields: dict[str, str]) -> str:
    return next(reversed(fields)) if fields else "?"


class BlockError(Exception):
    """A block that cannot be read; ``offset`` is where reading failed."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class FieldParser:
    """Reads the fields of blocks of ``text``, expanding the @string names in ``strings``."""

    def __init__(self, text: str, strings: dict[str, str]) -> None:
        self.text = text
        self.strings = strings
        self.repeated: list[tuple[int, int, str]] = []  # fields given twice in the current entry
        self.names_used: set[str] = set()  # @string names the current block's values use

    def _field(self, fields: dict[str, str], name: str, value: str, start: int, end: int) -> None:
        if name in fields:
            self.repeated.append((start, end, name))
        else:
            fields[name] = value

    def _parse_fields(self, pos: int, end: int, closer: str | None = None) -> tuple[dict[str, str], int]:
        """Parse ``name = value, ...`` from ``pos``: up to ``end``, or, with ``closer``, up to
        the entry's closing delimiter (whose offset is returned)."""
        text = self.text
        fields: dict[str, str] = {}
        simple = _SIMPLE_FIELD
        while True:
            m = simple.match(text, pos, end)
            if m is not None and text[m.end():m.end() + 1] != "#":
                self._field(fields, field_name(m.group(1)), m.group(2), m.start(1), m.end(1))
                pos = m.end()
            else:
                pos = WS.match(text, pos, end).end()  # type: ignore[union-attr]
                if pos >= end:
                    if closer is not None:
                        raise BlockError(pos, "the entry is not closed")
                    return fields, pos
                if closer is not None and text[pos] == closer:
                    return fields, pos
                name_match = _FIELD_NAME.match(text, pos, end)
                if name_match is None:
                    raise BlockError(pos, f"expected a field name, found {text[pos:pos + 12]!r}")
                name = field_name(name_match.group(1))
                value, pos = self._parse_value(name_match.end(), end)
                self._field(fields, name, value, name_match.start(1), name_match.end(1))
                pos = WS.match(text, pos, end).end()  # type: ignore[union-attr]
            if pos >= end:
                if closer is not None:
                    raise BlockError(pos, "the entry is not closed")
                return fields, pos
            ch = text[pos]
            if ch == ",":
                pos += 1
            elif closer is not None and ch == closer:
                return fields, pos
            else:
                raise BlockError(pos, f"expected ',' or the end of the entry after field '{_last(fields)}'")

    def _parse_value(self, pos: int, end: int) -> tuple[str, int]:
        text = self.text
        parts: list[str] = []
        while True:
            if pos >= end:
                raise BlockError(pos, "missing field value")
            ch = text[pos]
            if ch == "{":
                close = text.find("}", pos + 1, end)
                if close < 0:
                    raise BlockError(pos, "unbalanced braces in field value")
                if text.find("{", pos + 1, close) >= 0:
                    close = _matching_brace(text, pos, end)
                parts.append(text[pos + 1:close])
                pos = close + 1
            elif ch == '"':
                close = _closing_quote(text, pos, end)
                parts.append(text[pos + 1:close])
                pos = close + 1
            else:
                bare = _BARE.match(text, pos, end)
                if bare is None:
                    raise BlockError(pos, f"unexpected {ch!r} in field value")
                word = bare.group()
                if word.isdigit():
                    parts.append(word)
                else:
                    lowered = word.lower()
                    self.names_used.add(lowered)
                    parts.append(self.strings.get(lowered, MONTHS.get(lowered, word)))
                pos = bare.end()
            pos = WS.match(text, pos, end).end()  # type: ignore[union-attr]
            if pos < end and text[pos] == "#":
                pos = WS.match(text, pos + 1, end).end()  # type: ignore[union-attr]
                continue
            return (parts[0] if len(parts) == 1 else "".join(parts)), pos


def _matching_brace(text: str, pos: int, end: int) -> int:
    depth = 0
    for m in _BRACES.finditer(text, pos, end):
        if m.group() == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    raise BlockError(pos, "unbalanced braces in field value")


def _closing_quote(text: str, pos: int, end: int) -> int:
    depth = 0
    for m in _QUOTE_SCAN.finditer(text, pos + 1, end):
        ch = m.group()
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                break
        elif depth == 0:
            return m.start()
    raise BlockError(pos, "unterminated quoted field value")
