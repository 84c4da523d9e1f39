"""What one server instance knows, put together from small parts.

- :class:`~relatex.server.documents.Documents`: the open documents (kept once, in pygls'
  workspace), overlays for the project loader, position conversion.
- :class:`~relatex.server.roots.RootRegistry`: root files, their snapshots, background results
  and generations.
- :class:`~relatex.server.scheduler.CheckScheduler`: debounce, executors, the stale-generation
  rule and the publisher.
- :class:`~relatex.server.caches.AnalysisCaches`: what the background checks remember.
- :class:`~relatex.workflows.engines.Engines`: settings, knowledge base, judge, LLM.

Everything here is mutated on the event-loop thread only; CPU work runs in the scheduler's
executors on immutable inputs, and its result is kept only while its root's generation has not
moved, so stale results are never published.

The attributes the features use (``state.documents``, ``state.snapshots``,
``state.verdict_cache``, ``state.run``, ...) forward to those parts.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pygls.workspace import Workspace

from relatex.analysis.latex.latex_root import find_root
from relatex.config.settings import Settings
from relatex.retrieval.records import PaperRecord
from relatex.server.caches import AnalysisCaches
from relatex.server.documents import Documents, OpenDocument
from relatex.server.roots import BackgroundResults, RootRegistry
from relatex.server.scheduler import CheckScheduler
from relatex.workflows.check_project import ProjectSnapshot, analyse_root
from relatex.workflows.engines import Engines

log = logging.getLogger(__name__)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


class WorkspaceState:
    """Documents, roots, scheduler, caches and engines of one server instance."""

    def __init__(self, settings: Settings | None = None, max_workers: int = 2,
                 engines: Engines | None = None, workspace: Callable[[], Workspace] | None = None) -> None:
        self.engines = engines if engines is not None else Engines(settings)
        if settings is not None and engines is not None:
            self.engines = engines.reconfigured(settings)
        self.open_documents = Documents(workspace)
        self.roots = RootRegistry()
        self.scheduler = CheckScheduler(self.roots, max_workers)
        self.caches = AnalysisCaches()
        self.kb_loaded = False  # opened and warmed up (vectors, model) by the background load
        self.kb_building = False  # an index run of the editor's is writing the knowledge base
        self.diagnostics: dict[str, dict[Path, list[Any]]] = {}  # uri -> root -> published diagnostics
        self.last_published: dict[str, list[Any]] = {}

    # -- documents ------------------------------------------------------------------------------
    @property
    def documents(self) -> dict[str, OpenDocument]:
        """uri -> open document (read only: pygls opens and closes them)."""
        return self.open_documents.by_uri

    def open(self, uri: str, version: int, text: str, language_id: str = "") -> OpenDocument:
        return self.open_documents.open(uri, version, text, language_id)

    def close(self, uri: str) -> OpenDocument | None:
        return self.open_documents.close(uri)

    def document(self, uri: str) -> OpenDocument | None:
        return self.open_documents.get(uri)

    def document_for_path(self, path: Path) -> OpenDocument | None:
        return self.open_documents.for_path(path)

    def overlays(self) -> dict[Path, str]:
        return self.open_documents.overlays()

    def text_of(self, path: Path) -> str | None:
        return self.open_documents.text_of(path)

    def unchanged(self, path: Path, text: str) -> bool:
        return self.open_documents.unchanged(path, text)

    def is_current(self, snapshot: ProjectSnapshot) -> bool:
        """Whether every text a snapshot was built from is still current (run it off the event
        loop: a changed .bib is parsed again)."""
        return all(self.open_documents.unchanged(path, text) for path, text in snapshot.texts.items())

    def current_versions(self, snapshot: ProjectSnapshot, edits: Sequence[Any]) -> dict[Path, int | None] | None:
        """Versions of the documents ``edits`` change while the snapshot's texts are still
        theirs (pin them in a workspace edit); None when one of them changed since."""
        return self.open_documents.versions_if_current(snapshot.texts, [Path(e.path).resolve() for e in edits])

    # -- roots and generations ------------------------------------------------------------------
    @property
    def root_of(self) -> dict[Path, Path]:
        return self.roots.root_of

    @property
    def snapshots(self) -> dict[Path, ProjectSnapshot]:
        return self.roots.snapshots

    @property
    def background(self) -> dict[Path, BackgroundResults]:
        return self.roots.background

    @property
    def generations(self) -> dict[Path, int]:
        return self.roots.generations

    @property
    def closing(self) -> bool:
        return self.roots.closing

    def roots_for(self, path: Path) -> set[Path]:
        return self.roots.roots_for(path)

    def find_root(self, path: Path) -> Path:
        """The root file of the project a .tex file belongs to (itself when none is found)."""
        try:
            return Path(find_root(path, self.overlays())).resolve()
        except Exception:  # a broken magic comment must not lose the document
            log.exception("find_root failed for %s", path)
            return path

    def bump(self, root: Path) -> int:
        return self.roots.bump(root)

    def generation(self, root: Path) -> int:
        return self.roots.generation(root)

    # -- scheduling -------------------------------------------------------------------------------
    @property
    def executor(self) -> Any:
        return self.scheduler.executor

    def mark_foreground(self) -> None:
        self.scheduler.mark_foreground()

    def yield_to_foreground(self, limit_s: float = 1.0) -> None:
        self.scheduler.yield_to_foreground(limit_s)

    def schedule(self, root: Path, delay_s: float, job: Callable[[Path, int], Any]) -> None:
        self.scheduler.schedule(root, delay_s, job)

    async def run(self, func: Callable[..., Any], *args: Any) -> Any:
        return await self.scheduler.run(func, *args)

    async def fresh_snapshot(self, root: Path) -> ProjectSnapshot:
        """A syntax pass of ``root`` on the current texts, now (not published, not kept)."""
        return await self.run(analyse_root, root, self.overlays(), self.settings, self.generation(root))

    # -- caches ---------------------------------------------------------------------------------
    @property
    def cache_lock(self) -> Any:
        return self.caches.lock

    @property
    def verdict_cache(self) -> dict[str, Any]:
        return self.caches.verdicts

    @property
    def record_cache(self) -> dict[str, PaperRecord | None]:
        return self.caches.records

    @property
    def claim_cache(self) -> dict[Any, Any]:
        return self.caches.claims

    @property
    def summary_cache(self) -> dict[str, str]:
        return self.caches.summaries

    @property
    def summary_failure(self) -> tuple[Any, float] | None:
        return self.caches.summary_failure

    @summary_failure.setter
    def summary_failure(self, failure: tuple[Any, float] | None) -> None:
        self.caches.summary_failure = failure

    # -- settings and engines -------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.engines.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        """New settings: the engines are rebuilt (the knowledge base only when its settings changed)."""
        previous = self.engines
        self.engines = previous.reconfigured(settings)
        if self.engines is not previous and settings.knowledge_base != previous.settings.knowledge_base:
            self.kb_loaded = False

    @property
    def kb_lock(self) -> Any:
        return self.engines.kb_lock

    def knowledge_base(self) -> Any:
        """The knowledge base (opened read-only on first use; None when unavailable)."""
        return self.engines.knowledge_base()

    @property
    def kb_error(self) -> str | None:
        return self.engines.kb_error

    def reset_knowledge_base(self) -> None:
        """Close the knowledge base so the next use reopens it (settings changed, reindexed)."""
        self.engines.reset_knowledge_base()
        self.kb_loaded = False

    def shutdown(self) -> None:
        self.scheduler.shutdown()
        self.engines.close()
        self.kb_loaded = False
