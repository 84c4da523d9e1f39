"""The project boundary: the one rule for every file relatex writes, from the CLI or the server.

relatex writes only to ``.tex`` and ``.bib`` files inside the folder of the draft's root file,
judged after resolving symbolic links, so ``\\addbibresource{../victim.sh}``,
``\\bibliography{../x}`` or a .bib symlinked to a file elsewhere are refused with a message
naming the file. (Reading such a file is allowed, with a warning finding from the project model.)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

WRITABLE_SUFFIXES = frozenset({".tex", ".bib"})


class OutsideProjectError(ValueError):
    """A write to a file outside the project, or to a file that is not .tex or .bib."""


def resolved(path: Path) -> Path:
    """``path`` with symbolic links resolved (as far as they exist)."""
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):
        return path.expanduser().absolute()


def is_inside(root_dir: Path, path: Path) -> bool:
    """Whether ``path`` (resolved) lies inside ``root_dir`` (resolved)."""
    folder, target = resolved(root_dir), resolved(path)
    return target == folder or target.is_relative_to(folder)


def write_refusal(root_dir: Path, path: Path) -> str | None:
    """Why relatex must not write ``path`` for a project in ``root_dir``, or None when it may."""
    target = resolved(path)
    if target.suffix.lower() not in WRITABLE_SUFFIXES:
        return f"refusing to write {path}: relatex writes only .tex and .bib files"
    if not is_inside(root_dir, path):
        shown = f"{path} (a link to {target})" if target != path.absolute() else str(path)
        return f"refusing to write {shown}: it is outside the project folder {resolved(root_dir)}"
    return None


def check_writable(root_dir: Path, paths: Iterable[Path]) -> None:
    """Raise :class:`OutsideProjectError` naming the first path relatex must not write."""
    for path in paths:
        problem = write_refusal(root_dir, Path(path))
        if problem is not None:
            raise OutsideProjectError(problem)
