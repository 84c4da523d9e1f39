"""What the server knows: open documents, one project model per root file, analysis results.

Everything here is mutated on the event-loop thread only; CPU work (loading a project,
checking it, verifying entries, judging claims) runs in a background executor on immutable
inputs (a copy of the overlays), and its result is kept only when the root's generation
counter has not moved meanwhile, so stale results are never published.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlparse

from relatex.analysis.findings import Finding
from relatex.analysis.text_files import read_text
from relatex.config.settings import Settings
from relatex.retrieval.records import PaperRecord
from relatex.server.positions import PositionMapper
from relatex.workflows.check_project import ProjectSnapshot
from relatex.workflows.engines import Engines

log = logging.getLogger(__name__)

_missing_logged: set[str] = set()

#: How long background work pauses after each request from the editor.
FOREGROUND_SECONDS = 0.05


def optional_module(name: str) -> ModuleType | None:
    """Import ``relatex.<name>`` or return None (logged once): a missing area degrades one feature."""
    try:
        return importlib.import_module(f"relatex.{name}")
    except ImportError as exc:
        if name not in _missing_logged:
            _missing_logged.add(name)
            log.warning("relatex.%s is not available (%s); the features using it are off", name, exc)
        return None


def uri_to_path(uri: str) -> Path:
    """The absolute resolved file path of a ``file://`` URI."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("file", ""):
        raise ValueError(f"not a file URI: {uri}")
    return Path(unquote(parsed.path)).resolve()


def path_to_uri(path: Path) -> str:
    return path.resolve().as_uri()


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


@dataclass
class OpenDocument:
    """A document the editor has open: its text is authoritative over the disk."""

    uri: str
    path: Path
    version: int
    text: str
    language_id: str = ""
    _mapper: PositionMapper | None = field(default=None, repr=False, compare=False)

    def mapper(self) -> PositionMapper:
        """Position conversion for the current text (rebuilt only after a change)."""
        if self._mapper is None or self._mapper.text is not self.text:
            self._mapper = PositionMapper(self.text)
        return self._mapper


@dataclass
class BackgroundResults:
    """Verification and claim-support results of the latest background pass of a root."""

    generation: int = -1
    findings: tuple[Finding, ...] = ()
    verdicts: dict[str, Any] = field(default_factory=dict)  # key -> BibVerdict
    records: dict[str, PaperRecord] = field(default_factory=dict)  # key -> resolved record
    claims: list[Any] = field(default_factory=list)  # ClaimResult


