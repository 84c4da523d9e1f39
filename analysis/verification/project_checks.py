"""Checks of a draft against its bibliographies: undefined and unused keys, duplicates,
malformed and incomplete entries.

Every finding carries in ``data`` what a quick fix needs (the key, the other keys, paths).
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping, Sequence, Set
from pathlib import Path

from relatex.analysis.bib.bibliography_index import BibliographyIndex, bibliography_index
from relatex.analysis.bib.bibtex import load_bib_file
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.dangerous_latex import dangerous_latex_findings
from relatex.analysis.latex.project_model import CitationKey, LatexProject

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


def load_bibliographies(project: LatexProject, overlays: Mapping[Path, str] | None = None,
                        cache_dir: Path | None = None) -> dict[Path, BibFile]:
    """Parse every .bib file the project declares (overlay text wins over the disk).

    Files that cannot be read are left out (the project reports them as not found);
    ``cache_dir`` keeps parsed files on disk across processes.
    """
    bibs: dict[Path, BibFile] = {}
    overlays = overlays or {}
    for resource in project.bib_resources:
        path = resource.path
        if path is None or path in bibs:
            continue
        try:
            bibs[path] = load_bib_file(path, overlays.get(path), cache_dir)
        except OSError:
            continue
    return bibs


def _entries(bibs: Mapping[Path, BibFile]) -> Iterable[BibEntry]:
    for bib in bibs.values():
        yield from bib.entries


def bib_file_findings(bibs: Mapping[Path, BibFile], cache_dir: Path | None = None) -> list[Finding]:
    """Findings about the bibliographies alone: parse errors, duplicate keys, duplicate works.

    They depend on the .bib contents only but cost seconds on a 100k-entry file, so they are
    remembered per content (see :mod:`relatex.analysis.bib.bibliography_index`).
    """
    return list(bibliography_index(bibs, cache_dir).file_findings)


def missing_field_findings(entries: Iterable[BibEntry],
                           skip: Set[tuple[Path, int]] | None = None) -> list[Finding]:
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


def check_bib_files(bibs: Mapping[Path, BibFile], cache_dir: Path | None = None) -> list[Finding]:
    """All findings for bibliographies checked on their own (every entry counts as used)."""
    index = bibliography_index(bibs, cache_dir)
    findings = list(index.file_findings)
    findings.extend(dangerous_latex_findings((p, b.text) for p, b in bibs.items()))
    findings.extend(missing_field_findings(_entries(bibs), index.malformed))
    return sorted(findings, key=Finding.sort_key)


def check_project(project: LatexProject, bibs: Mapping[Path, BibFile], max_unused: int = 200,
                  cache_dir: Path | None = None) -> list[Finding]:
    """Every citation/bibliography finding of a project, plus the project's own findings.

    Missing required fields are reported for cited entries (all entries with ``\\nocite{*}``),
    as BibTeX does; unused entries are capped at ``max_unused`` plus one summary finding.
    The work per call is proportional to the citations, not to the size of the .bib files,
    whose index is built once per content (``cache_dir`` keeps its costly part on disk).
    """
    index = bibliography_index(bibs, cache_dir)
    findings: list[Finding] = list(project.findings)
    findings.extend(_missing_bib_file_findings(project, bibs, findings))
    findings.extend(index.file_findings)
    findings.extend(dangerous_latex_findings(
        [(path, source.text) for path, source in project.files.items()] + [(p, b.text) for p, b in bibs.items()]))

    defined = index.defined
    item_keys = {item.key for item in project.bib_items}
    cited: set[str] = set()
    cite_all = False
    for site in project.citations:
        for ckey in site.keys:
            if ckey.key == "*":
                cite_all = cite_all or site.is_nocite
                continue
            cited.add(ckey.key)
    findings.extend(_undefined_findings(project, list(bibs), defined, item_keys, index.folded_keys))
    if not cite_all:
        findings.extend(_unused_findings(index, cited, bibs, max_unused))

    # missing required fields of the entries that appear in the bibliography
    if cite_all:
        used: Iterable[BibEntry] = _entries(bibs)
    else:
        used = [entry for key in cited for entry in index.by_key.get(key, ())]
    findings.extend(missing_field_findings(used, index.malformed))
    return sorted(_dedupe(findings), key=Finding.sort_key)


def check_citations_against_keys(project: LatexProject, bib_paths: Sequence[Path],
                                 defined: Collection[str]) -> list[Finding]:
    """The findings of the draft's own files when only the keys of its .bib files are known:
    the project's findings, .bib files not found, undefined citation keys.

    These are the draft's diagnostics that a full check (:func:`check_project`) also gives, so
    an editor can show them before a large bibliography has finished loading.
    """
    findings: list[Finding] = list(project.findings)
    findings.extend(_missing_bib_file_findings(project, bib_paths, findings))
    findings.extend(_undefined_findings(project, bib_paths, defined, {item.key for item in project.bib_items}))
    return sorted(_dedupe(findings), key=Finding.sort_key)


def _undefined_findings(project: LatexProject, bibs: Sequence[Path], defined: Collection[str],
                        item_keys: set[str], folded_defined: Mapping[str, str] | None = None) -> list[Finding]:
    """An error on every citation of a key that no .bib file or ``\\bibitem`` defines
    (``folded_defined``: case-folded key -> defined key, when already at hand)."""
    findings: list[Finding] = []
    all_keys: tuple[str, ...] | None = None
    signature = 0
    folded: dict[str, str] | None = None
    bib_names = [str(p.name) for p in bibs]
    for site in project.citations:
        for ckey in site.keys:
            if ckey.key == "*" or ckey.key in defined or ckey.key in item_keys:
                continue
            if folded is None:
                folded = dict(folded_defined) if folded_defined is not None else {
                    key.casefold(): key for key in defined}
                folded.update((key.casefold(), key) for key in sorted(item_keys))
            same = folded.get(ckey.key.casefold())
            if same is not None:
                findings.append(_case_finding(project, site.command, ckey, same))
                continue
            suggestions: list[str] = []
            if len(defined) + len(item_keys) < 20000:
                if all_keys is None:
                    all_keys = (*defined, *sorted(item_keys))
                    signature = hash(all_keys)
                suggestions = _close_keys(ckey.key, all_keys, signature)
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
    return findings


#: (hash of the defined keys, cited key) -> its close matches; an undefined key is compared with
#: every defined one (about a millisecond per thousand), and each pass would repeat it for every
#: undefined key of the draft, on every keystroke.
_close_matches: dict[tuple[int, str], list[str]] = {}


def _close_keys(key: str, keys: tuple[str, ...], signature: int) -> list[str]:
    """Up to three of ``keys`` close to ``key`` (difflib), remembered per ``signature`` (``hash(keys)``)."""
    cache_key = (signature, key)
    found = _close_matches.get(cache_key)
    if found is None:
        found = difflib.get_close_matches(key, keys, n=3, cutoff=0.75)
        if len(_close_matches) > 10_000:
            _close_matches.clear()
        _close_matches[cache_key] = found
    return list(found)


def _case_finding(project: LatexProject, command: str, ckey: CitationKey, defined: str) -> Finding:
    """A key written with other capitals than its entry: BibTeX finds the entry (and warns),
    biber does not."""
    biber = project.citation_package == "biblatex"
    message = (f"Citation key '{ckey.key}' differs only in case from the entry '{defined}': "
               + ("biber does not find it" if biber else "BibTeX finds it but warns; biber would not"))
    return Finding(Code.UNDEFINED_CITATION, Severity.ERROR if biber else Severity.WARNING, message,
                   ckey.path, ckey.start, ckey.end,
                   {"key": ckey.key, "suggestions": [defined], "case_only": True, "command": command})


def _unused_findings(index: BibliographyIndex, cited: set[str], bibs: Mapping[Path, BibFile],
                     max_unused: int) -> list[Finding]:
    """A hint per entry never cited (one per file and key), the first ``max_unused`` of them,
    then one summary finding with the count of the others."""
    findings: list[Finding] = []
    for entry in index.unique:
        if len(findings) >= max_unused:
            break
        if entry.key in cited:
            continue
        findings.append(Finding(
            Code.UNUSED_ENTRY, Severity.INFORMATION,
            f"Entry '{entry.key}' is never cited",
            entry.path, entry.key_start, entry.key_end,
            {"key": entry.key, "entry_start": entry.start, "entry_end": entry.end},
        ))
    shown = len(findings)
    unused = len(index.unique) - sum(index.unique_count.get(key, 0) for key in cited)
    hidden = unused - shown
    if hidden > 0:
        findings.append(Finding(
            Code.UNUSED_ENTRY, Severity.INFORMATION,
            f"{hidden} more entries are never cited (only the first {max_unused} are listed)",
            next(iter(bibs)), 0, 0, {"summary": True, "hidden": hidden, "shown": shown},
        ))
    return findings


def _missing_bib_file_findings(project: LatexProject, bibs: Collection[Path],
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
