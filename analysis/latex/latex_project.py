"""Load a LaTeX project from its root file into a :class:`LatexProject`.

Follows ``\\input``, ``\\include``, ``\\subfile``, ``\\import``/``\\subimport`` (and the
``\\includefrom`` family) with or without ``.tex``; never reads a file outside the root
file's directory (``\\input{../../etc/passwd}`` or a symlink pointing outside gives an
``include-outside-root`` finding instead); reports missing files and include cycles. Unsaved
editor buffers (``overlays``) take precedence over the disk. Problems in the content never
raise: they become findings or are skipped.

Section ranges are per file: a section ends at the next sectioning command of the same or a
higher level in its file, at an include command whose file holds such a command, at
``\\end{document}``, or at the end of its file (a section that continues into the next
included file ends where its own file ends). ``project.sections`` holds the top-level
sections; :func:`iter_sections` walks the whole tree.

Per-file analysis (citations, sentences, headings, claims) is cached by path and text, so
reloading a project after an edit re-analyses only the changed file.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from relatex.analysis.findings import Finding
from relatex.analysis.latex.abstract_finder import FileView, locate_abstract
from relatex.analysis.latex.citations import detect_citation_package
from relatex.analysis.latex.cite_macros import find_cite_macros
from relatex.analysis.latex.latex_includes import group_missing_includes, section_text
from relatex.analysis.latex.latex_root import find_root
from relatex.analysis.latex.project_loader import (
    DISTRIBUTION_BIBS,
    MAX_INCLUDED_BYTES,
    ProjectLoader,
    analyse_file,
)
from relatex.analysis.latex.project_model import (
    CitationKey,
    CitationSite,
    Claim,
    LatexProject,
    Section,
    SourceFile,
)
from relatex.analysis.latex.structure import FileOutline, build_section_tree, find_authors, find_title

__all__ = [
    "DISTRIBUTION_BIBS",
    "MAX_INCLUDED_BYTES",
    "LatexProject",
    "citation_at",
    "clear_analysis_cache",
    "find_root",
    "find_section",
    "iter_sections",
    "load_project",
    "section_text",
]

log = logging.getLogger(__name__)


# -- public API ----------------------------------------------------------------------------

def _outlines(loader: ProjectLoader) -> dict[Path, FileOutline]:
    return {
        path: FileOutline(
            headings=tuple(scan.headings),
            includes=tuple((inc.start, inc.target) for inc in scan.includes if inc.target is not None),
            end=scan.doc_end if scan.doc_end is not None else len(scan.text),
        )
        for path, scan in loader.scans.items()
    }


def clear_analysis_cache() -> None:
    """Forget cached per-file analyses (for cold-start measurements and tests)."""
    analyse_file.cache_clear()


def load_project(root: Path, overlays: Mapping[Path, str] | None = None,
                 max_included_bytes: int = MAX_INCLUDED_BYTES) -> LatexProject:
    """Load the project whose root file is ``root``; an included file not in ``overlays`` and larger
    than ``max_included_bytes`` is not read (one information finding).

    Raises ``FileNotFoundError`` only when the root file itself is neither on disk nor in
    ``overlays``; every problem inside the files becomes a finding.
    """
    root = Path(root).resolve()
    loader = ProjectLoader(root, overlays, max_included_bytes=max_included_bytes)
    text = loader.read(root) if root in loader.overlays or root.is_file() else None
    if text is None:
        raise FileNotFoundError(f"LaTeX root file not found: {root}")
    loader.visit(root, text, [], root.parent)
    macros = tuple(macro for path in loader.order for macro in find_cite_macros(loader.scans[path].masked))
    if macros:  # the author's own citation commands: read every file again knowing them
        loader = ProjectLoader(root, overlays, macros, max_included_bytes)
        loader.visit(root, text, [], root.parent)
    files = {path: SourceFile(path, scan.text) for path, scan in loader.scans.items()}
    title: str | None = None
    authors: tuple[str, ...] = ()
    claims: list[Claim] = []
    for path in loader.order:
        scan = loader.scans[path]
        try:
            if title is None:
                title = find_title(scan.text, scan.masked, scan.doc_end)
            if not authors:
                authors = tuple(find_authors(scan.text, scan.masked, scan.doc_end))
            claims.extend(scan.claims)
        except Exception:  # keep the rest of the project when one file trips a scanner
            log.exception("could not extract structure from %s", path)
    sections = build_section_tree(loader.headings, _outlines(loader))
    abstract = locate_abstract(
        {path: FileView(scan.text, scan.masked, scan.doc_end,
                        tuple((i.start, i.end, i.target) for i in scan.includes)) for path, scan in loader.scans.items()},
        loader.order, sections)
    return LatexProject(
        root=root,
        root_dir=loader.root_dir,
        files=files,
        file_order=tuple(loader.order),
        title=title,
        authors=authors,
        abstract=abstract.text if abstract else None,
        abstract_range=(abstract.path, abstract.start, abstract.end) if abstract else None,
        sections=sections,
        citations=tuple(loader.sites),
        bib_resources=tuple(loader.bib_resources),
        bib_items=tuple(loader.bib_items),
        claims=tuple(claims),
        findings=tuple(sorted(group_missing_includes(loader.findings), key=Finding.sort_key)),
        citation_package=detect_citation_package([s.masked for s in loader.scans.values()], loader.root_dir),
        includes={path: tuple(targets) for path, targets in loader.includes.items()},
        cite_macros=tuple(dict.fromkeys((m.name, m.args[:k].count("m")) for m in loader.macros for k in m.key_args)),
    )


# -- navigation and text of sections ---------------------------------------------------------

def iter_sections(sections: Sequence[Section]) -> Iterator[Section]:
    """All sections of a tree, depth first in document order (``project.sections`` holds roots)."""
    for section in sections:
        yield section
        yield from iter_sections(section.children)


def find_section(project: LatexProject, *names: str) -> Section | None:
    """First section whose title contains one of ``names`` (case-insensitive)."""
    wanted = [n.lower() for n in names]
    for section in iter_sections(project.sections):
        title = section.title.lower()
        if any(n in title for n in wanted):
            return section
    return None


def citation_at(project: LatexProject, path: Path, offset: int) -> tuple[CitationSite, CitationKey | None] | None:
    """The citation command at ``offset`` of ``path`` and the key under it (cursor at either
    edge of a key counts), for hover, go-to-definition and completion."""
    for site in project.citations:
        if site.path == path and site.start <= offset <= site.end:
            key = next((k for k in site.keys if k.start <= offset <= k.end), None)
            return site, key
    return None