class WorkspaceState:
    """Documents, roots, snapshots and caches of one server instance."""

    def __init__(self, settings: Settings | None = None, max_workers: int = 2,
                 engines: Engines | None = None) -> None:
        self.engines = engines if engines is not None else Engines(settings)
        if settings is not None and engines is not None:
            self.engines = engines.reconfigured(settings)
        self.documents: dict[str, OpenDocument] = {}
        self.root_of: dict[Path, Path] = {}
        self.snapshots: dict[Path, ProjectSnapshot] = {}
        self.background: dict[Path, BackgroundResults] = {}
        self.generations: dict[Path, int] = {}
        self.executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="relatex")
        self.cache_lock = threading.Lock()
        self.verdict_cache: dict[str, Any] = {}  # entry text hash -> BibVerdict
        self.record_cache: dict[str, PaperRecord | None] = {}  # entry text hash -> record
        self.claim_cache: dict[Any, Any] = {}
        self.summary_cache: dict[str, str] = {}  # record id -> LLM summary
        self.summary_failure: tuple[Any, float] | None = None  # (LLM settings, monotonic time) of the last failure
        self.kb_loaded = False  # opened and warmed up (vectors, model) by the background load
        self._pending: dict[Path, asyncio.Task[None]] = {}
        self.closing = False
        self.diagnostics: dict[str, dict[Path, list[Any]]] = {}  # uri -> root -> diagnostics
        self.last_published: dict[str, list[Any]] = {}
        self._foreground_until = 0.0

    # -- foreground and background ----------------------------------------------------------
    def mark_foreground(self) -> None:
        """A request from the editor is being answered: background work gives way for a moment."""
        self._foreground_until = time.monotonic() + FOREGROUND_SECONDS

    def yield_to_foreground(self, limit_s: float = 1.0) -> None:
        """Called by background work at its checkpoints: while the editor is sending requests,
        sleep (releasing the GIL) so hover and completion are answered promptly; never more
        than ``limit_s`` per checkpoint, so background work always progresses."""
        deadline = time.monotonic() + limit_s
        while True:
            now = time.monotonic()
            if now >= self._foreground_until or now >= deadline:
                return
            time.sleep(min(0.005, self._foreground_until - now))

    # -- documents ------------------------------------------------------------------------
    def open(self, uri: str, version: int, text: str, language_id: str = "") -> OpenDocument:
        doc = OpenDocument(uri=uri, path=uri_to_path(uri), version=version, text=text, language_id=language_id)
        self.documents[uri] = doc
        return doc

    def close(self, uri: str) -> OpenDocument | None:
        return self.documents.pop(uri, None)

    def document(self, uri: str) -> OpenDocument | None:
        return self.documents.get(uri)

    def document_for_path(self, path: Path) -> OpenDocument | None:
        for doc in self.documents.values():
            if doc.path == path:
                return doc
        return None

    def overlays(self) -> dict[Path, str]:
        return {doc.path: doc.text for doc in self.documents.values()}

    def text_of(self, path: Path) -> str | None:
        """The editor's text of a file when open, else the disk's (None when unreadable)."""
        doc = self.document_for_path(path)
        if doc is not None:
            return doc.text
        try:
            return read_text(path)[0]
        except OSError:
            return None

    def unchanged(self, path: Path, text: str) -> bool:
        """Whether ``text`` is still the file's current text (the editor's when open, else the
        disk's). A .bib file on disk is compared through the BibTeX cache, so an unchanged
        100k-entry file is not read again (it may be parsed again when it changed)."""
        doc = self.document_for_path(path)
        if doc is not None:
            return doc.text == text
        bibtex = optional_module("analysis.bib.bibtex") if path.name.endswith((".bib", ".bib.gz")) else None
        if bibtex is not None:
            try:
                return bool(bibtex.load_bib_file(path).text == text)
            except OSError:
                return False
        return self.text_of(path) == text

    def is_current(self, snapshot: ProjectSnapshot) -> bool:
        """Whether every text a snapshot was built from is still current (run it off the event
        loop: a changed .bib is parsed again)."""
        return all(self.unchanged(path, text) for path, text in snapshot.texts.items())

    # -- roots and generations --------------------------------------------------------------
    def roots_for(self, path: Path) -> set[Path]:
        """The roots whose project contains ``path`` (a .tex file or a .bib file)."""
        roots = {root for root, snap in self.snapshots.items() if path in snap.files()}
        if path in self.root_of:
            roots.add(self.root_of[path])
        return roots

    def find_root(self, path: Path) -> Path:
        module = optional_module("analysis.latex.latex_project")
        if module is None:
            return path
        try:
            return Path(module.find_root(path, self.overlays())).resolve()
        except Exception:  # a broken magic comment must not lose the document
            log.exception("find_root failed for %s", path)
            return path

    def bump(self, root: Path) -> int:
        self.generations[root] = self.generations.get(root, 0) + 1
        return self.generations[root]

    def generation(self, root: Path) -> int:
        """The root's change counter (-1 once the server is shutting down: all work is stale)."""
        return -1 if self.closing else self.generations.get(root, 0)

    # -- debounce -----------------------------------------------------------------------------
    def schedule(self, root: Path, delay_s: float, job: Callable[[Path, int], Any]) -> None:
        """Run ``job(root, generation)`` after ``delay_s`` unless another change comes first."""
        generation = self.bump(root)
        previous = self._pending.pop(root, None)
        if previous is not None and not previous.done():
            previous.cancel()

        async def later() -> None:
            if delay_s > 0:
                await asyncio.sleep(delay_s)
            if self.generation(root) != generation:
                return
            result = job(root, generation)
            if asyncio.iscoroutine(result):
                await result

        self._pending[root] = asyncio.get_running_loop().create_task(later())

    async def run(self, func: Callable[..., Any], *args: Any) -> Any:
        """Run CPU work in the background executor."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, func, *args)

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

    # -- knowledge base -----------------------------------------------------------------------
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
        self.closing = True
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.engines.close()
        self.kb_loaded = False
