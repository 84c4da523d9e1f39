"""The data model of a BibTeX file: entries with exact source ranges and normalised fields.

Built by :func:`relatex.analysis.bib.bibtex.parse_bib_text` / ``load_bib_file``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from relatex.analysis.findings import Finding


@dataclass(frozen=True)
class BibEntry:
    """One ``@type{key, ...}`` block.

    ``fields`` holds raw values as written (braces/quotes stripped, LaTeX kept, @string
    macros expanded), lower-case field names. ``title_plain`` is the title with LaTeX decoded
    for comparison; ``authors`` the author list split on ``and``, each "Last, First".
    ``[start, end)`` covers the entry from ``@`` to its closing delimiter in the file text.
    """

    key: str
    entry_type: str  # lower case: article, inproceedings, misc, ...
    fields: Mapping[str, str]
    path: Path
    start: int
    end: int
    key_start: int = 0
    key_end: int = 0
    title_plain: str = ""
    authors: tuple[str, ...] = ()
    editors: tuple[str, ...] = ()
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.fields.get(name.lower(), default)


@dataclass(frozen=True)
class BibFile:
    """A parsed .bib file: its entries (in file order), @string macros and parse findings."""

    path: Path
    text: str
    entries: tuple[BibEntry, ...] = ()
    strings: Mapping[str, str] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    content_hash: str = ""

    def by_key(self) -> dict[str, BibEntry]:
        """First entry of each key (duplicates are reported as findings)."""
        result: dict[str, BibEntry] = {}
        for entry in self.entries:
            result.setdefault(entry.key, entry)
        return result
