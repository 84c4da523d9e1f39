"""The BibTeX block scanner behind :mod:`relatex.analysis.bib.bibtex` (fields: :mod:`.bibtex_fields`).

Blocks are found with a brace-aware scan that gives exact source ranges; well-formed entries
are read in one pass by a small regex-driven field parser, anything unusual goes through a
careful path (matching delimiters, re-synchronising at the next ``@type{`` line, bibtexparser 2
as the lenient fallback). Errors become ``bib-parse-error`` findings.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

from relatex.analysis.bib.bibtex_entry import MONTHS, make_entry
from relatex.analysis.bib.bibtex_fields import WS, BlockError, FieldParser, field_name
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.findings import Code, Finding, Severity

_AT = re.compile(r"@[ \t]*([A-Za-z][A-Za-z0-9_:\-]*)\s*([{(])?")
_BRACE_END = re.compile(r"[{}]|\n[ \t]*@[A-Za-z]+[ \t]*[{(]")
_PAREN_END = re.compile(r"[{}()]|\n[ \t]*@[A-Za-z]+[ \t]*[{(]")
_KEY = re.compile(r"[^\s,{}\"=#%]+(?=\s*[,}])|[^\s,{}\"=#%()]+")

_SKIP_TYPES = {"comment", "preamble"}
_WINDOW = 1 << 16
_NEW_ENTRY = re.compile(r"\n[ \t]*@[A-Za-z]+[ \t]*[{(]")


class _LineCounter:
    """1-based line numbers of offsets, counted incrementally (files can be very large)."""

    def __init__(self, text: str, first_line: int = 1) -> None:
        self.text = text
        self.first_line = first_line
        self._offset = 0
        self._line = first_line

    def line(self, offset: int) -> int:
        if offset < self._offset:
            self._offset, self._line = 0, self.first_line
        self._line += self.text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line


class BlockScanner(FieldParser):
    """Scans blocks of one text (a whole file, or a window of a stream)."""

    def __init__(self, text: str, path: Path, strings: dict[str, str], base: int = 0,
                 first_line: int = 1, clean_line_start: bool = True) -> None:
        super().__init__(text, strings)
        self.clean_line_start = clean_line_start  # only whitespace precedes text[0] on its line
        self.path = path
        self.base = base
        self.lines = _LineCounter(text, first_line)
        self.stopped_at: int | None = None
        self.string_refs: dict[str, set[str]] = {}  # @string name -> the names its value used

    # -- findings -------------------------------------------------------------------------
    def _error(self, start: int, end: int, message: str, **data: object) -> Finding:
        line = self.lines.line(start)
        return Finding(
            Code.BIB_PARSE_ERROR,
            Severity.ERROR,
            message,
            self.path,
            self.base + start,
            self.base + max(end, start),
            {"line": line, **data},
        )

    def _repeated_fields(self, entry: BibEntry) -> Iterator[Finding]:
        """A warning per field the entry gives twice (BibTeX and biber keep the first)."""
        for start, end, name in self.repeated:
            yield Finding(Code.DUPLICATE_FIELD, Severity.WARNING,
                          f"Field '{name}' is given twice in '{entry.key}'; the first value is used",
                          self.path, self.base + start, self.base + end,
                          {"line": self.lines.line(start), "key": entry.key, "field": name})
        self.repeated.clear()

    # -- blocks ---------------------------------------------------------------------------
    def scan(self, pos: int = 0, final: bool = True) -> Iterator[BibEntry | Finding]:
        """Yield entries and findings from ``pos``; when not ``final``, stop (setting
        ``stopped_at``) at a block that may continue beyond the end of the text."""
        text = self.text
        n = len(text)
        while True:
            at = text.find("@", pos)
            if at < 0:
                return
            match = _AT.match(text, at)
            if match is None:
                pos = at + 1
                continue
            if match.group(2) is None:
                if not final and match.end() >= n:
                    self.stopped_at = at
                    return
                line_start = text.rfind("\n", 0, at) + 1
                at_line_start = text[line_start:at].strip() == "" and (line_start > 0 or self.clean_line_start)
                if at_line_start and match.group(1).lower() not in _SKIP_TYPES:
                    line_end = text.find("\n", at)
                    line_end = n if line_end < 0 else line_end
                    yield self._error(at, line_end, f"expected '{{' or '(' after @{match.group(1)}")
                pos = match.end()
                continue
            entry_type = field_name(match.group(1))
            opener = match.group(2)
            body_start = match.end()
            if entry_type not in _SKIP_TYPES and entry_type != "string":
                self.repeated.clear()
                fast = self._fast_entry(at, entry_type, body_start, opener)
                if fast is not None:
                    yield fast[0]
                    yield from self._repeated_fields(fast[0])
                    pos = fast[1] + 1
                    continue
            close, resync = self._find_close(body_start, opener)
            if close < 0:
                if not final and resync < 0:
                    self.stopped_at = at
                    return
                stop = resync if resync >= 0 else n
                if entry_type != "comment":
                    yield self._error(
                        at, _trim_end(text, at, stop),
                        f"unbalanced braces in @{match.group(1)} block (no closing "
                        f"'{'}' if opener == '{' else ')'}' before "
                        f"{'the next entry' if resync >= 0 else 'the end of the file'})",
                    )
                    pos = stop
                else:
                    eol = text.find("\n", at)
                    pos = n if eol < 0 else eol
                continue
            pos = close + 1
            if entry_type in _SKIP_TYPES:
                continue
            if entry_type == "string":
                finding = self._read_string(at, body_start, close)
                if finding is not None:
                    yield finding
                continue
            self.repeated.clear()
            yield from self._read_entry(at, entry_type, body_start, close)

    def _fast_entry(self, at: int, entry_type: str, body_start: int, opener: str) -> tuple[BibEntry, int] | None:
        """Read a well-formed entry in one pass (fields up to the closing delimiter); None
        when anything is unusual, and the careful path takes over."""
        text = self.text
        closer = "}" if opener == "{" else ")"
        # an entry never extends past a line that starts a new entry
        # (searched within a window: files with all entries on one line stay linear)
        next_entry = _NEW_ENTRY.search(text, body_start, body_start + _WINDOW)
        limit = next_entry.start() if next_entry is not None else len(text)
        key_match = _KEY.match(text, WS.match(text, body_start, limit).end(), limit)  # type: ignore[union-attr]
        if key_match is None:
            return None
        pos = WS.match(text, key_match.end(), limit).end()  # type: ignore[union-attr]
        if pos >= limit:
            return None
        try:
            if text[pos] == closer:
                fields: dict[str, str] = {}
                close = pos
            elif text[pos] == ",":
                fields, close = self._parse_fields(pos + 1, limit, closer)
            else:
                return None
        except BlockError:
            return None
        entry = make_entry(
            key_match.group(), entry_type, fields, self.path, self.base + at, self.base + close + 1,
            self.base + key_match.start(), self.base + key_match.end(),
        )
        return entry, close

    def _find_close(self, body_start: int, opener: str) -> tuple[int, int]:
        """(offset of the closing delimiter or -1, offset of a new entry start or -1)."""
        text = self.text
        depth = 0
        if opener == "{":
            for m in _BRACE_END.finditer(text, body_start):
                ch = m.group()
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    if depth == 0:
                        return m.start(), -1
                    depth -= 1
                else:
                    return -1, m.start() + 1
            return -1, -1
        parens = 0
        for m in _PAREN_END.finditer(text, body_start):
            ch = m.group()
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth = max(0, depth - 1)
            elif ch == "(":
                if depth == 0:
                    parens += 1
            elif ch == ")":
                if depth == 0:
                    if parens == 0:
                        return m.start(), -1
                    parens -= 1
            else:
                return -1, m.start() + 1
        return -1, -1

    def _read_string(self, at: int, body_start: int, close: int) -> Finding | None:
        self.names_used = set()
        try:
            fields, _ = self._parse_fields(body_start, close)
        except BlockError as exc:
            return self._error(exc.offset, close + 1, f"malformed @string: {exc.message}")
        loop: str | None = None
        for name, value in fields.items():
            self.strings[name] = value
            self.string_refs[name] = set(self.names_used)
            loop = loop or self._string_loop(name)
        if loop is None:
            return None
        return Finding(Code.STRING_LOOP, Severity.WARNING,
                       f"@string definitions refer to each other in a loop ({loop}); the names stay undefined",
                       self.path, self.base + at, self.base + close + 1, {"line": self.lines.line(at)})

    def _string_loop(self, name: str) -> str | None:
        """``"a -> b -> a"`` when the definition of ``name`` closes a loop of @string references."""
        path = [name]
        while path:
            refs = self.string_refs.get(path[-1], set())
            if name in refs:
                return " -> ".join([*path, name])
            following = next((r for r in sorted(refs) if r in self.string_refs and r not in path), None)
            if following is None:
                return None
            path.append(following)
        return None

    def _read_entry(self, at: int, entry_type: str, body_start: int, close: int) -> Iterator[BibEntry | Finding]:
        text = self.text
        pos = WS.match(text, body_start, close).end()  # type: ignore[union-attr]
        key_match = _KEY.match(text, pos, close)
        if key_match is None:
            yield self._error(at, close + 1, f"@{entry_type} entry without a key")
            return
        key = key_match.group()
        key_start, key_end = key_match.start(), key_match.end()
        pos = WS.match(text, key_end, close).end()  # type: ignore[union-attr]
        try:
            if pos < close:
                if text[pos] != ",":
                    raise BlockError(pos, f"expected ',' after the key '{key}'")
                fields, _ = self._parse_fields(pos + 1, close)
            else:
                fields = {}
        except BlockError as exc:
            fallback = self._fallback(at, close)
            line_end = text.find("\n", exc.offset, close)
            yield self._error(
                exc.offset, close if line_end < 0 else line_end,
                f"malformed entry '{key}': {exc.message}"
                + (" (read leniently; some fields may be lost)" if fallback is not None else ""),
                key=key, entry_start=self.base + at, entry_end=self.base + close + 1,
                recovered=fallback is not None,
            )
            if fallback is None:
                return
            fields = fallback
        entry = make_entry(
            key, entry_type, fields, self.path,
            self.base + at, self.base + close + 1, self.base + key_start, self.base + key_end,
        )
        yield entry
        yield from self._repeated_fields(entry)

    def _fallback(self, at: int, close: int) -> dict[str, str] | None:
        """Parse one block with bibtexparser; None when it fails too."""
        try:
            import bibtexparser
        except ImportError:  # pragma: no cover - a declared dependency
            return None
        logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
        try:
            library = bibtexparser.parse_string(self.text[at:close + 1])
        except Exception:
            return None
        if len(library.entries) != 1 or library.failed_blocks:
            return None
        result: dict[str, str] = {}
        for fld in library.entries[0].fields:
            value = str(fld.value).strip()
            if len(value) >= 2 and value[0] == "{" and value[-1] == "}":
                value = value[1:-1]
            elif len(value) >= 2 and value[0] == '"' and value[-1] == '"':
                value = value[1:-1]
            else:
                value = self.strings.get(value.lower(), MONTHS.get(value.lower(), value))
            result.setdefault(fld.key.lower(), value)
        return result

def _trim_end(text: str, start: int, stop: int) -> int:
    """End of a broken block's range: ``stop`` without trailing whitespace."""
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    return stop
