"""One load of a LaTeX project: reading files (editor overlays first) and walking includes.

:class:`ProjectLoader` follows include commands in document order, collects citation sites,
headings, bibliography declarations and findings; :func:`analyse_file` is the per-file analysis,
cached by path and text. :mod:`relatex.analysis.latex.latex_project` assembles the result.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from relatex.analysis.findings import Code, Finding, Severity
from relatex.analysis.latex.citations import find_citations
from relatex.analysis.latex.cite_macros import CiteMacros, using_cite_macros
from relatex.analysis.latex.claim_extraction import claims_for_file, source_sentences, with_sentences
from relatex.analysis.latex.latex_includes import (
    INCLUDE_RE,
    include_candidates,
    normalise_overlays,
    parse_include,
    safe_exists,
)
from relatex.analysis.latex.latex_scan import (
    find_end_of_document,
    iter_comma_items,
    mask_text,
    read_arguments,
)
from relatex.analysis.latex.project_boundary import is_inside
from relatex.analysis.latex.project_model import (
    BibItem,
    BibResource,
    CitationSite,
    Claim,
)
from relatex.analysis.latex.structure import SectionHeading, find_bib_items, find_section_headings
from relatex.analysis.text_files import decode_text

log = logging.getLogger(__name__)

# .bib files of abbreviations that TeX distributions ship (IEEEtran's), found by BibTeX outside the project
DISTRIBUTION_BIBS = frozenset({"IEEEabrv", "IEEEfull", "IEEEexample", "IEEEabrvNoPunct"})
_BIB_RE = re.compile(r"\\(bibliography|addbibresource|addglobalbib|addsectionbib)(?![A-Za-z@])")
_THEBIBLIOGRAPHY_RE = re.compile(r"\\begin[ \t]*\{thebibliography\}")
_MAX_DEPTH = 64


@dataclass(frozen=True)
class _Include:
    command: str
    start: int
    end: int
    target: Path | None  # resolved and readable, else None


@dataclass
class FileScan:
    path: Path
    text: str
    masked: str
    doc_end: int | None
    headings: list[SectionHeading] = field(default_factory=list)
    includes: list[_Include] = field(default_factory=list)
    sites: list[CitationSite] = field(default_factory=list)
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True)
class FileAnalysis:
    """Everything that depends only on one file's path and text (cached across loads)."""

    masked: str
    doc_end: int | None
    sites: tuple[CitationSite, ...] = ()
    headings: tuple[SectionHeading, ...] = ()
    claims: tuple[Claim, ...] = ()


@lru_cache(maxsize=64)
def analyse_file(path: Path, text: str, macros: CiteMacros = ()) -> FileAnalysis:
    """Citations with sentences, headings and claims of one file (``macros``: the project's
    own citation commands).

    Cached by (path, text, macros): an editor reloading the project on every keystroke
    re-analyses only the file that changed.
    """
    masked = mask_text(text)
    doc_end = find_end_of_document(masked)
    if macros:
        with using_cite_macros(macros):
            return _analyse_masked(path, text, masked, doc_end)
    return _analyse_masked(path, text, masked, doc_end)


def _analyse_masked(path: Path, text: str, masked: str, doc_end: int | None) -> FileAnalysis:
    try:
        sites = find_citations(path, text, masked, doc_end)
        sentences = source_sentences(text, masked, doc_end)
        placed = tuple(with_sentences(sites, sentences))
        headings = tuple(find_section_headings(text, masked, doc_end))
        claims = tuple(claims_for_file(path, text, placed, masked))
    except Exception:  # a scanner bug must not lose the rest of the project
        log.exception("could not analyse %s", path)
        return FileAnalysis(masked, doc_end)
    return FileAnalysis(masked, doc_end, placed, headings, claims)


# an included file larger than this is not read (generated data, a pasted dump): it would cost
# minutes and gigabytes to scan, and nothing in it is a draft's prose
MAX_INCLUDED_BYTES = 8_000_000


def _in_bytes(size: int) -> str:
    """A file size as a person reads it: "3.1 MB", "30 kB"."""
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} kB"


