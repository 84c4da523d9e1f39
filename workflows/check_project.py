"""The syntax pass of a project: its LaTeX files, its .bib files and the findings of both.

Both front ends call it: the language server after each change (:func:`analyse_root`, on the
overlays of the open documents, in its executor) and ``relatex check`` (:func:`check_file`, which
finds the root of a .tex file or checks a .bib file alone). :func:`preview_root` gives the first
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
from relatex.analysis.cancellation import Cancel
from relatex.analysis.findings import Finding
from relatex.analysis.latex import latex_project
from relatex.analysis.latex.latex_includes import safe_exists
from relatex.analysis.latex.latex_root import find_root
from relatex.analysis.latex.project_model import BibResource, LatexProject
from relatex.analysis.verification import project_checks
from relatex.config.settings import Settings
from relatex.workflows.engines import Engines
from relatex.workflows.progress import ProgressCallback, no_progress

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
        if path in overlays or not safe_exists(path):
            continue
        try:
            bibtex.load_bib_file(path, cache_dir=cache_dir)
        except Exception as exc:  # the regular load reports the problem
            log.debug("bib cache priming failed for %s: %s", path, exc)


def analyse_root(root: Path, overlays: Mapping[Path, str], settings: Settings,
                 generation: int) -> ProjectSnapshot:
    """The syntax pass of one root (runs in the executor; never raises on content); an included file
    that is not open and is larger than ``settings.max_document_bytes`` is not read."""
    try:
        project: LatexProject = latex_project.load_project(root, overlays, settings.max_document_bytes)
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
        project: LatexProject = latex_project.load_project(root, overlays, settings.max_document_bytes)
    except (FileNotFoundError, OSError):
        return None
    paths = [path for path in project.bib_paths() if safe_exists(path)]
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


# -- `relatex check`: one file, found root, whole pass ---------------------------------------


class CheckError(Exception):
    """The check cannot run (no such file, a directory, an unreadable draft); the message says why."""


@dataclass(frozen=True)
class CheckRequest:
    """Check ``path``: a draft's .tex file (its root is found) or a .bib file on its own.
    ``max_unused`` caps the unused-entry hints (default: the ``maxUnusedHints`` setting)."""

    path: Path
    max_unused: int | None = None


@dataclass(frozen=True)
class ProjectCheck:
    """A loaded project (sources-less for a .bib file alone), its .bib files and its findings."""

    project: LatexProject
    bibs: Mapping[Path, BibFile]
    findings: tuple[Finding, ...]
    texts: Mapping[Path, str]  # text each offset refers to (tex and bib), as checked

    @property
    def bib_only(self) -> bool:
        return not self.project.files


def is_bib_file(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith(".bib") or name.endswith(".bib.gz")


def _bib_only_project(path: Path) -> LatexProject:
    """A project without sources that declares one .bib file."""
    resource = BibResource(kind="bibliography", path=path, declared_in=path, start=0, end=0, exists=True)
    return LatexProject(root=path, root_dir=path.parent, files={}, file_order=(), bib_resources=(resource,))


def load_sources(request: CheckRequest, settings: Settings) -> tuple[LatexProject, dict[Path, BibFile]]:
    """The project of ``request.path`` (root found) and its loaded .bib files; raises CheckError."""
    path = request.path.expanduser()
    if not path.exists():
        raise CheckError(f"no such file: {request.path}")
    if path.is_dir():
        raise CheckError(f"{request.path} is a directory; give the draft's .tex file or a .bib file")
    path = path.resolve()
    if is_bib_file(path):
        try:
            bib = bibtex.load_bib_file(path, cache_dir=settings.bib_cache_dir())
        except OSError as exc:
            raise CheckError(f"cannot read {request.path}: {exc}") from exc
        return _bib_only_project(path), {path: bib}
    try:
        project = latex_project.load_project(find_root(path), max_included_bytes=settings.max_document_bytes)
    except (FileNotFoundError, OSError) as exc:
        raise CheckError(f"cannot load the draft {request.path}: {exc}") from exc
    return project, dict(project_checks.load_bibliographies(project, cache_dir=settings.bib_cache_dir()))


def check_file(request: CheckRequest, engines: Engines, cancel: Cancel = None,
               progress: ProgressCallback = no_progress) -> ProjectCheck:
    """The syntax pass of ``relatex check``: load, then the project's (or the .bib file's)
    findings. Raises CheckError when the file cannot be checked."""
    settings = engines.settings
    progress(f"checking {request.path}", None)
    project, bibs = load_sources(request, settings)
    if not project.files:
        findings = project_checks.check_bib_files(bibs, settings.bib_cache_dir())
    else:
        max_unused = request.max_unused if request.max_unused is not None else settings.max_unused_hints
        findings = project_checks.check_project(project, bibs, max_unused=max_unused,
                                                cache_dir=settings.bib_cache_dir())
    texts: dict[Path, str] = {p: f.text for p, f in project.files.items()}
    texts.update({p: b.text for p, b in bibs.items()})
    return ProjectCheck(project, bibs, tuple(findings), texts)
