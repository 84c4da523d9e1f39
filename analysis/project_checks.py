"""Checks of a draft against its bibliographies: undefined and unused keys, duplicates,
malformed and incomplete entries.

Every finding carries in ``data`` what a quick fix needs (the key, the other keys, paths).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import threading
from bisect import bisect_right
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from relatex.analysis.bib_identity import same_work, work_identity
from relatex.analysis.bibtex import load_bib_file
from relatex.analysis.bibtex_model import BibEntry, BibFile
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.project_model import LatexProject

#: Required fields per entry type; a tuple inside means "one of these".
REQUIRED_FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "article": (("author",), ("title",), ("journal", "journaltitle"), ("year", "date")),
    "book": (("author", "editor"), ("title",), ("publisher",), ("year", "date")),
    "booklet": (("title",),),
    "inbook": (("author", "editor"), ("title",), ("chapter", "pages"), ("publisher",), ("year", "date")),
    "incollection": (("author",), ("title",), ("booktitle",), ("publisher",), ("year", "date")),
    "inproceedings": (("author",), ("title",), ("booktitle",), ("year", "date")),
    "conference": (("author",), ("title",), ("booktitle",), ("year", "date")),
    "manual": (("title",),),
    "mastersthesis": (("author",), ("title",), ("school", "institution"), ("year", "date")),
    "phdthesis": (("author",), ("title",), ("school", "institution"), ("year", "date")),
    "thesis": (("author",), ("title",), ("school", "institution"), ("year", "date")),
    "proceedings": (("title",), ("year", "date")),
    "techreport": (("author",), ("title",), ("institution", "school"), ("year", "date")),
    "report": (("author",), ("title",), ("institution", "school"), ("year", "date")),
    "unpublished": (("author",), ("title",), ("note",)),
    "online": (("author", "editor"), ("title",), ("year", "date"), ("url",)),
    "misc": (),
}


def missing_fields(entry: BibEntry) -> list[str]:
    """Required fields absent (or empty) in an entry; each as ``a`` or ``a/b`` for alternatives."""
    missing: list[str] = []
    for alternatives in REQUIRED_FIELDS.get(entry.entry_type, ()):
        if not any((entry.fields.get(name) or "").strip() for name in alternatives):
            missing.append("/".join(alternatives))
    return missing


def load_bibliographies(project: LatexProject, overlays: Mapping[Path, str] | None = None) -> dict[Path, BibFile]:
    """Parse every .bib file the project declares (overlay text wins over the disk).

    Files that cannot be read are left out (the project reports them as not found).
    """
    bibs: dict[Path, BibFile] = {}
    overlays = overlays or {}
    for resource in project.bib_resources:
        path = resource.path
        if path is None or path in bibs:
            continue
        try:
            bibs[path] = load_bib_file(path, overlays.get(path))
        except OSError:
            continue
    return bibs


def _entries(bibs: Mapping[Path, BibFile]) -> Iterable[BibEntry]:
    for bib in bibs.values():
        yield from bib.entries


_BIB_FINDINGS_MEMO: OrderedDict[tuple[tuple[str, str], ...], tuple[Finding, ...]] = OrderedDict()
_BIB_FINDINGS_MEMO_SIZE = 8
_BIB_FINDINGS_LOCK = threading.Lock()


def _bibs_key(bibs: Mapping[Path, BibFile]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(
        (str(path), bib.content_hash or hashlib.sha256(bib.text.encode("utf-8", "surrogatepass")).hexdigest())
        for path, bib in bibs.items()
    ))


def bib_file_findings(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    """Findings about the bibliographies alone: parse errors, duplicate keys, duplicate works.

    They depend on the .bib contents only but cost seconds on a 100k-entry file, so they are
    remembered per content hash: re-checking a draft after an edit of its .tex is cheap.
    """
    key = _bibs_key(bibs)
    with _BIB_FINDINGS_LOCK:
        cached = _BIB_FINDINGS_MEMO.get(key)
        if cached is not None:
            _BIB_FINDINGS_MEMO.move_to_end(key)
            return list(cached)
    findings = _compute_bib_file_findings(bibs)
    with _BIB_FINDINGS_LOCK:
        _BIB_FINDINGS_MEMO[key] = tuple(findings)
        while len(_BIB_FINDINGS_MEMO) > _BIB_FINDINGS_MEMO_SIZE:
            _BIB_FINDINGS_MEMO.popitem(last=False)
    return findings


def _compute_bib_file_findings(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    findings: list[Finding] = []
    for bib in bibs.values():
        findings.extend(bib.findings)
    findings.extend(duplicate_key_findings(bibs))
    findings.extend(duplicate_work_findings(bibs))
    return findings


def duplicate_key_findings(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    """A warning on every occurrence of a key defined more than once (across all files)."""
    by_key: dict[str, list[BibEntry]] = defaultdict(list)
    for entry in _entries(bibs):
        by_key[entry.key].append(entry)
    findings: list[Finding] = []
    for key, entries in by_key.items():
        if len(entries) < 2:
            continue
        for entry in entries:
            others = [e for e in entries if e is not entry]
            where = ", ".join(_where(e, entry, bibs) for e in others)
            findings.append(Finding(
                Code.DUPLICATE_KEY, Severity.WARNING,
                f"Duplicate key '{key}' (also defined {where})",
                entry.path, entry.key_start, entry.key_end,
                {"key": key, "entry_start": entry.start, "entry_end": entry.end,
                 "others": [{"path": str(e.path), "start": e.start, "end": e.end} for e in others]},
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


def _malformed_entries(bibs: Mapping[Path, BibFile]) -> set[tuple[Path, int]]:
    """(path, start) of entries read leniently after a parse error (reported once already)."""
    return {(f.path, int(f.data["entry_start"])) for bib in bibs.values() for f in bib.findings
            if "entry_start" in f.data}


def missing_field_findings(entries: Iterable[BibEntry],
                           skip: set[tuple[Path, int]] | None = None) -> list[Finding]:
    """A warning per entry lacking required fields of its type (``skip``: (path, start) pairs)."""
    findings: list[Finding] = []
    for entry in entries:
        if skip and (entry.path, entry.start) in skip:
            continue
        missing = missing_fields(entry)
        if missing:
            findings.append(Finding(
                Code.MISSING_FIELD, Severity.WARNING,
                f"@{entry.entry_type} '{entry.key}' is missing required "
                f"field{'s' if len(missing) > 1 else ''}: {', '.join(missing)}",
                entry.path, entry.key_start, entry.key_end,
                {"key": entry.key, "entry_type": entry.entry_type, "missing": missing},
            ))
    return findings


def check_bib_files(bibs: Mapping[Path, BibFile]) -> list[Finding]:
    """All findings for bibliographies checked on their own (every entry counts as used)."""
    findings = bib_file_findings(bibs)
    findings.extend(missing_field_findings(_entries(bibs), _malformed_entries(bibs)))
    return sorted(findings, key=Finding.sort_key)


def check_project(project: LatexProject, bibs: Mapping[Path, BibFile], max_unused: int = 200) -> list[Finding]:
    """Every citation/bibliography finding of a project, plus the project's own findings.

    Missing required fields are reported for cited entries (all entries with ``\\nocite{*}``),
    as BibTeX does; unused entries are capped at ``max_unused`` plus one summary finding.
    """
    findings: list[Finding] = list(project.findings)
    findings.extend(_missing_bib_file_findings(project, bibs, findings))
    findings.extend(bib_file_findings(bibs))

    defined: dict[str, BibEntry] = {}
    for entry in _entries(bibs):
        defined.setdefault(entry.key, entry)
    item_keys = {item.key for item in project.bib_items}
    cited: set[str] = set()
    cite_all = False
    for site in project.citations:
        for ckey in site.keys:
            if ckey.key == "*":
                cite_all = cite_all or site.is_nocite
                continue
            cited.add(ckey.key)

    # undefined citation keys
    all_keys = list(defined) + sorted(item_keys)
    bib_names = [str(p.name) for p in bibs]
    for site in project.citations:
        for ckey in site.keys:
            if ckey.key == "*" or ckey.key in defined or ckey.key in item_keys:
                continue
            suggestions = difflib.get_close_matches(ckey.key, all_keys, n=3, cutoff=0.75) if len(all_keys) < 20000 else []
            if bibs or item_keys:
                where = ", ".join(bib_names) if bibs else "the thebibliography environment"
                message = f"Citation key '{ckey.key}' is not defined in {where}"
            else:
                message = f"Citation key '{ckey.key}' is not defined (no bibliography found)"
            if suggestions:
                message += f"; did you mean '{suggestions[0]}'?"
            findings.append(Finding(
                Code.UNDEFINED_CITATION, Severity.ERROR, message, ckey.path, ckey.start, ckey.end,
                {"key": ckey.key, "suggestions": suggestions, "bib_paths": [str(p) for p in bibs],
                 "command": site.command},
            ))

    # unused entries
    if not cite_all:
        unused = [e for e in _entries(bibs) if e.key not in cited]
        seen_unused: set[tuple[int, str]] = set()  # (id of the entry's BibFile, key): cheap to hash
        file_of = {id(entry): id(bib) for bib in bibs.values() for entry in bib.entries}
        shown = 0
        for entry in unused:
            marker = (file_of[id(entry)], entry.key)
            if marker in seen_unused:
                continue
            seen_unused.add(marker)
            if shown >= max_unused:
                continue
            shown += 1
            findings.append(Finding(
                Code.UNUSED_ENTRY, Severity.INFORMATION,
                f"Entry '{entry.key}' is never cited",
                entry.path, entry.key_start, entry.key_end,
                {"key": entry.key, "entry_start": entry.start, "entry_end": entry.end},
            ))
        hidden = len(seen_unused) - shown
        if hidden > 0:
            first_path = next(iter(bibs))
            findings.append(Finding(
                Code.UNUSED_ENTRY, Severity.INFORMATION,
                f"{hidden} more entries are never cited (only the first {max_unused} are listed)",
                first_path, 0, 0, {"summary": True, "hidden": hidden, "shown": shown},
            ))

    # missing required fields of the entries that appear in the bibliography
    used = [e for e in _entries(bibs) if cite_all or e.key in cited]
    findings.extend(missing_field_findings(used, _malformed_entries(bibs)))
    return sorted(_dedupe(findings), key=Finding.sort_key)


def _missing_bib_file_findings(project: LatexProject, bibs: Mapping[Path, BibFile],
                               existing: list[Finding]) -> list[Finding]:
    """Report declared .bib files that could not be read, unless the project already did."""
    reported = {(f.path, f.start) for f in existing if f.code is Code.BIB_FILE_NOT_FOUND}
    findings = []
    for resource in project.bib_resources:
        if resource.path is None or resource.path in bibs:
            continue
        if (resource.declared_in, resource.start) in reported:
            continue
        findings.append(Finding(
            Code.BIB_FILE_NOT_FOUND, Severity.ERROR,
            f"Bibliography file '{resource.path.name}' not found",
            resource.declared_in, resource.start, resource.end, {"path": str(resource.path)},
        ))
    return findings


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, int, int, str, str]] = set()
    result = []
    for finding in findings:
        ident = (str(finding.path), finding.start, finding.end, finding.code.value, finding.message)
        if ident not in seen:
            seen.add(ident)
            result.append(finding)
    return result
