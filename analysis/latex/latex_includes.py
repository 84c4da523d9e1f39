"""Include commands of LaTeX (``\\input``, ``\\include``, ``\\subfile``, ``\\import`` and
friends): parsing their arguments, the files they may name, and the plain text of a range of
a project with the text of the files included inside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath

from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.latex_scan import mask_text, read_arguments
from relatex.analysis.latex.latex_text import plain_text
from relatex.analysis.latex.project_model import LatexProject, Section

INCLUDE_RE = re.compile(
    r"\\(input|include|subfile|import|subimport|includefrom|subincludefrom|inputfrom|subinputfrom"
    r"|InputIfFileExists)(?![A-Za-z@])\*?"
)
_BARE_INPUT_RE = re.compile(r"[ \t]+([^\s{}\\%]+)")


def normalise_overlays(overlays: Mapping[Path, str] | None) -> dict[Path, str]:
    """Overlay keys as absolute resolved paths (editors may send unresolved ones)."""
    result: dict[Path, str] = {}
    for path, text in (overlays or {}).items():
        try:
            result[Path(path).resolve()] = text
        except (OSError, RuntimeError):
            result[Path(path)] = text
    return result


def safe_exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def parse_include(masked: str, m: re.Match[str]) -> tuple[int, str, str] | None:
    """(end of command, directory argument, file argument) of an include command."""
    command = m.group(1)
    two_args = command in ("import", "subimport", "includefrom", "subincludefrom", "inputfrom", "subinputfrom")
    args = read_arguments(masked, m.end(), max_optional=0, required=2 if two_args else 1, limit=1000)
    if command == "input" and not args.required:
        bare = _BARE_INPUT_RE.match(masked, m.end())
        if bare is None:
            return None
        return bare.end(), "", bare.group(1)
    if len(args.required) < (2 if two_args else 1) or not all(g.closed for g in args.required):
        return None
    values = [masked[g.content_start:g.content_end].strip() for g in args.required]
    if command == "InputIfFileExists":
        args = read_arguments(masked, args.end, max_optional=0, required=2, limit=4000)
    if two_args:
        return args.end, values[0], values[1]
    return args.end, "", values[0]


def include_candidates(command: str, name: str, directory: str, including: Path, base_dir: Path,
                        root_dir: Path) -> tuple[list[Path], Path]:
    """Paths to try for an include, most likely first, and the base for the included file."""
    names = [name] if name.lower().endswith(".tex") else [name + ".tex", name]
    if command == "include":
        names = [name if name.lower().endswith(".tex") else name + ".tex"]
    if command in ("import", "includefrom", "inputfrom"):
        child_base = Path(directory) if Path(directory).is_absolute() else root_dir / directory
        bases = [child_base]
    elif command in ("subimport", "subincludefrom", "subinputfrom"):
        child_base = including.parent / directory
        bases = [child_base]
    elif command == "subfile":
        child_base = base_dir
        bases = [including.parent, base_dir, root_dir]
    else:
        child_base = base_dir
        bases = [base_dir, root_dir, including.parent]
    candidates: list[Path] = []
    for base in bases:
        for candidate_name in names:
            candidate = base / candidate_name
            if candidate not in candidates:
                candidates.append(candidate)
    return candidates, child_base


def section_text(project: LatexProject, section: Section) -> str:
    """Plain text of a section, including the text of files included within its range."""
    return _range_text(project, section.path, section.start, section.end, set())


def _range_text(project: LatexProject, path: Path, start: int, end: int, active: set[Path]) -> str:
    source = project.files.get(path)
    if source is None or path in active:
        return ""
    active = active | {path}
    text = source.text
    masked = mask_text(text)
    pieces: list[str] = []
    cursor = start
    for m in INCLUDE_RE.finditer(masked, start, end):
        parsed = parse_include(masked, m)
        if parsed is None:
            continue
        inc_end, directory, name = parsed
        child = _match_included(project, path, m.group(1), directory, name)
        if child is None:
            continue
        pieces.append(plain_text(text, cursor, m.start(), masked=masked)[0])
        child_text = project.files[child].text
        pieces.append(_range_text(project, child, 0, len(child_text), active))
        cursor = inc_end
    pieces.append(plain_text(text, cursor, end, masked=masked)[0])
    return "\n\n".join(p for p in pieces if p)


def _match_included(project: LatexProject, path: Path, command: str, directory: str, name: str) -> Path | None:
    if not name:
        return None
    known = set(project.includes.get(path, ()))
    candidates, _ = include_candidates(command, name, directory, path, project.root_dir, project.root_dir)
    candidates += [path.parent / directory / (name if name.endswith(".tex") else name + ".tex")]
    for candidate in candidates:
        try:
            resolved = candidate.resolve()
        except (OSError, RuntimeError):
            continue
        if resolved in known and resolved in project.files:
            return resolved
    return None


SOURCE_SUFFIXES = frozenset({"", ".tex", ".ltx", ".sty", ".cls", ".bib"})


def looks_generated(name: str) -> bool:
    """Whether an included name looks like a file written at build time (a plot's ``.pgf``,
    a table's ``.csv``...): it has an extension that is not one of a LaTeX source."""
    return PurePosixPath(name.strip()).suffix.lower() not in SOURCE_SUFFIXES


def group_missing_includes(findings: Iterable[Finding]) -> list[Finding]:
    """Missing included files as one finding per folder and kind of file (the first place,
    the others in ``data["others"]``); a warning when every name looks generated at build
    time. Other findings pass through unchanged."""
    kept: list[Finding] = []
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        target = str(finding.data.get("target", ""))
        if finding.code is not Code.INCLUDE_NOT_FOUND or "not found" not in finding.message:
            kept.append(finding)
            continue
        name = PurePosixPath(target.replace("\\", "/"))
        groups.setdefault((str(name.parent), name.suffix.lower()), []).append(finding)
    for (folder, _suffix), members in groups.items():
        first = members[0]
        targets = [str(f.data.get("target", "")) for f in members]
        generated = all(looks_generated(t) for t in targets)
        severity = Severity.WARNING if generated else Severity.ERROR
        note = "; the names look like files made at build time" if generated else ""
        if len(members) == 1:
            kept.append(replace(first, severity=severity, message=first.message + note))
            continue
        shown = ", ".join(f"'{t}'" for t in targets[:3]) + (f" and {len(targets) - 3} more" if len(targets) > 3 else "")
        where = "the project folder" if folder in ("", ".") else f"'{folder}/'"
        kept.append(replace(
            first, severity=severity, message=f"{len(members)} included files not found in {where}: {shown}{note}",
            data={**first.data, "targets": targets,
                  "others": [{"path": str(f.path), "start": f.start, "end": f.end} for f in members[1:]]}))
    return kept
