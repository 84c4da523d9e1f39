"""Character offsets <-> (line, column) in a text, both 0-based, columns in code points.

Domain code works on offsets; the CLI prints 1-based lines and columns; the server converts
columns to UTF-16 code units for LSP.
"""

from __future__ import annotations

from bisect import bisect_right


class LineIndex:
    """Maps offsets to lines and back for one text (``\\n``, ``\\r\\n`` and ``\\r`` line ends)."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "\r":
                if i + 1 < n and text[i + 1] == "\n":
                    i += 1
                starts.append(i + 1)
            elif ch == "\n":
                starts.append(i + 1)
            i += 1
        self.line_starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of an offset, clamped to the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.line_starts, offset) - 1
        return line, offset - self.line_starts[line]

    def offset(self, line: int, column: int) -> int:
        """Offset of (line, column), clamped to the line's end and the text."""
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.text)
        start = self.line_starts[line]
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return min(start + max(column, 0), end)
