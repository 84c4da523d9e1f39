"""Fast local scans of the current text around the cursor: citation keys, cite contexts, sentences.

The project model may lag a keystroke behind; hover, completion and navigation look at the
editor's current text around the cursor with these scans and only then consult the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from relatex.analysis.latex.citations import CITE_NAME_PATTERN

CITE_COMMAND = re.compile(
    r"\\(?P<cmd>" + CITE_NAME_PATTERN + r"|bibentry)\*?\s*(?:\[[^\]\n]*\]\s*){0,2}\{(?P<keys>[^{}]*)\}?"
)
OPEN_CITE = re.compile(
    r"\\(?P<cmd>" + CITE_NAME_PATTERN + r"|bibentry)\*?\s*(?:\[[^\]\n]*\]\s*){0,2}\{(?P<keys>[^{}\\]*)$"
)
BIB_ENTRY_HEAD = re.compile(r"@(?P<type>[A-Za-z]+)\s*[{(]\s*(?P<key>[^,\s{}()]+)")
WINDOW = 2000


@dataclass(frozen=True)
class KeyAt:
    key: str
    start: int
    end: int


@dataclass(frozen=True)
class CiteContext:
    """The cursor is inside the key list of a citation command."""

    command: str
    prefix: str  # the partial key typed before the cursor
    prefix_start: int  # where the partial key starts (replace range start)
    key_end: int  # where the partial key ends (replace range end)
    existing: tuple[str, ...]  # other keys already in the braces


def _split_keys(body: str, base: int) -> list[KeyAt]:
    keys: list[KeyAt] = []
    pos = 0
    for part in body.split(","):
        stripped = part.strip()
        if stripped:
            lead = len(part) - len(part.lstrip())
            start = base + pos + lead
            keys.append(KeyAt(stripped, start, start + len(stripped)))
        pos += len(part) + 1
    return keys


def cite_key_at(text: str, offset: int) -> KeyAt | None:
    """The citation key under the cursor (inside ``\\cite...{...}``), if any."""
    lo = max(0, offset - WINDOW)
    for match in CITE_COMMAND.finditer(text, lo, min(len(text), offset + WINDOW)):
        if match.start() > offset:
            break
        if not match.start("keys") <= offset <= match.end("keys"):
            continue
        for key in _split_keys(match.group("keys"), match.start("keys")):
            if key.start <= offset <= key.end:
                return key
    return None


@lru_cache(maxsize=64)
def _open_macro(name: str, groups_before: int) -> re.Pattern[str]:
    """An open key list of one of the author's citation macros, after its optional arguments
    and the ``groups_before`` mandatory ones that precede the keys."""
    return re.compile(r"\\(?P<cmd>" + re.escape(name) + r")(?![A-Za-z@])\s*(?:\[[^\]\n]*\]\s*){0,2}"
                      r"(?:\{[^{}\n]*\}\s*(?:\[[^\]\n]*\]\s*)?){" + str(groups_before) + r"}"
                      r"\{(?P<keys>[^{}\\]*)$")


def cite_context(text: str, offset: int, macros: Sequence[tuple[str, int]] = ()) -> CiteContext | None:
    """Completion context: the cursor is inside the braces of a citation command (or of one
    of the author's citation ``macros``: name and mandatory arguments before the keys)."""
    lo = max(0, offset - 500)
    before = text[lo:offset]
    match = OPEN_CITE.search(before)
    for name, groups_before in macros:
        if match is not None:
            break
        match = _open_macro(name, groups_before).search(before)
    if match is None:
        return None
    body = match.group("keys")
    last_comma = body.rfind(",")
    raw_prefix = body[last_comma + 1 :]
    prefix = raw_prefix.lstrip()
    prefix_start = offset - len(prefix)
    end = offset
    while end < len(text) and text[end] not in ",}\n \t{\\":
        end += 1
    existing = tuple(k.strip() for k in body[: max(last_comma, 0)].split(",") if k.strip())
    after_close = text.find("}", offset)
    if after_close != -1:
        tail = text[end:after_close]
        if "\n\n" not in tail and "{" not in tail:
            existing += tuple(k.strip() for k in tail.split(",") if k.strip())
    return CiteContext(match.group("cmd"), prefix, prefix_start, end, existing)


def bib_key_at(text: str, offset: int) -> KeyAt | None:
    """In a .bib file: the key of the entry whose head line or body holds the cursor."""
    best: KeyAt | None = None
    lo = text.rfind("\n@", 0, offset + 1)
    start = lo + 1 if lo != -1 else 0
    match = BIB_ENTRY_HEAD.search(text, start, min(len(text), offset + 200))
    if match is not None and match.start() <= offset:
        best = KeyAt(match.group("key"), match.start("key"), match.end("key"))
    return best


_SENTENCE_BREAK = re.compile(r"(?<![A-Z])(?<!e\.g)(?<!i\.e)(?<!al)[.!?](?=\s+[A-Z\\])|\n[ \t]*\n")


def sentence_around(text: str, offset: int, limit: int = 600) -> tuple[int, int]:
    """The source range of the sentence around ``offset`` (bounded by ``limit`` chars)."""
    lo = max(0, offset - limit)
    hi = min(len(text), offset + limit)
    start = lo
    for match in _SENTENCE_BREAK.finditer(text, lo, offset):
        start = match.end()
    end = hi
    following = _SENTENCE_BREAK.search(text, offset, hi)
    if following is not None:
        end = following.end()
    return start, end


_COMMANDS = re.compile(r"\\[A-Za-z]+\*?(\[[^\]]*\])?")


def rough_plain(text: str) -> str:
    """Very rough plain text of a LaTeX fragment (for ranking, never for display)."""
    text = CITE_COMMAND.sub(" ", text)
    text = _COMMANDS.sub(" ", text)
    text = re.sub(r"[{}$%~]", " ", text)
    return " ".join(text.split())
