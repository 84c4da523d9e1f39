"""Lenient comparison of bibliographic fields: titles, author lists, venues, pages.

Verification must not cry wolf: these comparisons ignore case, accents, LaTeX markup,
punctuation, dash styles, "and others", initials versus full first names, particles and
venue abbreviations, and only report differences a careful reader would call errors.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher

from relatex.analysis.bib.bib_identity import normalise_title
from relatex.analysis.bib.bibtex_decode import decode_latex

_STOP = {
    "a", "an", "the", "of", "and", "for", "on", "in", "at", "to", "with", "by", "proceedings", "proc",
    "conference", "conf", "international", "intl", "int", "annual", "meeting", "workshop", "symposium",
    "journal", "j", "transactions", "trans", "volume", "vol", "part", "papers", "long", "short", "acm",
    "ieee", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "joint", "companion", "main", "findings", "association", "society", "th", "st", "nd", "rd",
}
_PREPRINT_VENUE = re.compile(r"\b(arxiv|corr|preprint|biorxiv|medrxiv|ssrn|openreview)\b", re.I)


def plain(value: str | None) -> str:
    """LaTeX-decoded text with whitespace collapsed ('' for None)."""
    return decode_latex(value) if value else ""


def title_key(title: str) -> str:
    """A title for equality tests: '&' read as 'and', then lower-case ASCII words."""
    return normalise_title(re.sub(r"\s*&\s*", " and ", plain(title)))


def titles_equal(a: str, b: str) -> bool:
    """Same title up to case, accents, markup, punctuation, hyphenation and a dropped subtitle."""
    ka, kb = title_key(a), title_key(b)
    if not ka or not kb:
        return False
    if ka == kb or ka.replace(" ", "") == kb.replace(" ", ""):
        return True
    # one is the other without its subtitle ("BERT" vs "BERT: Pre-training of ...")
    for short, long_title in ((a, b), (b, a)):
        main = plain(long_title).split(":")[0]
        if ":" in plain(long_title) and title_key(main) == title_key(short) and len(title_key(short)) >= 12:
            return True
    return False


def title_similarity(a: str, b: str) -> float:
    """Word-sequence similarity of two titles in [0, 1]."""
    ka, kb = title_key(a).split(), title_key(b).split()
    if not ka or not kb:
        return 0.0
    return SequenceMatcher(None, ka, kb, autojunk=False).ratio()


def _ascii(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).lower()


def name_parts(name: str) -> tuple[str, tuple[str, ...]]:
    """(surname key, all name tokens) of a 'Last, First' or 'First Last' name, ASCII lower-case."""
    text = _ascii(plain(name))
    if "," in text:
        last, _, first = text.partition(",")
    else:
        words = text.split()
        last, first = (words[-1], " ".join(words[:-1])) if words else ("", "")
    key = re.sub(r"[^a-z]", "", last)
    tokens = tuple(t for t in re.split(r"[^a-z]+", f"{first} {last}") if len(t) > 1)
    return key, tokens


def same_person(a: str, b: str) -> bool:
    """Two author names denote the same person (surname match, tolerant of order and particles)."""
    ka, ta = name_parts(a)
    kb, tb = name_parts(b)
    if not ka or not kb:
        return False
    if ka == kb or (len(ta) > 1 and set(ta) == set(tb)):
        return True
    # compound or particle surnames ("van den Bosch" vs "Bosch"), reversed East-Asian order
    if (ka in tb and len(ka) > 2) or (kb in ta and len(kb) > 2):
        return True
    short, long_key = sorted((ka, kb), key=len)
    return len(short) > 2 and long_key.endswith(short) and any(short == t for t in ta + tb)


def is_others(name: str) -> bool:
    return plain(name).strip().lower() in {"others", "et al.", "et al"}


def author_difference(entry: Sequence[str], authority: Sequence[str]) -> str | None:
    """Why the entry's author list differs from the authority's, or None when it agrees.

    "and others" in the entry accepts any continuation; order matters.
    """
    names = [n for n in entry if n.strip()]
    truncated = bool(names) and is_others(names[-1])
    if truncated:
        names = names[:-1]
    reference = [n for n in authority if n.strip() and not is_others(n)]
    if not names or not reference:
        return None
    if truncated:
        if len(names) > len(reference):
            return f"{len(names)} authors listed before 'others', the authority has {len(reference)}"
        reference_cmp = reference[: len(names)]
    else:
        reference_cmp = reference
    if len(names) != len(reference_cmp):
        missing = [r for r in reference_cmp if not any(same_person(r, n) for n in names)]
        extra = [n for n in names if not any(same_person(n, r) for r in reference_cmp)]
        parts = []
        if missing:
            parts.append("missing " + "; ".join(plain(m) for m in missing))
        if extra:
            parts.append("not an author: " + "; ".join(plain(e) for e in extra))
        return ", ".join(parts) or f"{len(names)} authors, the authority has {len(reference_cmp)}"
    wrong = [(n, r) for n, r in zip(names, reference_cmp, strict=True) if not same_person(n, r)]
    if not wrong:
        return None
    if all(any(same_person(n, r) for r in reference_cmp) for n in names):
        return "author order differs"
    return "; ".join(f"{plain(n)} instead of {plain(r)}" for n, r in wrong[:3])


def venue_tokens(venue: str) -> set[str]:
    words = re.split(r"[^a-z0-9]+", _ascii(plain(venue)))
    return {w for w in words if w and w not in _STOP and not w.isdigit() and not re.fullmatch(r"\d+(st|nd|rd|th)", w)}


def _initials(venue: str) -> str:
    return "".join(w[0] for w in re.split(r"[^a-z0-9]+", _ascii(plain(venue))) if w and not w.isdigit())


def _is_subsequence(short: str, long_text: str) -> bool:
    letters = iter(long_text)
    return all(ch in letters for ch in short)


def venues_compatible(a: str | None, b: str | None) -> bool:
    """Loose venue agreement. Only two spelled-out venues (three or more significant words
    each) that share no word and are not abbreviations of one another disagree."""
    if not a or not b:
        return True
    ta, tb = venue_tokens(a), venue_tokens(b)
    if len(ta) < 3 or len(tb) < 3 or ta & tb:
        return True
    for tokens, other in ((ta, b), (tb, a)):
        initials = _initials(other)
        if any(2 <= len(t) <= 8 and _is_subsequence(t, initials) for t in tokens):
            return True
    return False


def is_preprint_venue(venue: str | None) -> bool:
    return bool(venue) and bool(_PREPRINT_VENUE.search(plain(venue)))


def page_range(value: str | None) -> tuple[str, str] | None:
    """(first, last) of a numeric page range written with -, --, – or —; None otherwise."""
    if not value:
        return None
    text = plain(value).replace("—", "-").replace("–", "-")
    match = re.fullmatch(r"\s*([A-Za-z]?\d+)\s*(?:-+\s*([A-Za-z]?\d+))?\s*", text)
    if not match:
        return None
    return match.group(1).lower(), (match.group(2) or match.group(1)).lower()


def pages_equal(a: str | None, b: str | None) -> bool:
    ra, rb = page_range(a), page_range(b)
    return ra is None or rb is None or ra == rb
