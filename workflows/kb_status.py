"""Which knowledge base is used, how big, built with which model and when (CLI and server).

One place says where the knowledge base lives and how to build it, so that the CLI's messages,
``relatex status`` and the editor's status all name the same folder and the same command.
"""

from __future__ import annotations

import shlex
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from relatex.config.settings import Settings


@dataclass(frozen=True)
class KnowledgeBaseStatus:
    """What ``relatex status`` and the server's status command report."""

    path: str  # the knowledge base folder (data dir / name)
    exists: bool
    records: int = 0
    model: str = ""  # embedding model the vectors were built with
    dim: int = 0
    size_bytes: int = 0
    updated: float | None = None  # epoch seconds of the last finished indexing run
    sources: tuple[str, ...] = ()
    error: str = ""
    build_command: str = ""  # the exact command that builds (or updates) it

    def age_seconds(self, now: float | None = None) -> float | None:
        return None if self.updated is None else max(0.0, (now or time.time()) - self.updated)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["sources"] = list(self.sources)
        data["age_seconds"] = self.age_seconds()
        return data


def index_command(settings: Settings, sources: str = "") -> str:
    """``relatex index`` with the options that reach the configured knowledge base."""
    kb = settings.knowledge_base
    base = kb.resolved_data_dir().parent
    parts = ["relatex", "index"]
    if kb.data_dir:
        parts += ["--data-dir", str(base)]
    if kb.name != "default":
        parts += ["--kb-name", kb.name]
    command = shlex.join(parts)
    return f"{command} {sources}".rstrip()


def missing_message(settings: Settings) -> str:
    """The one message for "there is no knowledge base", naming the folder and the command."""
    return (f"no knowledge base at {settings.knowledge_base.resolved_data_dir()}; build it from the project's "
            f".bib files with `{index_command(settings)}` run in the project folder (or give the files: "
            f"`{index_command(settings, 'FILE.bib ...')}`), or from the editor with \"Build knowledge base "
            "from this project\"")


def folder_size(path: Path) -> int:
    total = 0
    for item in path.rglob("*"):
        try:
            if item.is_file():
                total += item.stat().st_size
        except OSError:
            continue
    return total


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def human_age(seconds: float | None) -> str:
    if seconds is None:
        return "never finished indexing"
    for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= length:
            count = int(seconds // length)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


def knowledge_base_present(settings: Settings) -> bool:
    """Whether a knowledge base was built where the settings point (or is served by Qdrant): a
    look at the folder, without opening anything."""
    kb = settings.knowledge_base
    return bool(kb.qdrant_url) or (kb.resolved_data_dir() / "records.sqlite").exists()


def knowledge_base_status(settings: Settings) -> KnowledgeBaseStatus:
    """Read the knowledge base's metadata without loading vectors or the model."""
    path = settings.knowledge_base.resolved_data_dir()
    command = index_command(settings)
    if not (path / "records.sqlite").exists():
        return KnowledgeBaseStatus(str(path), False, build_command=command)
    from relatex.retrieval.knowledge_base import KnowledgeBase

    try:
        with KnowledgeBase.open(path, read_only=True) as kb:
            stats = kb.stats()
    except Exception as exc:  # a corrupt or locked file: say so, keep going
        return KnowledgeBaseStatus(str(path), True, error=str(exc), build_command=command)
    finished = [run["finished"] for run in stats.get("runs", []) if run.get("finished")]
    return KnowledgeBaseStatus(
        path=str(path), exists=True, records=int(stats.get("records") or 0),
        model=str(stats.get("embedder") or ""), dim=int(stats.get("dim") or 0),
        size_bytes=folder_size(path), updated=max(finished) if finished else None,
        sources=tuple(sorted(stats.get("sources") or {})), build_command=command,
    )


def describe(status: KnowledgeBaseStatus) -> str:
    """One line for a status bar, a message or the CLI."""
    if not status.exists:
        return f"no knowledge base at {status.path} (build it in the project folder: {status.build_command})"
    if status.error:
        return f"knowledge base at {status.path} cannot be read: {status.error}"
    return (f"knowledge base {status.path}: {status.records:,} records, {human_size(status.size_bytes)}, "
            f"model {status.model or '?'}, updated {human_age(status.age_seconds())}")
