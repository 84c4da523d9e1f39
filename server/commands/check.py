"""`relatex check FILE`: findings of a draft (or of one .bib file), as text or JSON.

A front end only: the work is :func:`relatex.workflows.check_project.check_file`, then
``verify_bibliography`` (``--bib``) and ``check_claims`` (``--claims``) through ``check_bib`` and
``check_claims``; this module parses arguments and prints.

Text lines are ``file:line:col: severity: message [code]`` (1-based); exit code 1 when there
are errors, 0 otherwise, 2 when the check cannot run. ``--bib`` verifies entries against
authorities, ``--fix`` applies corrections, ``--claims`` reports claim support; ``--model``
prints the draft model instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import textwrap
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from relatex.analysis.bib.bibtex_model import BibFile
from relatex.analysis.findings import Finding, Severity, finding_text, json_safe
from relatex.analysis.latex.project_model import BibResource, LatexProject, Section
from relatex.server.commands import check_bib, check_claims
from relatex.workflows.check_project import CheckError, CheckRequest, ProjectCheck, check_file, is_bib_file
from relatex.workflows.engines import Engines

_SEVERITY_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFORMATION: 2, Severity.HINT: 3}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="the draft's .tex file (its root is found automatically) or a .bib file")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--bib", action="store_true", help="verify the bibliography against authorities")
    parser.add_argument("--fix", action="store_true", help="apply bibliography corrections (implies --bib)")
    parser.add_argument("--claims", action="store_true", help="check that cited papers support their sentences")
    parser.add_argument("--model", action="store_true", help="print the draft model (title, sections, citations)")
    parser.add_argument("--max-unused", type=int, default=None, metavar="N",
                        help="list at most N unused entries (default: the maxUnusedHints setting)")


# -- positions ----------------------------------------------------------------------------------


class _Lines:
    """Offsets to 1-based (line, column) for one text, built lazily and fast for large files."""

    _BREAK = re.compile(r"\r\n|\r|\n")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in self._BREAK.finditer(text)]

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1


def _display_path(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith(".." + os.sep + "..") else rel


def finding_rows(findings: Sequence[Finding], texts: Mapping[Path, str]) -> list[dict[str, Any]]:
    """Findings as sorted JSON-ready rows with 1-based positions and display paths."""
    indexes: dict[Path, _Lines | None] = {}
    rows: list[dict[str, Any]] = []
    for finding in findings:
        if finding.path not in indexes:
            text = finding_text(finding, texts)
            indexes[finding.path] = _Lines(text) if text is not None else None
        lines = indexes[finding.path]
        start = lines.position(finding.start) if lines else (1, 1)
        end = lines.position(finding.end) if lines else (1, 1)
        rows.append({
            "path": _display_path(finding.path),
            "line": start[0], "column": start[1], "end_line": end[0], "end_column": end[1],
            "severity": finding.severity.value, "code": finding.code.value,
            "message": finding.message, "data": json_safe(dict(finding.data)),
            "_rank": _SEVERITY_RANK.get(finding.severity, 9),
        })
    rows.sort(key=lambda r: (r["path"], r["line"], r["column"], r["_rank"], r["code"], r["message"]))
    for row in rows:
        del row["_rank"]
    return rows


def _item_text(item: Any, width: int = 160) -> str:
    if isinstance(item, Mapping):
        text = "; ".join(f"{k}={v}" for k, v in item.items() if not isinstance(v, Mapping | list))
    else:
        text = str(item)
    return text if len(text) <= width else text[:width - 1] + "…"


def _metric_line(name: str, value: Any) -> str:
    if isinstance(value, float):
        return f"{name}: {value:.3f}"
    if isinstance(value, Mapping):
        return f"{name}: " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                       for k, v in value.items())
    if isinstance(value, list | tuple):
        return f"{name}:" + "".join(f"\n  {_item_text(item)}" for item in value)
    return f"{name}: {value}"


def format_row(row: Mapping[str, Any]) -> str:
    return f"{row['path']}:{row['line']}:{row['column']}: {row['severity']}: {row['message']} [{row['code']}]"


# -- the draft model ------------------------------------------------------------------------------


def _section_lines(sections: Sequence[Section], lines: dict[Path, _Lines], project: LatexProject,
                   depth: int = 0) -> list[str]:
    out: list[str] = []
    for section in sections:
        where = ""
        if section.path in project.files:
            index = lines.setdefault(section.path, _Lines(project.files[section.path].text))
            line, _ = index.position(section.start)
            where = f"  ({_display_path(section.path)}:{line})"
        out.append(f"{'  ' * (depth + 1)}- {section.title or '(untitled)'} [{section.command}]{where}")
        out.extend(_section_lines(section.children, lines, project, depth + 1))
    return out


def _section_json(section: Section, lines: dict[Path, _Lines], project: LatexProject) -> dict[str, Any]:
    line = None
    if section.path in project.files:
        index = lines.setdefault(section.path, _Lines(project.files[section.path].text))
        line = index.position(section.start)[0]
    return {"title": section.title, "command": section.command, "level": section.level,
            "path": _display_path(section.path), "line": line, "label": section.label,
            "children": [_section_json(child, lines, project) for child in section.children]}


def _abstract_where(project: LatexProject, lines: dict[Path, _Lines]) -> dict[str, Any] | None:
    """The file and lines that hold the abstract's words."""
    if project.abstract_range is None or project.abstract_range[0] not in project.files:
        return None
    path, start, end = project.abstract_range
    index = lines.setdefault(path, _Lines(project.files[path].text))
    return {"path": _display_path(path), "line": index.position(start)[0], "end_line": index.position(end)[0]}


