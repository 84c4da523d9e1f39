"""Citation keys: find a paper's existing key in the user's .bib, or make a new one in their style.

A paper the draft's bibliography already has (same DOI, arXiv id, or normalised title and
first-author surname) is always cited by its existing key. New keys follow the style most of
the user's keys follow (:data:`KEY_STYLES`), defaulting to ``surnameYEARword``
(``karpukhin2020dense``), and never collide with an existing key.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.analysis.latex.latex_sanitiser import safe_key
from relatex.retrieval.records import (
    PaperRecord,
    normalise_arxiv_id,
    normalise_doi,
    normalise_title,
    surname,
)

DEFAULT_STYLE = "surnameYEARword"

# style name -> pattern recognising it (checked in this order: the first match wins)
KEY_STYLES: dict[str, re.Pattern[str]] = {
    "doi": re.compile(r"^10\.\d{4,9}/\S+$"),
    "acl": re.compile(r"^[a-z][a-z\-']*(?:-etal)?-\d{4}-[a-z0-9]+$"),
    "surname:YEAR": re.compile(r"^[A-Za-z][A-Za-z\-']*:\d{4}[a-z]?$"),
    "surnameYEARword": re.compile(r"^[a-z][a-z\-']*\d{4}[a-z][a-z0-9]+$"),
    "SurnameYEAR": re.compile(r"^[A-Z][A-Za-z\-']*\d{4}[a-z]?$"),
    "surnameYEAR": re.compile(r"^[a-z][a-z\-']*\d{4}[a-z]?$"),
}

STOPWORDS = frozenset(
    "a an the of on in for to and with from by at via using towards toward is are be as its their "
    "into over under about what when how why can do does new".split()
)


def ascii_letters(text: str) -> str:
    """Accents stripped, LaTeX commands dropped, only ASCII letters/digits kept."""
    text = re.sub(r"\\[a-zA-Z]+\s*", "", text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[^A-Za-z0-9]", "", text)


def detect_key_style(keys: Iterable[str], minimum_share: float = 0.5) -> str:
    """The style most keys follow, when at least ``minimum_share`` of them follow it."""
    counts: Counter[str] = Counter()
    total = 0
    for key in keys:
        total += 1
        for style, pattern in KEY_STYLES.items():
            if pattern.match(key):
                counts[style] += 1
                break
    if not counts or total == 0:
        return DEFAULT_STYLE
    style, count = counts.most_common(1)[0]
    return style if count / total >= minimum_share else DEFAULT_STYLE


def _title_word(title: str) -> str:
    for word in normalise_title(title).split():
        if word not in STOPWORDS and not word.isdigit():
            return word
    return "paper"


def base_key(record: PaperRecord, style: str) -> str:
    """A key for ``record`` in ``style``, before making it unique."""
    if style == "doi" and record.doi and safe_key(record.doi):
        return record.doi
    family = ascii_letters(surname(record.authors[0])) if record.authors else ""
    family = family or ascii_letters(_title_word(record.title)) or "anon"
    year = str(record.year) if record.year else "nd"
    word = _title_word(record.title)
    if style == "acl":
        names = [ascii_letters(surname(a)).lower() for a in record.authors[:3]]
        names = [n for n in names if n] or [family.lower()]
        if len(names) == 2:
            lead = f"{names[0]}-{names[1]}"
        elif len(names) > 2:
            lead = f"{names[0]}-etal"
        else:
            lead = names[0]
        return f"{lead}-{year}-{word}"
    if style == "surname:YEAR":
        return f"{family}:{year}"
    if style == "SurnameYEAR":
        return f"{family[:1].upper()}{family[1:]}{year}"
    if style == "surnameYEAR":
        return f"{family.lower()}{year}"
    return f"{family.lower()}{year}{word}"


def unique_key(base: str, taken: set[str], style: str, lowered: set[str] | None = None) -> str:
    """``base`` or, if taken (case-insensitively, as BibTeX compares keys), a suffixed variant
    (``lowered``: the lower-cased ``taken``, when the caller keeps it)."""
    if lowered is None:
        lowered = {k.lower() for k in taken}
    if base.lower() not in lowered:
        return base
    for index in range(2, 1000):
        suffix = f"-{index}" if style in {"acl", "doi"} else _letter_suffix(index)
        candidate = f"{base}{suffix}"
        if candidate.lower() not in lowered:
            return candidate
    raise ValueError(f"cannot make a unique key from {base!r}")


def _letter_suffix(index: int) -> str:
    # 2 -> b, 3 -> c, ..., 26 -> z, 27 -> ba ...
    letters = ""
    n = index - 1
    while True:
        letters = chr(ord("a") + n % 26) + letters
        n //= 26
        if n == 0:
            return letters


def _title_handle(title: str) -> str:
    """Normalised title, with BibTeX protection braces ignored (``{N}eed`` is ``Need``)."""
    return normalise_title(title.replace("{", "").replace("}", ""))


class KeyIndex:
    """The user's existing entries, looked up by DOI, arXiv id or title + first author."""

    def __init__(self, entries: Sequence[BibEntry]) -> None:
        self.keys: set[str] = {e.key for e in entries}
        self.style = detect_key_style(sorted(self.keys))
        self._by_doi: dict[str, str] = {}
        self._by_arxiv: dict[str, str] = {}
        self._by_title: dict[str, list[tuple[str, str, int | None]]] = {}
        for entry in entries:
            doi = normalise_doi(entry.doi or entry.get("doi"))
            if doi:
                self._by_doi.setdefault(doi, entry.key)
            arxiv = normalise_arxiv_id(entry.arxiv_id or entry.get("eprint"))
            if arxiv:
                self._by_arxiv.setdefault(arxiv, entry.key)
            title = _title_handle(entry.title_plain or entry.get("title", "") or "")
            if title:
                first = normalise_title(surname(entry.authors[0])) if entry.authors else ""
                self._by_title.setdefault(title, []).append((entry.key, first, entry.year))

    def find(self, record: PaperRecord) -> str | None:
        """The existing key of the same work, or None."""
        doi = normalise_doi(record.doi)
        if doi and doi in self._by_doi:
            return self._by_doi[doi]
        arxiv = normalise_arxiv_id(record.arxiv_id)
        if arxiv and arxiv in self._by_arxiv:
            return self._by_arxiv[arxiv]
        title = _title_handle(record.title)
        first = normalise_title(record.first_author_surname())
        for key, entry_first, year in self._by_title.get(title, []):
            if first and entry_first and first != entry_first:
                continue
            if year and record.year and abs(year - record.year) > 1:
                continue
            return key
        return None


