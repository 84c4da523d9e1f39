"""Small conversions shared by the online clients: names, years, DOIs, text."""

from __future__ import annotations

import html
import re
from typing import Any

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "le", "la", "du", "dos", "das", "ter"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


def last_first(name: str) -> str:
    """'Ada B. Lovelace' -> 'Lovelace, Ada B.'; names already 'Last, First' are kept.

    Lower-case particles (van, de, ...) stay with the surname; DBLP's homonym numbers
    ('Wei Li 0001') are dropped.
    """
    name = re.sub(r"\s+\d{4}$", "", " ".join(name.split()))
    if not name or "," in name:
        return name
    parts = name.split(" ")
    suffix = ""
    if len(parts) > 2 and parts[-1].lower() in _SUFFIXES:
        suffix = parts.pop()
    if len(parts) == 1:
        return parts[0]
    cut = len(parts) - 1
    while cut > 1 and parts[cut - 1].lower() in _PARTICLES:
        cut -= 1
    last = " ".join(parts[cut:])
    first = " ".join(parts[:cut])
    return f"{last}, {suffix}, {first}" if suffix else f"{last}, {first}"


def as_int(value: Any) -> int | None:
    """An int from an int/str year, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def clean_text(value: str | None) -> str | None:
    """Whitespace-collapsed text without markup tags or HTML entities; None when empty."""
    if not value:
        return None
    text = re.sub(r"<[^>]+>", " ", value)
    text = " ".join(html.unescape(text).split())
    return text or None


def strip_url_prefix(value: str, *prefixes: str) -> str:
    for prefix in prefixes:
        if value.lower().startswith(prefix.lower()):
            return value[len(prefix):]
    return value


def arxiv_from_doi(doi: str | None) -> str | None:
    """The arXiv id inside an arXiv DOI (10.48550/arXiv.2101.00001)."""
    if doi and (match := re.match(r"10\.48550/arxiv\.(.+)$", doi.strip(), flags=re.I)):
        return match.group(1)
    return None


def first(values: Any) -> str | None:
    """The first non-empty string of a list (Crossref lists titles and containers)."""
    if isinstance(values, str):
        return values or None
    if isinstance(values, list):
        for value in values:
            if isinstance(value, str) and value.strip():
                return value.strip()
    return None
