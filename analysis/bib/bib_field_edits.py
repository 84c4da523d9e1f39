"""Rewrite chosen fields of one BibTeX entry, leaving everything else byte for byte.

A correction changes, adds or removes a few fields (and maybe the entry type). When the
entry's source text is at hand, only those fields' values change and the user's layout,
comments, quoting and other fields are kept; otherwise the entry is formatted canonically.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from relatex.analysis.bib.bib_edits import format_entry, format_value
from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.latex.latex_sanitiser import sanitise_fields

_HEAD = re.compile(r"@\s*([A-Za-z][\w:-]*)\s*([{(])\s*([^,\s]*)\s*,")
_NAME = re.compile(r"\s*([A-Za-z][\w:.+\-]*)\s*=\s*")


@dataclass(frozen=True)
class _FieldSpan:
    name: str  # lower case
    start: int  # start of the field name
    value_start: int
    value_end: int
    end: int  # after the trailing comma (if any)


def _value_end(text: str, pos: int, close: str) -> int:
    """End of a value starting at ``pos`` (braced, quoted, bare, joined with #)."""
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch == "{":
            depth = 0
            while pos < n:
                if text[pos] == "{":
                    depth += 1
                elif text[pos] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                pos += 1
            pos += 1
        elif ch == '"':
            pos += 1
            depth = 0
            while pos < n and not (text[pos] == '"' and depth == 0):
                depth += {"{": 1, "}": -1}.get(text[pos], 0)
                pos += 1
            pos += 1
        else:
            match = re.compile(r"[^\s,#" + re.escape(close) + r"]+").match(text, pos)
            if not match:
                raise ValueError(f"unexpected character {ch!r} in a field value")
            pos = match.end()
        rest = re.compile(r"\s*#\s*").match(text, pos)
        if rest is None:
            return pos
        pos = rest.end()
    raise ValueError("unterminated field value")


def _fields(text: str) -> tuple[str, list[_FieldSpan], int]:
    """(entry type, field spans, offset of the closing delimiter) of one entry's text."""
    head = _HEAD.match(text)
    if head is None:
        raise ValueError("not a BibTeX entry with a key")
    close = "}" if head.group(2) == "{" else ")"
    pos = head.end()
    spans: list[_FieldSpan] = []
    while True:
        rest = re.compile(r"\s*").match(text, pos)
        pos = rest.end() if rest else pos
        if pos >= len(text):
            raise ValueError("entry is not closed")
        if text[pos] == close:
            return head.group(1), spans, pos
        name = _NAME.match(text, pos)
        if name is None:
            raise ValueError(f"cannot read a field at offset {pos}")
        value_start = name.end()
        value_end = _value_end(text, value_start, close)
        after = re.compile(r"\s*,").match(text, value_end)
        end = after.end() if after else value_end
        spans.append(_FieldSpan(name.group(1).lower(), name.start(1), value_start, value_end, end))
        pos = end
        if after is None:
            rest = re.compile(r"\s*").match(text, pos)
            pos = rest.end() if rest else pos
            if pos < len(text) and text[pos] == close:
                return head.group(1), spans, pos
            raise ValueError("missing comma between fields")


def _canonical(entry: BibEntry, fixes: Mapping[str, str]) -> str:
    fields = dict(entry.fields)
    entry_type = entry.entry_type
    for name, value in fixes.items():
        if name == "@type":
            entry_type = value
        elif value:
            fields[name] = value
        else:
            fields.pop(name, None)
    return format_entry(entry_type, entry.key, fields)


def rewrite_entry(entry: BibEntry, fixes: Mapping[str, str], original: str | None) -> str:
    """The entry's text with ``fixes`` applied ("" removes a field, "@type" sets the type).

    The values come from authorities and the knowledge base: they pass the sanitiser first.
    """
    fixes = sanitise_fields(fixes)[0]
    if original is None:
        return _canonical(entry, fixes)
    try:
        entry_type, spans, close_at = _fields(original)
    except ValueError:
        return _canonical(entry, fixes)
    by_name = {s.name: s for s in spans}
    edits: list[tuple[int, int, str]] = []
    head = _HEAD.match(original)
    assert head is not None
    if (new_type := fixes.get("@type")) and new_type.lower() != entry_type.lower():
        edits.append((head.start(1), head.end(1), new_type.lower()))
    additions: list[tuple[str, str]] = []
    for name, value in fixes.items():
        if name == "@type":
            continue
        span = by_name.get(name.lower())
        if span is None:
            if value:
                additions.append((name.lower(), value))
            continue
        if value:
            edits.append((span.value_start, span.value_end, format_value(value)))
        else:
            line_start = original.rfind("\n", 0, span.start) + 1
            whole_line = not original[line_start : span.start].strip()
            start = line_start if whole_line else span.start
            end = span.end
            if not whole_line:
                while end < close_at and original[end] in " \t":
                    end += 1
            if whole_line and original.startswith("\n", end):
                end += 1
            elif whole_line and original.startswith("\r\n", end):
                end += 2
            edits.append((start, end, ""))
    if additions:
        last = spans[-1] if spans else None
        indent = "  "
        if last is not None:
            line_start = original.rfind("\n", 0, last.start) + 1
            indent = original[line_start : last.start] if not original[line_start : last.start].strip() else "  "
        newline = "\r\n" if "\r\n" in original else "\n"
        if "\n" not in original.strip():
            newline, indent = "", " "  # a one-line entry stays on one line
        text = "".join(f"{newline}{indent}{name} = {format_value(value)}," for name, value in additions)
        insert_at = last.end if last is not None else head.end()
        text = text.rstrip(",") if original[insert_at:close_at].strip() == "" else text
        if last is not None and original[last.value_end : last.end].strip() != ",":
            text = "," + text  # the last field had no trailing comma
        edits.append((insert_at, insert_at, text))
    result = original
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        result = result[:start] + new + result[end:]
    return result
