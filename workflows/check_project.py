"""The syntax pass of a project: its LaTeX files, its .bib files and the findings of both.

Both front ends call it: the language server after each change (on the overlays of the open
documents, in its executor) and ``relatex check``. :func:`preview_root` gives the first
diagnostics of a large project from the keys of its .bib files while they are parsed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from relatex.analysis.bib import bib_cache, bibtex
from relatex.analysis.bib.bibliography_index import bibliography_index
from relatex.analysis.bib.bibtex_model import BibEntry, BibFile
from relatex.analysis.findings import Finding
from relatex.analysis.latex import latex_project
from relatex.analysis.latex.project_model import LatexProject
from relatex.analysis.verification import project_checks
from relatex.config.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProjectSnapshot:
    """The result of one syntax pass over a root file (immutable, published as a whole)."""

    root: Path
    generation: int
    project: LatexProject | None
    bibs: Mapping[Path, BibFile]
    findings: tuple[Finding, ...]
    texts: Mapping[Path, str]  # text each offset refers to, per file (tex and bib)
    error: str | None = None

    @property
    def key_index(self) -> dict[str, BibEntry]:
        """First entry of each key over all .bib files (the bibliography index, built once per
        content by the syntax pass in the executor, never on the event loop)."""
        return bibliography_index(self.bibs).defined

    @property
    def key_entries(self) -> dict[str, list[BibEntry]]:
        """Every entry of each key (duplicates included), over all .bib files."""
        return bibliography_index(self.bibs).by_key

    def entries_by_key(self) -> dict[str, BibEntry]:
        """First entry of each key over all the project's .bib files (computed once)."""
        return self.key_index

    def files(self) -> set[Path]:
        paths = set(self.texts)
        if self.project is not None:
            paths.update(self.project.files)
            paths.update(self.project.bib_paths())
        paths.update(self.bibs)
        return paths


def prime_bib_cache(project: LatexProject, overlays: Mapping[Path, str], settings: Settings) -> None:
    """Load the project's .bib files through the on-disk parse cache, so a restart is fast."""
    cache_dir = settings.bib_cache_dir()
    for path in project.bib_paths():
        if path in overlays or not path.exists():
            continue
        try:
            bibtex.load_bib_file(path, cache_dir=cache_dir)
        except Exception as exc:  # the regular load reports the problem
            log.debug("bib cache priming failed for %s: %s", path, exc)


def analyse_root(root: Path, overlays: Mapping[Path, str], settings: Settings,
                 generation: int) -> ProjectSnapshot:
    """The syntax pass of one root (runs in the executor; never raises on content)."""
    try:
        project: LatexProject = latex_project.load_project(root, overlays)
    except FileNotFoundError as exc:
        return ProjectSnapshot(root, generation, None, {}, (), dict(overlays), error=str(exc))
    bibs: dict[Path, BibFile] = {}
    findings: list[Finding] = list(project.findings)
    prime_bib_cache(project, overlays, settings)
    bibs = dict(project_checks.load_bibliographies(project, overlays))
    findings = list(project_checks.check_project(project, bibs, max_unused=settings.max_unused_hints,
                                                 cache_dir=settings.bib_cache_dir()))
    texts: dict[Path, str] = {path: source.text for path, source in project.files.items()}
    for path, bib in bibs.items():
        texts[path] = bib.text
    return ProjectSnapshot(root, generation, project, bibs, tuple(findings), texts)


#: A first analysis shows the draft's diagnostics from the key summaries when its .bib files
#: total at least this many bytes (smaller files load faster than the preview would help).
PREVIEW_MIN_BIB_BYTES = 4 << 20


def preview_root(root: Path, overlays: Mapping[Path, str],
                 settings: Settings) -> tuple[tuple[Finding, ...], dict[Path, str]] | None:
    """The draft's own findings (undefined keys, missing .bib files, LaTeX problems) from the
    keys of its saved .bib files alone: the first diagnostics of a large project while its
    bibliography is parsed or loaded. The keys come from the on-disk key summary of an unchanged
    file, else from a quick scan of a large file's bytes. None when not applicable."""
    try:
        project: LatexProject = latex_project.load_project(root, overlays)
    except (FileNotFoundError, OSError):
        return None
    paths = [path for path in project.bib_paths() if path.exists()]
    if not paths or any(path in overlays for path in paths):
        return None
    sizes = {path: path.stat().st_size for path in paths}
    if sum(sizes.values()) < PREVIEW_MIN_BIB_BYTES:
        return None
    defined: set[str] = set()
    for path in paths:
        summary = bib_cache.load_summary(settings.bib_cache_dir(), path)
        if summary is not None:
            defined.update(summary.keys)
        elif sizes[path] >= PREVIEW_MIN_BIB_BYTES:
            try:
                defined.update(bibtex.quick_keys(path))
            except OSError:
                return None
        else:
            return None  # a small file not yet seen: the full pass is about as quick
    findings = project_checks.check_citations_against_keys(project, paths, defined)
    texts = {path: source.text for path, source in project.files.items()}
    return tuple(f for f in findings if f.path in texts), texts
