"""Targeted edits of .bib files: format one entry, append it, replace or remove one entry.

Only the edited range changes; every other byte of the file stays as the user wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.edits import TextEdit

#: Canonical field order of formatted entries; other fields follow alphabetically.
FIELD_ORDER = (
    "author", "editor", "title", "booktitle", "journal", "journaltitle", "series", "volume", "number",
    "chapter", "pages", "year", "month", "date", "edition", "address", "location", "publisher",
    "organization", "institution", "school", "howpublished", "type", "note", "isbn", "issn", "doi",
    "eprint", "archiveprefix", "eprinttype", "primaryclass", "url", "urldate", "keywords", "abstract",
)
_CASED_NAMES = {"archiveprefix": "archivePrefix", "primaryclass": "primaryClass"}
_KEY_RE = re.compile(r"[^\s,{}\"=#%()]+")
_TYPE_RE = re.compile(r"[A-Za-z][A-Za-z0-9_:\-]*")
_FIELD_RE = re.compile(r"[A-Za-z][A-Za-z0-9_:.+\-]*")


def _balanced(value: str) -> bool:
    depth = 0
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def format_value(value: str) -> str:
    """A field value in braces; unbalanced braces are escaped so the file stays parseable."""
    value = " ".join(value.split()) if "\n" in value else value
    if not _balanced(value):
        value = re.sub(r"(?<!\\)([{}])", r"\\\1", value)
    return "{" + value + "}"


def format_entry(entry_type: str, key: str, fields: Mapping[str, str]) -> str:
    """Canonical BibTeX text of one entry (no trailing newline).

    Fields are ordered by :data:`FIELD_ORDER`, names lower-case (``archivePrefix`` kept as
    usual), values braced, empty values dropped. Raises ValueError on an invalid type or key.
    """
    if not _TYPE_RE.fullmatch(entry_type or ""):
        raise ValueError(f"invalid BibTeX entry type {entry_type!r}")
    if not _KEY_RE.fullmatch(key or ""):
        raise ValueError(f"invalid BibTeX key {key!r}")
    items: dict[str, str] = {}
    for name, value in fields.items():
        lowered = name.strip().lower()
        if not _FIELD_RE.fullmatch(lowered):
            raise ValueError(f"invalid BibTeX field name {name!r}")
        if value is None or not str(value).strip():
            continue
        items.setdefault(lowered, str(value).strip())
    rank = {name: i for i, name in enumerate(FIELD_ORDER)}
    ordered = sorted(items, key=lambda n: (rank.get(n, len(rank)), n))
    names = [_CASED_NAMES.get(n, n) for n in ordered]
    width = max((len(n) for n in names), default=0)
    lines = [f"@{entry_type.lower()}{{{key},"]
    for shown, name in zip(names, ordered, strict=True):
        lines.append(f"  {shown.ljust(width)} = {format_value(items[name])},")
    if len(lines) > 1:
        lines[-1] = lines[-1].rstrip(",")
    lines.append("}")
    return "\n".join(lines)


def append_entry_edit(bib: BibFile, entry_text: str) -> TextEdit:
    """Insert an entry at the end of a .bib file, separated by one blank line."""
    text = bib.text
    end = len(text)
    if not text.strip():
        prefix = ""
    elif text.endswith("\n\n") or text.endswith("\r\n\r\n"):
        prefix = ""
    elif text.endswith("\n"):
        prefix = "\r\n" if text.endswith("\r\n") else "\n"
    else:
        prefix = "\n\n"
    newline = "\r\n" if "\r\n" in text[:4096] else "\n"
    body = entry_text.strip("\r\n")
    if newline != "\n":
        body = body.replace("\r\n", "\n").replace("\n", newline)
    if prefix == "\n\n" and newline != "\n":
        prefix = newline * 2
    return TextEdit(bib.path, end, end, prefix + body + newline)


def replace_entry_edit(entry: BibEntry, new_text: str) -> TextEdit:
    """Replace exactly one entry's range (``@`` to its closing delimiter)."""
    return TextEdit(entry.path, entry.start, entry.end, new_text.strip("\r\n"))


def remove_entry_edit(entry: BibEntry, text: str | None = None) -> TextEdit:
    """Remove one entry; with the file's ``text``, also the line break and one blank line after
    it, so that no empty lines pile up."""
    end = entry.end
    if text is not None:
        for _ in range(2):
            if text.startswith("\r\n", end):
                end += 2
            elif text.startswith("\n", end):
                end += 1
            else:
                break
    return TextEdit(entry.path, entry.start, end, "")
