"""Character offsets <-> LSP positions (UTF-16 code units), on top of :class:`LineIndex`.

Domain code speaks in code-point offsets; LSP clients speak in (line, UTF-16 column). Every
conversion in the server goes through :class:`PositionMapper` so astral characters (emoji,
mathematical alphanumerics) never shift a range.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections.abc import Iterable
from pathlib import Path

from lsprotocol import types

from relatex.analysis.text_positions import LineIndex


def _utf16_len(text: str) -> int:
    """Number of UTF-16 code units of ``text``."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _cp_column(line_text: str, utf16_column: int) -> int:
    """Code-point column of a UTF-16 column inside one line (clamped to the line)."""
    if utf16_column <= 0:
        return 0
    units = 0
    for index, ch in enumerate(line_text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > utf16_column:
            return index
        if units == utf16_column:
            return index + 1
    return len(line_text)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def line_index(text: str) -> LineIndex:
    """A :class:`LineIndex` whose line starts are found by a regex scan (same result, C speed)."""
    index = LineIndex.__new__(LineIndex)
    index.text = text
    index.line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
    return index


#: Texts at least this long have their line index built only when a single lookup needs it.
LAZY_INDEX_CHARS = 4 << 20
#: Distance between the line checkpoints of such a text.
CHECKPOINT_CHARS = 1 << 16


class PositionMapper:
    """Converts between offsets and LSP positions for one immutable text.

    The line index of a very large text (a 100k-entry .bib) costs a second to build; batches
    of positions (:meth:`positions`) in a text with only ``\\n`` line breaks are found without
    it, by counting line breaks from checkpoints recorded along the text; so are single
    positions, unless the line index has been built for another reason.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._index: LineIndex | None = None if len(text) >= LAZY_INDEX_CHARS else line_index(text)
        self._checkpoints: list[int] | None = None  # offsets every CHECKPOINT_CHARS, and their lines
        self._checkpoint_lines: list[int] = []
        self._lock = threading.Lock()
        self._has_cr: bool | None = None

    @property
    def index(self) -> LineIndex:
        if self._index is None:
            self._index = line_index(self.text)
        return self._index

    def positions(self, offsets: Iterable[int]) -> dict[int, types.Position]:
        """LSP positions of many offsets at once (each clamped to the text)."""
        wanted = sorted({min(max(0, offset), len(self.text)) for offset in offsets})
        return {offset: self.position(offset) for offset in wanted}

    def _lazy(self) -> bool:
        """Whether lookups count line breaks from checkpoints instead of using a line index."""
        if self._index is not None:
            return False
        if self._has_cr is None:
            self._has_cr = "\r" in self.text  # once: scanning 170 MB takes tens of milliseconds
        return not self._has_cr

    def _line_of(self, offset: int) -> int:
        """Line number of an offset by counting line breaks from the nearest checkpoint before it.

        Checkpoints (every :data:`CHECKPOINT_CHARS` characters, recorded as the text is first
        walked) keep every later lookup to a short count.
        """
        with self._lock:  # the server converts in the executor and on the event loop
            if self._checkpoints is None:
                self._checkpoints, self._checkpoint_lines = [0], [0]
            points, lines = self._checkpoints, self._checkpoint_lines
            index = bisect_right(points, offset) - 1
            at, line = points[index], lines[index]
            if index == len(points) - 1:  # beyond the walked part: walk on, leaving checkpoints
                while offset - at >= CHECKPOINT_CHARS:
                    line += self.text.count("\n", at, at + CHECKPOINT_CHARS)
                    at += CHECKPOINT_CHARS
                    points.append(at)
                    lines.append(line)
        return line + self.text.count("\n", at, offset)

    def _line_text(self, line: int) -> str:
        starts = self.index.line_starts
        start = starts[line]
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return self.text[start:end]

    def position(self, offset: int) -> types.Position:
        """LSP position of a code-point offset (clamped to the text)."""
        if self._lazy():
            text = self.text
            offset = min(max(0, offset), len(text))
            start = text.rfind("\n", 0, offset) + 1
            return types.Position(line=self._line_of(offset), character=_utf16_len(text[start:offset]))
        line, column = self.index.position(offset)
        start = self.index.line_starts[line]
        return types.Position(line=line, character=_utf16_len(self.text[start : start + column]))

    def offset(self, position: types.Position) -> int:
        """Code-point offset of an LSP position (clamped to its line and the text)."""
        line = position.line
        if line < 0:
            return 0
        if line >= len(self.index.line_starts):
            return len(self.text)
        column = _cp_column(self._line_text(line), position.character)
        return self.index.offset(line, column)

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(max(start, end)))

    def offsets(self, rng: types.Range) -> tuple[int, int]:
        start, end = self.offset(rng.start), self.offset(rng.end)
        return (start, end) if start <= end else (end, start)


_shared: dict[Path, PositionMapper] = {}


def mapper_for_file(path: Path, text: str) -> PositionMapper:
    """The mapper of a file's text, shared by every feature while the text is the same object
    (a large .bib's line checkpoints are found once, not per feature)."""
    mapper = _shared.get(path)
    if mapper is None or mapper.text is not text:
        mapper = _shared[path] = PositionMapper(text)
    return mapper


def apply_change(text: str, change: types.TextDocumentContentChangeEvent,
                 mapper: PositionMapper | None = None) -> str:
    """The text after one ``didChange`` content change (incremental or full)."""
    if isinstance(change, types.TextDocumentContentChangePartial):
        if mapper is None or mapper.text is not text:
            mapper = PositionMapper(text)
        start, end = mapper.offsets(change.range)
        return text[:start] + change.text + text[end:]
    return change.text


def end_position(text: str) -> types.Position:
    """The LSP position just after the last character of ``text``."""
    return PositionMapper(text).position(len(text))