def model_json(project: LatexProject, bibs: Mapping[Path, BibFile]) -> dict[str, Any]:
    """The draft model as JSON-ready data."""
    lines: dict[Path, _Lines] = {}
    return {
        "root": _display_path(project.root),
        "title": project.title,
        "authors": list(project.authors),
        "abstract": project.abstract,
        "abstract_at": _abstract_where(project, lines),
        "files": [_display_path(p) for p in project.file_order],
        "sections": [_section_json(s, lines, project) for s in project.sections],
        "citation_package": project.citation_package,
        "citations": len(project.citations),
        "cited_keys": list(project.cited_keys(nocite=False)),
        "nocite_keys": list(project.nocite_keys()),
        "claims": len(project.claims),
        "bibliography": [
            {"kind": r.kind, "path": _display_path(r.path) if r.path else None,
             "entries": len(bibs[r.path].entries) if r.path is not None and r.path in bibs else None}
            for r in project.bib_resources
        ],
        "bib_items": len(project.bib_items),
    }


def _resource_line(resource: BibResource, bibs: Mapping[Path, BibFile]) -> str:
    if resource.path is None:
        return f"  - thebibliography ({resource.kind})"
    bib = bibs.get(resource.path)
    status = f"{len(bib.entries)} entries" if bib is not None else "not found"
    return f"  - {_display_path(resource.path)} (\\{resource.kind}, {status})"


def format_model(project: LatexProject, bibs: Mapping[Path, BibFile]) -> str:
    """A readable summary of the draft model."""
    lines: dict[Path, _Lines] = {}
    keys = project.cited_keys(nocite=False)
    listed = project.nocite_keys()
    out = [
        f"Draft: {_display_path(project.root)}",
        f"Title: {project.title or '(none)'}",
        f"Authors: {'; '.join(project.authors) if project.authors else '(none)'}",
    ]
    if project.abstract:
        wrapped = textwrap.fill(" ".join(project.abstract.split()), width=100,
                                initial_indent="  ", subsequent_indent="  ")
        where = _abstract_where(project, lines)
        out += [f"Abstract ({where['path']}:{where['line']}):" if where else "Abstract:", wrapped]
    else:
        out.append("Abstract: (none)")
    out.append(f"Files ({len(project.file_order)}): " + ", ".join(_display_path(p) for p in project.file_order))
    out.append("Sections:")
    out.extend(_section_lines(project.sections, lines, project) or ["  (none)"])
    out.append(f"Citations: {len(project.citations)} commands, {len(keys)} distinct keys "
               f"(package: {project.citation_package})")
    if keys:
        out.append(textwrap.fill(", ".join(keys), width=100, initial_indent="  ", subsequent_indent="  "))
    if listed:
        out.append(f"Listed only by \\nocite: {len(listed)} keys")
        out.append(textwrap.fill(", ".join(listed), width=100, initial_indent="  ", subsequent_indent="  "))
    out.append(f"Claims: {len(project.claims)} cited sentences")
    out.append("Bibliography:")
    out.extend([_resource_line(r, bibs) for r in project.bib_resources] or ["  (none)"])
    if project.bib_items:
        out.append(f"  - {len(project.bib_items)} \\bibitem entries")
    return "\n".join(out)


# -- running ----------------------------------------------------------------------------------


def _print_model(check: ProjectCheck, output: str) -> None:
    if output == "json":
        print(json.dumps(model_json(check.project, check.bibs), indent=2, ensure_ascii=False))
    else:
        print(format_model(check.project, check.bibs))


def _print_rows(rows: list[dict[str, Any]], metrics: dict[str, Any] | None, output: str) -> None:
    if output == "json":
        payload: Any = rows if metrics is None else {"findings": rows, "claims": json_safe(metrics)}
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    for row in rows:
        print(format_row(row))
    for name, value in (metrics or {}).items():
        print(_metric_line(name, value))
    counts = {s: sum(1 for r in rows if r["severity"] == s.value) for s in Severity}
    summary = ", ".join(f"{n} {s.value}{'s' if n != 1 and s is not Severity.INFORMATION else ''}"
                        for s, n in counts.items() if n)
    print(f"relatex check: {summary or 'no findings'}", file=sys.stderr)


def run(args: argparse.Namespace, engines: Engines) -> int:
    request = CheckRequest(Path(args.path), args.max_unused)
    if is_bib_file(request.path) and (args.model or args.claims):
        print("relatex check: --model and --claims need a .tex draft", file=sys.stderr)
        return 2
    try:
        check = check_file(request, engines)
    except CheckError as exc:
        print(f"relatex check: {exc}", file=sys.stderr)
        return 2
    if args.model:
        _print_model(check, args.format)
        return 0
    findings = list(check.findings)
    metrics: dict[str, Any] | None = None
    if args.bib or args.fix:
        # findings refer to the text as it was checked, also when --fix rewrote entries
        findings.extend(check_bib.bib_findings(check, engines, fix=bool(args.fix)))
    if args.claims:
        extra, metrics = check_claims.claim_findings(check, engines)
        findings.extend(extra)
    rows = finding_rows(findings, check.texts)
    _print_rows(rows, metrics, args.format)
    return 1 if any(r["severity"] == Severity.ERROR.value for r in rows) else 0
