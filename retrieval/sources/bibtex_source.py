"""BibTeX files (.bib, .bib.gz) and directories of them, streamed entry by entry.

Parsing is done by :func:`relatex.analysis.bib.bibtex.iter_bib_entries`; this module maps entries to
records. ACL Anthology entries (``url = https://aclanthology.org/<id>``) get the alias
``acl:<id>`` and, when they have no DOI, the record id ``acl:<id>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from pathlib import Path

from relatex.analysis.bib.bibtex_model import BibEntry
from relatex.retrieval.records import PaperRecord, normalise_arxiv_id, normalise_doi, record_id
from relatex.retrieval.sources.base import RecordSource, SourceItem, clean_text, count_lines, parse_year

_ACL_URL = re.compile(r"^https?://(?:www\.)?aclanthology\.org/([A-Za-z0-9][A-Za-z0-9.\-]*[A-Za-z0-9])/?$")
_ACL_OLD_URL = re.compile(r"^https?://(?:www\.)?aclweb\.org/anthology/([A-Za-z0-9][A-Za-z0-9.\-]*[A-Za-z0-9])(?:\.pdf)?/?$")


def acl_id_from_url(url: str | None) -> str | None:
    """The ACL Anthology id of an Anthology URL (``P02-1040``, ``2020.acl-main.1``)."""
    if not url:
        return None
    url = url.strip()
    match = _ACL_URL.match(url) or _ACL_OLD_URL.match(url)
    if not match:
        return None
    return match.group(1).removesuffix(".pdf")


def _decoder() -> Callable[[str], str]:
    try:
        from relatex.analysis.bib.bibtex import decode_latex
    except ImportError:  # the decoder arrives with the BibTeX parser
        return lambda value: value.replace("{", "").replace("}", "")
    return decode_latex


def _strip_braces(value: str) -> str:
    return value.replace("{", "").replace("}", "")


def bib_entry_record(
    entry: BibEntry, source: str, decode: Callable[[str], str] | None = None
) -> tuple[PaperRecord, tuple[str, ...]] | str:
    """A record and its aliases from one BibTeX entry, or the reason it is skipped."""
    decode = decode or _decoder()
    raw_title = entry.title_plain or entry.get("title") or ""
    title = clean_text(decode(raw_title) if not entry.title_plain else raw_title)
    if title:
        title = clean_text(_strip_braces(title))
    if not title:
        return "missing title"
    doi = normalise_doi(entry.doi or entry.get("doi"))
    arxiv_id = entry.arxiv_id or normalise_arxiv_id(entry.get("eprint") if (entry.get("archiveprefix") or "").lower() == "arxiv" else None)
    url = clean_text(entry.get("url"))
    acl = acl_id_from_url(url)
    if not arxiv_id and url and "arxiv.org" in url:
        arxiv_id = normalise_arxiv_id(url)
    authors = tuple(clean_text(_strip_braces(decode(a))) or a for a in entry.authors)
    venue_raw = entry.get("journal") or entry.get("booktitle") or entry.get("series") or entry.get("publisher")
    abstract_raw = entry.get("abstract")
    local_source, local_key = ("acl", acl) if acl else (source, entry.key)
    record = PaperRecord(
        id=record_id(doi, arxiv_id, local_source, local_key),
        title=title,
        authors=authors,
        year=entry.year or parse_year(entry.get("year")),
        venue=clean_text(_strip_braces(decode(venue_raw))) if venue_raw else None,
        abstract=clean_text(_strip_braces(decode(abstract_raw))) if abstract_raw else None,
        doi=doi,
        arxiv_id=arxiv_id,
        url=url,
        source=source,
        bibtex_type=entry.entry_type,
        bibtex_key=entry.key,
        bibtex_fields=dict(entry.fields),
    )
    aliases = [f"bibkey:{source}:{entry.key}"]
    if acl:
        aliases.append(f"acl:{acl}")
    return record, tuple(aliases)


def bib_files(path: Path) -> list[Path]:
    """The .bib / .bib.gz files of a file or directory (recursively, in path order)."""
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and (p.name.endswith(".bib") or p.name.endswith(".bib.gz")))


class BibSource(RecordSource):
    """Entries of a .bib / .bib.gz file or of every such file under a directory.

    ``entry_types`` keeps only those types (lower case) when given.
    """

    kind = "bibtex"

    def __init__(self, path: Path, name: str | None = None, entry_types: Collection[str] | None = None) -> None:
        super().__init__(path, name)
        self.entry_types = {t.lower() for t in entry_types} if entry_types else None

    def items(self) -> Iterator[SourceItem]:
        from relatex.analysis.bib.bibtex import iter_bib_blocks

        decode = _decoder()
        for file in bib_files(self.path):
            for entry in iter_bib_blocks(file):
                if not isinstance(entry, BibEntry):
                    code = getattr(entry.code, "value", entry.code)
                    self.skip(f"BibTeX parse error ({code})")
                    continue
                self.read += 1
                if self.entry_types is not None and entry.entry_type not in self.entry_types:
                    self.skip(f"entry type @{entry.entry_type} not selected")
                    continue
                try:
                    result = bib_entry_record(entry, self.name, decode)
                except Exception as exc:  # one odd entry must not stop a long run
                    self.skip(f"unreadable entry ({type(exc).__name__})")
                    continue
                if isinstance(result, str):
                    self.skip(result)
                    continue
                record, aliases = result
                yield SourceItem(entry.key, record, aliases)

    def estimate_total(self) -> int | None:
        total = 0
        for file in bib_files(self.path):
            count = count_lines(file, prefix=b"@")
            if count is None:
                return None
            total += count
        return total
