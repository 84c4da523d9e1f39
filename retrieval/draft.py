"""The draft as the selection sees it: its text, its citations resolved to papers, co-citations.

:func:`draft_context` reads a loaded :class:`LatexProject` and its bibliographies once;
:func:`resolve_entry` maps one BibTeX entry to a knowledge-base record by DOI, arXiv id or
normalised title plus first-author surname.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.latex.latex_project import iter_sections
from relatex.analysis.latex.project_model import LatexProject, Section
from relatex.retrieval.records import (
    PaperRecord,
    normalise_arxiv_id,
    normalise_doi,
    normalise_title,
    record_id,
    surname,
)

log = logging.getLogger(__name__)

_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True)
class DraftContext:
    """What the selection knows about the draft.

    ``cited`` maps every cited key that has a bibliography entry to a record: the knowledge
    base's record when the entry resolved (``in_kb``), else a record built from the entry.
    ``sentence_groups`` / ``paragraph_groups`` are the sets of keys cited together in one
    sentence / one paragraph (co-citation, weighted 1.0 / 0.5 in the graph).
    """

    title: str = ""
    abstract: str = ""
    sections: tuple[tuple[str, str], ...] = ()  # (title, plain text)
    cited: Mapping[str, PaperRecord] = field(default_factory=dict)
    in_kb: frozenset[str] = frozenset()
    missing_keys: tuple[str, ...] = ()  # cited but without a bibliography entry
    sentence_groups: tuple[tuple[str, ...], ...] = ()
    paragraph_groups: tuple[tuple[str, ...], ...] = ()
    entries: Mapping[str, BibEntry] = field(default_factory=dict)

    @property
    def co_citation_groups(self) -> tuple[tuple[str, ...], ...]:
        """Sentence-level then paragraph-level groups."""
        return self.sentence_groups + self.paragraph_groups

    def query_text(self) -> str:
        """Title and abstract; the first section's text when the draft has no abstract yet."""
        parts = [p for p in (self.title, self.abstract) if p.strip()]
        if not self.abstract.strip() and self.sections:
            parts.append(self.sections[0][1][:2000])
        return ". ".join(parts)

    @cached_property
    def _normalised_title(self) -> str:
        return normalise_title(self.title)

    def is_self(self, record: PaperRecord) -> bool:
        """Whether a knowledge-base record is the draft itself (its preprint, an earlier version):
        the same normalised title, of three words or more. Never related work to itself."""
        mine = self._normalised_title
        return len(mine.split()) >= 3 and normalise_title(record.title) == mine and \
            all(r.id != record.id for r in self.cited.values())

    def key_for(self, paper_id: str) -> str | None:
        """The draft's \\cite key of a paper, if the draft already cites it."""
        for key, record in self.cited.items():
            if record.id == paper_id:
                return key
        return None

    def cited_ids(self) -> dict[str, str]:
        """Record id -> key for every cited paper (first key wins)."""
        out: dict[str, str] = {}
        for key, record in self.cited.items():
            out.setdefault(record.id, key)
        return out


def record_from_entry(entry: BibEntry) -> PaperRecord:
    """A record built from a BibTeX entry alone (for cited papers missing from the KB)."""
    abstract = entry.get("abstract")
    return PaperRecord(
        id=record_id(entry.doi, entry.arxiv_id, "bib", entry.key),
        title=entry.title_plain or entry.get("title", "") or entry.key,
        authors=entry.authors,
        year=entry.year,
        venue=entry.get("journal") or entry.get("booktitle"),
        abstract=abstract,
        doi=normalise_doi(entry.doi),
        arxiv_id=normalise_arxiv_id(entry.arxiv_id),
        url=entry.get("url"),
        source="draft",
        bibtex_type=entry.entry_type,
        bibtex_key=entry.key,
        bibtex_fields=dict(entry.fields),
    )


def _same_first_author(entry_authors: Sequence[str], record: PaperRecord) -> bool:
    if not entry_authors or not record.authors:
        return True
    a = normalise_title(surname(entry_authors[0]))
    b = normalise_title(record.first_author_surname())
    return not a or not b or a == b


