"""Duplicate keys (one warning per key) and duplicate works in bibliographies.

Two entries are the same work when they share a DOI or an arXiv id, or the same normalised
title and first-author surname without conflicting DOIs.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from relatex.analysis.bib.bib_identity import same_work, work_identity
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.findings import Code, Finding, Severity


def _entries(bibs: Mapping[Path, BibFile]) -> Iterable[BibEntry]:
    for bib in bibs.values():
        yield from bib.entries


def duplicate_key_findings(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    """One warning per key defined more than once (across all files), on its first repeat
    (the definition BibTeX and biber skip), naming every other place it is defined."""
    by_key: dict[str, list[BibEntry]] = defaultdict(list)
    for entry in _entries(bibs):
        by_key[entry.key].append(entry)
    findings: list[Finding] = []
    for key, entries in by_key.items():
        if len(entries) < 2:
            continue
        entry = entries[1]
        others = [e for e in entries if e is not entry]
        where = ", ".join(_where(e, entry, bibs) for e in others)
        findings.append(Finding(
            Code.DUPLICATE_KEY, Severity.WARNING,
            f"Duplicate key '{key}' (also defined {where}; the first definition is used)",
            entry.path, entry.key_start, entry.key_end,
            {"key": key, "entry_start": entry.start, "entry_end": entry.end,
             "others": [{"path": str(e.path), "start": e.key_start, "end": e.key_end,
                         "entry_start": e.start, "entry_end": e.end} for e in others]},
        ))
    return findings


def duplicate_work_findings(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    """A warning on every entry describing the same work as an entry with another key
    (same DOI, same arXiv id, or same normalised title and first-author surname)."""
    entries = list(_entries(bibs))
    groups: dict[str, list[int]] = defaultdict(list)
    for index, entry in enumerate(entries):
        for identity_key in work_identity(entry).keys():
            groups[identity_key].append(index)
    # union of groups sharing any identity key
    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for identity_key, members in groups.items():
        if len({entries[i].key for i in members}) < 2:
            continue
        if identity_key.startswith("title:"):
            # same title and first author, but two different DOIs are two publications
            pairs = [(i, j) for n, i in enumerate(members[:50]) for j in members[n + 1:50]
                     if same_work(entries[i], entries[j])]
        else:
            pairs = [(members[0], other) for other in members[1:]]
        for i, j in pairs:
            a, b = find(i), find(j)
            if a != b:
                parent[b] = a
    clusters: dict[int, list[int]] = defaultdict(list)
    for i in range(len(entries)):
        clusters[find(i)].append(i)
    findings: list[Finding] = []
    for members in clusters.values():
        keys = {entries[i].key for i in members}
        if len(keys) < 2:
            continue
        for i in members:
            entry = entries[i]
            others = [entries[j] for j in members if entries[j].key != entry.key]
            if not others:
                continue
            basis = _basis(entry, others[0])
            other_keys = sorted({o.key for o in others})
            findings.append(Finding(
                Code.DUPLICATE_WORK, Severity.WARNING,
                f"'{entry.key}' is the same work as '{', '.join(other_keys)}' (same {basis})",
                entry.path, entry.key_start, entry.key_end,
                {"key": entry.key, "other_keys": other_keys, "basis": basis,
                 "others": [{"key": o.key, "path": str(o.path), "start": o.start, "end": o.end}
                            for o in others]},
            ))
    return findings


def _basis(a: BibEntry, b: BibEntry) -> str:
    ia, ib = work_identity(a), work_identity(b)
    if ia.doi and ia.doi == ib.doi:
        return "DOI"
    if ia.arxiv_id and ia.arxiv_id == ib.arxiv_id:
        return "arXiv id"
    return "title and first author"


def _where(other: BibEntry, entry: BibEntry, bibs: Mapping[Path, BibFile]) -> str:
    line = _line_of(bibs, other.path, other.start)
    if other.path == entry.path:
        return f"on line {line}"
    return f"in {other.path.name}:{line}"


_line_starts: dict[tuple[Path, str], list[int]] = {}


def _line_of(bibs: Mapping[Path, BibFile], path: Path, offset: int) -> int:
    """1-based line of an offset in a parsed .bib file (newline index built once per text)."""
    bib = bibs.get(path)
    if bib is None:
        return 0
    cache_key = (path, bib.content_hash)
    starts = _line_starts.get(cache_key)
    if starts is None:
        if len(_line_starts) > 8:
            _line_starts.clear()
        starts = [0] + [m.end() for m in re.finditer("\n", bib.text)]
        _line_starts[cache_key] = starts
    return bisect_right(starts, offset)
