"""Only verified papers are cited: the draft's own entries checked against the authorities.

A paper the draft already cites through an entry that verification calls ``not_found`` (possibly
hallucinated) is taken out of the selection, so the generated section never describes it. A
paper whose entry has a ``mismatch`` is written about with the authority's data (title, authors,
year, venue, DOI of the best evidence record), since that is the work the key points to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibtex_model import BibFile
from relatex.analysis.verification.bib_verification import (
    Authority,
    AuthorityRecord,
    BibVerdict,
    verify_entry,
)
from relatex.retrieval.records import PaperRecord
from relatex.retrieval.selection import SelectedPaper, Selection

NOT_FOUND = "not_found"
MISMATCH = "mismatch"


def with_authority_data(record: PaperRecord, authority: AuthorityRecord) -> PaperRecord:
    """The record with the authority's title, authors, year, venue and DOI where it has them."""
    changes: dict[str, Any] = {"title": authority.title or record.title}
    if authority.authors:
        changes["authors"] = tuple(authority.authors)
    if authority.year:
        changes["year"] = authority.year
    if authority.venue:
        changes["venue"] = authority.venue
    if authority.doi:
        changes["doi"] = authority.doi
    return record.with_changes(**{k: v for k, v in changes.items() if hasattr(record, k)})


def verified_selection(selection: Selection, verdicts: Mapping[str, BibVerdict]) -> tuple[Selection, list[str]]:
    """The selection without papers cited through a not-found entry, and with mismatched entries'
    papers described by the authority's data; also a note per change for the user."""
    kept: list[SelectedPaper] = []
    notes: list[str] = []
    for paper in selection.papers:
        verdict = verdicts.get(paper.draft_key) if paper.draft_key else None
        if verdict is not None and verdict.status == NOT_FOUND:
            notes.append(f"'{paper.draft_key}' was not found by any authority (possibly hallucinated): not cited")
            continue
        if verdict is not None and verdict.status == MISMATCH and verdict.evidence:
            paper = replace(paper, record=with_authority_data(paper.record, verdict.evidence[0]))
            notes.append(f"'{paper.draft_key}' differs from {verdict.evidence[0].source}: described with its data")
        kept.append(paper)
    if len(kept) == len(selection.papers) and not notes:
        return selection, notes
    return replace(selection, papers=tuple(kept)), notes


def verify_cited_entries(selection: Selection, bibs: Mapping[Path, BibFile],
                         authorities: list[Authority]) -> dict[str, BibVerdict]:
    """Verdicts for the draft's entries of the selected papers it already cites."""
    keys = {p.draft_key for p in selection.papers if p.draft_key}
    entries = {k: e for bib in bibs.values() for k, e in bib.by_key().items() if k in keys}
    return {k: verify_entry(e, authorities) for k, e in entries.items()} if authorities else {}