def resolve_entry(entry: BibEntry, kb: Any) -> PaperRecord | None:
    """The knowledge-base record of an entry: DOI, then arXiv id, then title + first author.

    A title match needs the same normalised title, the same first-author surname (when both
    have authors) and years at most one apart (when both have years).
    """
    doi = normalise_doi(entry.doi or entry.get("doi"))
    if doi:
        found = kb.find_by_doi(doi)
        if found is not None:
            return found  # type: ignore[no-any-return]
    arxiv = normalise_arxiv_id(entry.arxiv_id or entry.get("eprint"))
    if arxiv:
        found = kb.find_by_arxiv(arxiv)
        if found is not None:
            return found  # type: ignore[no-any-return]
    title = entry.title_plain or entry.get("title", "") or ""
    wanted = normalise_title(title)
    if not wanted:
        return None
    for record in kb.find_by_title(title, limit=5):
        if normalise_title(record.title) != wanted:
            continue
        if not _same_first_author(entry.authors, record):
            continue
        if entry.year and record.year and abs(entry.year - record.year) > 1:
            continue
        return record  # type: ignore[no-any-return]
    return None


def _section_plain(project: LatexProject, section: Section) -> str:
    try:
        from relatex.analysis.latex.latex_project import section_text

        return section_text(project, section)
    except Exception:  # the LaTeX model may not offer it: fall back to the raw range
        source = project.files.get(section.path)
        return source.text[section.title_end or section.start:section.end] if source else ""


def _paragraph_id(text: str, offset: int) -> int:
    return len(_BLANK_LINE.findall(text, 0, offset))


def _groups(project: LatexProject) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    sentences: dict[tuple[Path, int, int], dict[str, None]] = {}
    paragraphs: dict[tuple[Path, int], dict[str, None]] = {}
    for site in project.citations:
        if site.is_nocite:
            continue
        keys = [k.key for k in site.keys if k.key != "*"]
        if not keys:
            continue
        sent = sentences.setdefault((site.path, site.sentence_start, site.sentence_end), {})
        source = project.files.get(site.path)
        para_id = _paragraph_id(source.text, site.start) if source else site.start
        para = paragraphs.setdefault((site.path, para_id), {})
        for key in keys:
            sent[key] = None
            para[key] = None
    sentence_groups = tuple(tuple(g) for g in sentences.values() if len(g) > 1)
    seen = {frozenset(g) for g in sentence_groups}
    paragraph_groups = tuple(tuple(g) for g in paragraphs.values() if len(g) > 1 and frozenset(g) not in seen)
    return sentence_groups, paragraph_groups


def draft_context(project: LatexProject, bibs: Mapping[Path, BibFile], kb: Any) -> DraftContext:
    """Read the draft once: text, cited keys resolved through the .bib files, co-citations."""
    entries: dict[str, BibEntry] = {}
    for bib in bibs.values():
        for key, bib_entry in bib.by_key().items():
            entries.setdefault(key, bib_entry)
    cited: dict[str, PaperRecord] = {}
    in_kb: set[str] = set()
    missing: list[str] = []
    for key in project.cited_keys():
        found = entries.get(key)
        if found is None:
            missing.append(key)
            continue
        entry = found
        record = resolve_entry(entry, kb) if kb is not None else None
        if record is not None:
            in_kb.add(key)
            cited[key] = record
        else:
            cited[key] = record_from_entry(entry)
    sections = tuple((s.title, _section_plain(project, s)) for s in iter_sections(project.sections))
    sentence_groups, paragraph_groups = _groups(project)
    return DraftContext(
        title=project.title or "",
        abstract=project.abstract or "",
        sections=sections,
        cited=cited,
        in_kb=frozenset(in_kb),
        missing_keys=tuple(missing),
        sentence_groups=sentence_groups,
        paragraph_groups=paragraph_groups,
        entries={k: e for k, e in entries.items() if k in cited},
    )
