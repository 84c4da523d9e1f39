"""Targeted text edits: replace ``[start, end)`` of a file's text, leaving the rest untouched.

Every change relatex makes to a user's file (BibTeX corrections, new entries, the generated
section) is a list of these; the server sends them as a workspace edit, the CLI applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TextEdit:
    """Replace the characters ``[start, end)`` of ``path``'s text with ``new_text``."""

    path: Path
    start: int
    end: int
    new_text: str

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid edit range [{self.start}, {self.end}) for {self.path}")


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply non-overlapping edits given in any order; raises ValueError on overlap or on a
    range beyond the text. Insertions at the same offset are applied in the given order."""
    if not edits:
        return text
    indexed = sorted(enumerate(edits), key=lambda item: (item[1].start, item[1].end, item[0]))
    pieces: list[str] = []
    cursor = 0
    for _, edit in indexed:
        if edit.end > len(text):
            raise ValueError(f"edit [{edit.start}, {edit.end}) is beyond the end of the text ({len(text)})")
        if edit.start < cursor:
            raise ValueError(f"overlapping edits at offset {edit.start} in {edit.path}")
        pieces.append(text[cursor:edit.start])
        pieces.append(edit.new_text)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def edits_by_path(edits: Sequence[TextEdit]) -> dict[Path, list[TextEdit]]:
    """Group edits by file, keeping their order."""
    grouped: dict[Path, list[TextEdit]] = {}
    for edit in edits:
        grouped.setdefault(edit.path, []).append(edit)
    return grouped