def assign_keys(
    records: Sequence[PaperRecord],
    entries: Sequence[BibEntry] | KeyIndex,
    draft_keys: Mapping[str, str | None] | None = None,
    style: str | None = None,
) -> tuple[dict[str, str], set[str]]:
    """Record id -> citation key for every record, and the ids that need a new .bib entry.

    ``entries`` are the draft's .bib entries, or their :class:`KeyIndex` when the caller keeps
    one. ``draft_keys`` gives keys the draft already cites (record id -> key); they win when the
    .bib has them. Otherwise an existing entry of the same work is reused; otherwise the draft's
    key when the draft cites the paper without a .bib entry; otherwise a new key.
    """
    index = entries if isinstance(entries, KeyIndex) else KeyIndex(entries)
    chosen_style = style or index.style
    taken = set(index.keys)
    lowered = {k.lower() for k in taken}
    keys: dict[str, str] = {}
    new: set[str] = set()
    for record in records:
        draft_key = (draft_keys or {}).get(record.id)
        if draft_key and draft_key in index.keys:
            keys[record.id] = draft_key
            continue
        existing = index.find(record)
        if existing is not None:
            keys[record.id] = existing
            continue
        if draft_key and draft_key.lower() not in lowered and safe_key(draft_key):
            # cited by the draft but missing from its .bib: the new entry fills that key
            keys[record.id] = draft_key
            taken.add(draft_key)
            lowered.add(draft_key.lower())
            new.add(record.id)
            continue
        key = unique_key(base_key(record, chosen_style), taken, chosen_style, lowered)
        taken.add(key)
        lowered.add(key.lower())
        keys[record.id] = key
        new.add(record.id)
    return keys, new
