"""What "build the knowledge base from this project" indexes: the project's .bib files plus
``knowledgeBase.sources``.

The project's .bib files are every ``.bib``/``.bib.gz`` under the project folder (hidden
folders, virtual environments and ``node_modules`` skipped) and every bibliography a root
``.tex`` file of the folder names, wherever it lies.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from relatex.analysis.latex.latex_includes import safe_exists
from relatex.config.settings import Settings

log = logging.getLogger(__name__)

SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "build", "dist"})
BIB_SUFFIXES = (".bib", ".bib.gz")
#: Folders deeper than this below the project folder are not searched.
MAX_DEPTH = 4


def walk_files(folder: Path, depth: int = 0) -> Iterator[Path]:
    """Files under ``folder``, skipping hidden and tool folders, at most MAX_DEPTH levels down."""
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return
    for child in children:
        if child.name.startswith("."):
            continue
        if child.is_dir():
            if child.name not in SKIPPED_FOLDERS and depth < MAX_DEPTH:
                yield from walk_files(child, depth + 1)
        elif child.is_file():
            yield child


def bibliographies_of_roots(tex_files: Iterable[Path], overlays: Mapping[Path, str] | None = None) -> list[Path]:
    """The .bib files the root documents among ``tex_files`` name (existing ones)."""
    from relatex.analysis.latex.latex_project import load_project

    found: list[Path] = []
    for tex in tex_files:
        try:
            head = tex.read_text(encoding="utf-8", errors="replace")[:20000]
        except OSError:
            continue
        if "\\documentclass" not in head:
            continue
        try:
            project = load_project(tex, overlays)
        except (OSError, ValueError) as exc:
            log.debug("cannot read %s: %s", tex, exc)
            continue
        found.extend(path for path in project.bib_paths() if safe_exists(path))  # a name too long is none
    return found


def project_bibliographies(folder: Path, overlays: Mapping[Path, str] | None = None) -> list[Path]:
    """The project's .bib files (resolved, each once, in a stable order)."""
    folder = folder.expanduser().resolve()
    files = list(walk_files(folder))
    bibs = [path for path in files if path.name.endswith(BIB_SUFFIXES)]
    bibs += bibliographies_of_roots([path for path in files if path.suffix == ".tex"], overlays)
    return list(dict.fromkeys(path.resolve() for path in bibs))


def build_sources(folder: Path, settings: Settings,
                  overlays: Mapping[Path, str] | None = None) -> list[Path]:
    """The project's .bib files plus the configured ``knowledgeBase.sources`` that exist."""
    configured = [Path(source).expanduser() for source in settings.knowledge_base.sources]
    missing = [str(path) for path in configured if not safe_exists(path)]
    if missing:
        log.warning("knowledgeBase.sources not found: %s", ", ".join(missing))
    paths = project_bibliographies(folder, overlays) + [path.resolve() for path in configured if safe_exists(path)]
    return list(dict.fromkeys(paths))
