"""Root files and their generations: which project each file belongs to, each root's latest
snapshot and background results, and the change counter that makes older results stale.

Mutated on the event-loop thread only; background work reads :meth:`RootRegistry.generation`
to learn that it has become stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relatex.analysis.findings import Finding
from relatex.retrieval.records import PaperRecord
from relatex.workflows.check_project import ProjectSnapshot


@dataclass
class BackgroundResults:
    """Verification and claim-support results of the latest background pass of a root."""

    generation: int = -1
    findings: tuple[Finding, ...] = ()
    verdicts: dict[str, Any] = field(default_factory=dict)  # key -> BibVerdict
    records: dict[str, PaperRecord] = field(default_factory=dict)  # key -> resolved record
    claims: list[Any] = field(default_factory=list)  # ClaimResult


class RootRegistry:
    """Roots, the files of their projects, and one generation counter per root."""

    def __init__(self) -> None:
        self.root_of: dict[Path, Path] = {}
        self.snapshots: dict[Path, ProjectSnapshot] = {}
        self.background: dict[Path, BackgroundResults] = {}
        self.generations: dict[Path, int] = {}
        self.closing = False

    def roots_for(self, path: Path) -> set[Path]:
        """The roots whose project contains ``path`` (a .tex file or a .bib file)."""
        roots = {root for root, snap in self.snapshots.items() if path in snap.files()}
        if path in self.root_of:
            roots.add(self.root_of[path])
        return roots

    def known_roots(self) -> set[Path]:
        """Every root analysed or waiting for its first analysis."""
        return set(self.snapshots) | set(self.root_of.values())

    def bump(self, root: Path) -> int:
        """A change of ``root``'s project: every result of an older generation is stale."""
        self.generations[root] = self.generations.get(root, 0) + 1
        return self.generations[root]

    def generation(self, root: Path) -> int:
        """The root's change counter (-1 once the server is shutting down: all work is stale)."""
        return -1 if self.closing else self.generations.get(root, 0)

    def is_stale(self, snapshot: ProjectSnapshot) -> bool:
        """Whether a newer change of the snapshot's root exists (its results must not be shown)."""
        return self.generation(snapshot.root) != snapshot.generation

    def remember(self, snapshot: ProjectSnapshot) -> None:
        """Keep a fresh snapshot as its root's latest; its files now belong to that root."""
        self.snapshots[snapshot.root] = snapshot
        for path in snapshot.files():
            self.root_of[path] = snapshot.root

    def snapshot_for(self, path: Path) -> ProjectSnapshot | None:
        """The latest snapshot of a project that contains ``path``."""
        root = self.root_of.get(path)
        if root is not None and root in self.snapshots:
            return self.snapshots[root]
        for snapshot in self.snapshots.values():
            if path in snapshot.files():
                return snapshot
        return None