class ProjectLoader:
    """One load: reads files (overlays first), walks includes in document order."""

    def __init__(self, root: Path, overlays: Mapping[Path, str] | None, macros: CiteMacros = (),
                 max_included_bytes: int = MAX_INCLUDED_BYTES) -> None:
        self.root = root
        self.macros = macros
        self.max_included_bytes = max_included_bytes
        self.root_dir = root.parent
        self.overlays = normalise_overlays(overlays)
        self.scans: dict[Path, FileScan] = {}
        self.order: list[Path] = []
        self.findings: list[Finding] = []
        self.sites: list[CitationSite] = []
        self.headings: list[tuple[Path, SectionHeading]] = []
        self.includes: dict[Path, list[Path]] = {}
        self.bib_resources: list[BibResource] = []
        self.bib_items: list[BibItem] = []

    # -- files ---------------------------------------------------------------------------
    def exists(self, path: Path) -> bool:
        if path in self.overlays:
            return True
        try:
            return path.is_file()
        except OSError:
            return False

    def disk_size(self, path: Path) -> int:
        """Bytes of a file that is not open in the editor (0 when open or unreadable)."""
        if path in self.overlays:
            return 0
        try:
            return path.stat().st_size
        except OSError:
            return 0

    def read(self, path: Path) -> str | None:
        if path in self.overlays:
            return self.overlays[path]
        try:
            data = path.read_bytes()
        except OSError as exc:
            log.warning("cannot read %s: %s", path, exc)
            return None
        return decode_text(data)[0]

    def inside_root(self, path: Path) -> bool:
        return path == self.root_dir or path.is_relative_to(self.root_dir)

    # -- walking -------------------------------------------------------------------------
    def visit(self, path: Path, text: str, stack: list[Path], base_dir: Path) -> None:
        scan = self.scan(path, text)
        self.scans[path] = scan
        self.order.append(path)
        self.includes.setdefault(path, [])
        stack.append(path)
        events: list[tuple[int, int, object]] = []
        events.extend((site.start, 1, site) for site in scan.sites)
        events.extend((h.start, 0, h) for h in scan.headings)
        stop = scan.doc_end if scan.doc_end is not None else len(text)
        for m in INCLUDE_RE.finditer(scan.masked, 0, stop):
            events.append((m.start(), 2, m))
        events.sort(key=lambda e: (e[0], e[1]))
        for _, kind, payload in events:
            if kind == 1:
                assert isinstance(payload, CitationSite)
                self.sites.append(payload)
            elif kind == 0:
                assert isinstance(payload, SectionHeading)
                self.headings.append((path, payload))
            else:
                assert isinstance(payload, re.Match)
                self.follow_include(scan, payload, stack, base_dir)
        stack.pop()

    def follow_include(self, scan: FileScan, m: re.Match[str], stack: list[Path], base_dir: Path) -> None:
        command = m.group(1)
        parsed = parse_include(scan.masked, m)
        if parsed is None:
            return
        end, directory, name = parsed
        path = scan.path
        if not name:
            return
        candidates, child_base = include_candidates(command, name, directory, path, base_dir, self.root_dir)
        target: Path | None = None
        outside = False
        for candidate in candidates:
            try:
                resolved = candidate.resolve()
            except (OSError, RuntimeError):
                continue
            if not self.inside_root(resolved):
                if resolved in self.overlays or safe_exists(resolved):
                    outside = True
                elif ".." in Path(name).parts or Path(name).is_absolute() or ".." in Path(directory).parts:
                    outside = True
                continue
            if self.exists(resolved):
                target = resolved
                break
        shown = (directory + name) if directory else name
        if target is None:
            if outside:
                self.add(Code.INCLUDE_OUTSIDE_ROOT, Severity.WARNING,
                         f"'{shown}' is outside the project directory {self.root_dir}; not read",
                         path, m.start(), end, {"target": shown})
            else:
                self.add(Code.INCLUDE_NOT_FOUND, Severity.ERROR, f"included file '{shown}' not found",
                         path, m.start(), end, {"target": shown})
            scan.includes.append(_Include(command, m.start(), end, None))
            return
        scan.includes.append(_Include(command, m.start(), end, target))
        if target not in self.includes[path]:
            self.includes[path].append(target)
        if target in stack:
            chain = " -> ".join(p.name for p in [*stack[stack.index(target):], target])
            self.add(Code.INCLUDE_CYCLE, Severity.ERROR, f"include cycle: {chain}", path, m.start(), end,
                     {"target": str(target)})
            return
        if target in self.scans:
            return
        if len(stack) >= _MAX_DEPTH:
            self.add(Code.INCLUDE_NOT_FOUND, Severity.ERROR,
                     f"'{shown}' is nested more than {_MAX_DEPTH} includes deep; not read",
                     path, m.start(), end, {"target": shown})
            return
        size = self.disk_size(target)
        if size > self.max_included_bytes:
            limit = _in_bytes(self.max_included_bytes)
            self.add(Code.DOCUMENT_TOO_LARGE, Severity.INFORMATION,
                     f"included file '{shown}' is {_in_bytes(size)}, over {limit}; not read",
                     path, m.start(), end, {"target": shown, "bytes": size})
            return
        text = self.read(target)
        if text is None:
            self.add(Code.INCLUDE_NOT_FOUND, Severity.ERROR, f"included file '{shown}' cannot be read",
                     path, m.start(), end, {"target": shown})
            return
        self.visit(target, text, stack, child_base)

    def add(self, code: Code, severity: Severity, message: str, path: Path, start: int, end: int,
            data: Mapping[str, object] | None = None) -> None:
        self.findings.append(Finding(code, severity, message, path, start, end, dict(data or {})))

    # -- per-file scanning ---------------------------------------------------------------
    def scan(self, path: Path, text: str) -> FileScan:
        analysis = analyse_file(path, text, self.macros)
        scan = FileScan(path, text, analysis.masked, analysis.doc_end, list(analysis.headings),
                         sites=list(analysis.sites), claims=analysis.claims)
        try:
            self.scan_bibliography(scan)
        except Exception:  # a scanner bug must not lose the rest of the project
            log.exception("could not read the bibliography commands of %s", path)
        return scan

    def scan_bibliography(self, scan: FileScan) -> None:
        stop = scan.doc_end if scan.doc_end is not None else len(scan.text)
        for m in _BIB_RE.finditer(scan.masked, 0, stop):
            kind = "bibliography" if m.group(1) == "bibliography" else "addbibresource"
            args = read_arguments(scan.masked, m.end(), max_optional=0 if kind == "bibliography" else 1,
                                  required=1, limit=4000)
            if not args.required or not args.required[0].closed:
                continue
            options = scan.masked[args.optional[0].content_start:args.optional[0].content_end] if args.optional else ""
            if "remote" in options.replace(" ", ""):
                continue
            group = args.required[0]
            for start, end in iter_comma_items(scan.masked, group.content_start, group.content_end):
                name = scan.text[start:end]
                if kind == "bibliography" and not name.lower().endswith(".bib"):
                    name += ".bib"
                if "://" in name:
                    continue
                resolved = self.resolve_bib(name, scan.path)
                exists = self.exists(resolved)
                self.bib_resources.append(BibResource(kind, resolved, scan.path, start, end, exists))
                if not exists and Path(name).stem in DISTRIBUTION_BIBS:
                    self.add(Code.BIB_FILE_NOT_FOUND, Severity.INFORMATION,
                             f"bibliography file '{name}' comes with the TeX distribution; its @string "
                             "abbreviations are not read", scan.path, start, end, {"target": name})
                elif not exists:
                    self.add(Code.BIB_FILE_NOT_FOUND, Severity.ERROR, f"bibliography file '{name}' not found",
                             scan.path, start, end, {"target": name})
                elif not is_inside(self.root_dir, resolved):
                    self.add(Code.INCLUDE_OUTSIDE_ROOT, Severity.WARNING,
                             f"bibliography '{name}' is outside the project directory {self.root_dir}: "
                             "read, but relatex never writes to it", scan.path, start, end, {"target": name})
        starts = list(_THEBIBLIOGRAPHY_RE.finditer(scan.masked, 0, stop))
        previous_end = 0
        for index, m in enumerate(starts):
            if m.start() < previous_end:
                continue  # nested in the previous environment
            close = scan.masked.find("\\end{thebibliography}", m.end())
            # an unterminated environment ends where the next one starts (or at the text's end)
            next_start = starts[index + 1].start() if index + 1 < len(starts) else len(scan.masked)
            if close < 0 or close > next_start:
                body_end = end = next_start
            else:
                body_end, end = close, close + len("\\end{thebibliography}")
            previous_end = end
            self.bib_resources.append(BibResource("thebibliography", None, scan.path, m.start(), end, True))
            self.bib_items.extend(find_bib_items(scan.path, scan.text, scan.masked, m.end(), body_end))

    def resolve_bib(self, name: str, declared_in: Path) -> Path:
        candidates = [self.root_dir / name, declared_in.parent / name]
        resolved: list[Path] = []
        for candidate in candidates:
            try:
                path = candidate.resolve()
            except (OSError, RuntimeError):
                path = candidate
            if self.exists(path):
                return path
            resolved.append(path)
        return resolved[0]
