"""One BibTeX entry as relatex keeps it: the fields as written plus what is derived from them
(plain title, author and editor names, year, DOI, arXiv id); month abbreviations as BibTeX knows them."""

from __future__ import annotations

import re
from pathlib import Path

from relatex.analysis.bib.bib_identity import arxiv_from_fields, doi_from_fields
from relatex.analysis.bib.bibtex_decode import decode_latex, split_names
from relatex.analysis.bib.bibtex_model import BibEntry

MONTHS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
    "jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November",
    "dec": "December",
}
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


def make_entry(key: str, entry_type: str, fields: dict[str, str], path: Path, start: int, end: int,
               key_start: int, key_end: int) -> BibEntry:
    """A :class:`BibEntry` with the derived fields (plain title, names, year, identifiers)."""
    title = fields.get("title")
    author = fields.get("author")
    editor = fields.get("editor")
    year_text = fields.get("year") or fields.get("date") or ""
    year_match = _YEAR.search(year_text) if year_text else None
    return BibEntry(
        key=key,
        entry_type=entry_type,
        fields=fields,
        path=path,
        start=start,
        end=end,
        key_start=key_start,
        key_end=key_end,
        title_plain=decode_latex(title) if title else "",
        authors=split_names(author) if author else (),
        editors=split_names(editor) if editor else (),
        year=int(year_match.group(1)) if year_match else None,
        doi=doi_from_fields(fields),
        arxiv_id=arxiv_from_fields(fields),
    )
