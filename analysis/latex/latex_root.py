"""Finding the root file of the LaTeX project a file belongs to (magic comments, subfiles,
or a nearby file with ``\\documentclass`` that includes it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from relatex.analysis.latex.latex_includes import normalise_overlays, safe_exists
from relatex.analysis.latex.latex_scan import mask_text

_MAGIC_ROOT_RE = re.compile(r"^[ \t]*%+[ \t]*!?[ \t]*tex[ \t]+root[ \t]*=[ \t]*(\S.*?)[ \t]*$",
                            re.IGNORECASE | re.MULTILINE)
_SUBFILES_CLASS_RE = re.compile(r"\\documentclass[ \t]*\[([^\]]+)\][ \t]*\{subfiles\}")
_DOCUMENTCLASS_RE = re.compile(r"^[ \t]*\\documentclass", re.MULTILINE)
_HEAD_CHARS = 8192


def _head(path: Path, overlays: Mapping[Path, str]) -> str | None:
    if path in overlays:
        return overlays[path][:_HEAD_CHARS]
    try:
        with path.open("rb") as handle:
            return handle.read(_HEAD_CHARS).decode("utf-8", errors="replace")
    except OSError:
        return None


def _is_file(path: Path, overlays: Mapping[Path, str]) -> bool:
    return path in overlays or safe_exists(path) and path.is_file()


def find_root(path: Path, overlays: Mapping[Path, str] | None = None) -> Path:
    """The root file of the project ``path`` belongs to.

    Honours ``% !TeX root = main.tex`` magic comments (followed in chains) and
    ``\\documentclass[main.tex]{subfiles}``. A file without ``\\documentclass`` is looked up in
    the ``.tex`` files of its directory and up to two parents: the first one with
    ``\\documentclass`` that mentions the file's name is the root. Otherwise ``path`` itself.
    """
    overlay_map = normalise_overlays(overlays)
    current = Path(path).resolve()
    seen: set[Path] = set()
    for _ in range(16):
        seen.add(current)
        head = _head(current, overlay_map)
        if head is None:
            return current
        target: Path | None = None
        magic = _MAGIC_ROOT_RE.search(head)
        if magic is not None:
            target = _existing_tex(current.parent / magic.group(1).strip().strip('"'), overlay_map)
        if target is None:
            sub = _SUBFILES_CLASS_RE.search(mask_text(head))
            if sub is not None:
                target = _existing_tex(current.parent / sub.group(1).strip(), overlay_map)
        if target is None and _DOCUMENTCLASS_RE.search(mask_text(head)) is None:
            target = _including_root(current, overlay_map)
        if target is None or target in seen:
            return current
        current = target
    return current


def _existing_tex(candidate: Path, overlays: Mapping[Path, str]) -> Path | None:
    for option in (candidate, candidate.with_name(candidate.name + ".tex")):
        try:
            resolved = option.resolve()
        except (OSError, RuntimeError):
            continue
        if _is_file(resolved, overlays):
            return resolved
    return None


def _including_root(path: Path, overlays: Mapping[Path, str]) -> Path | None:
    """A nearby file with ``\\documentclass`` whose text mentions ``path``'s stem."""
    directory = path.parent
    for _ in range(3):
        try:
            candidates = sorted(p for p in directory.glob("*.tex") if p.resolve() != path)[:50]
        except OSError:
            candidates = []
        for candidate in candidates:
            head = _head(candidate.resolve(), overlays)
            if head is None:
                continue
            masked = mask_text(head)
            if _DOCUMENTCLASS_RE.search(masked) and path.stem in masked:
                try:
                    full = candidate.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                if re.search(r"\{[^{}]*" + re.escape(path.stem) + r"(?:\.tex)?\}", mask_text(full)):
                    return candidate.resolve()
        if directory.parent == directory:
            break
        directory = directory.parent
    return None
