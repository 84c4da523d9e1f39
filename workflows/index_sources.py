"""Adding papers to the knowledge base: ``relatex index``, and the editor's "Build knowledge base
from this project" and rebuild commands.

The sources are the files named in the request, or the project's .bib files plus
``knowledgeBase.sources`` (:mod:`relatex.workflows.kb_sources`). Indexing is incremental and
resumable: a cancelled run keeps every committed batch, and running it again resumes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from relatex.analysis.cancellation import Cancel, is_cancelled
from relatex.config.settings import Settings
from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, UseCaseFailed
from relatex.workflows.kb_sources import build_sources
from relatex.workflows.kb_status import KnowledgeBaseStatus, knowledge_base_status
from relatex.workflows.kb_writer import writable_knowledge_base
from relatex.workflows.progress import ProgressCallback, no_progress

if TYPE_CHECKING:
    from relatex.retrieval.indexing import IndexProgress, IndexSummary
    from relatex.retrieval.sources.base import RecordSource


@dataclass(frozen=True)
class IndexRequest:
    """``sources``: files to index (none: the .bib files of ``project_folder``, default the
    working directory, plus ``knowledgeBase.sources``). ``name_by_path``: file each source under
    its path, so another project's ``references.bib`` is another source (None: so for the
    project's files, not for the named ones). ``source_name`` only goes with one named source."""

    sources: tuple[Path, ...] = ()
    project_folder: Path | None = None
    overlays: Mapping[Path, str] | None = None
    source_name: str | None = None
    kind: str | None = None
    entry_types: Collection[str] = ()
    limit: int | None = None
    batch_size: int | None = None
    name_by_path: bool | None = None


@dataclass(frozen=True)
class IndexPlan:
    """The opened sources of a request, and whether they are the project's own files."""

    paths: tuple[Path, ...]
    sources: tuple[RecordSource, ...]
    from_project: bool


@dataclass(frozen=True)
class IndexResult:
    plan: IndexPlan
    summaries: tuple[IndexSummary, ...]
    records: int  # records in the knowledge base afterwards
    completed: bool  # False: cancelled (what was committed is kept; a rerun resumes)
    status: KnowledgeBaseStatus

    @property
    def added(self) -> int:
        return sum(summary.added for summary in self.summaries)


def source_paths(request: IndexRequest, settings: Settings) -> tuple[tuple[Path, ...], bool]:
    """The paths to index and whether they were found in the project (not named)."""
    if request.sources:
        return tuple(Path(p).expanduser() for p in request.sources), False
    folder = request.project_folder or Path.cwd()
    found = build_sources(folder, settings, request.overlays)
    if not found:
        raise UseCaseFailed(f"no .bib files in {folder} and no knowledgeBase.sources configured", BAD_REQUEST)
    return tuple(found), True


def plan_index(request: IndexRequest, settings: Settings) -> IndexPlan:
    """Open the sources of ``request`` (nothing is read yet). Raises :class:`UseCaseFailed`
    (``BAD_REQUEST``) for a missing file, an unknown format, or no source at all."""
    from relatex.retrieval.sources import open_source

    paths, from_project = source_paths(request, settings)
    if request.source_name and len(paths) > 1:
        raise UseCaseFailed("a source name needs exactly one source", BAD_REQUEST)
    by_path = from_project if request.name_by_path is None else request.name_by_path
    sources: list[RecordSource] = []
    for path in paths:
        name = str(path) if by_path else request.source_name
        try:
            source = open_source(path, name=name, kind=request.kind)
        except (FileNotFoundError, ValueError) as exc:
            raise UseCaseFailed(str(exc), BAD_REQUEST) from exc
        if request.entry_types and hasattr(source, "entry_types"):
            source.entry_types = {t.strip().lower() for t in request.entry_types if t.strip()}
        sources.append(source.limited(request.limit) if request.limit is not None else source)
    return IndexPlan(paths, tuple(sources), from_project)


def _source_progress(progress: ProgressCallback, number: int, count: int, name: str,
                     on_batch: Callable[[IndexProgress], None] | None) -> Callable[[IndexProgress], None]:
    def report(batch: IndexProgress) -> None:
        share = min(1.0, batch.processed / batch.total) if batch.total else 0.0
        progress(f"{name}: {batch.processed:,} records", (number + share) / count)
        if on_batch is not None:
            on_batch(batch)

    return report


def index_sources(plan: IndexPlan, engines: Engines, cancel: Cancel = None,
                  progress: ProgressCallback = no_progress, *, batch_size: int | None = None,
                  on_batch: Callable[[IndexProgress], None] | None = None,
                  on_summary: Callable[[IndexSummary], None] | None = None) -> IndexResult:
    """Index every source of ``plan`` into the configured knowledge base, opened for writing
    (the engines' read-only one is reopened afterwards). Stops after the current batch when
    ``cancel`` fires. ``on_batch`` gets each batch's counts, ``on_summary`` each finished source.
    Raises :class:`UseCaseFailed` (``BUSY``) when another process writes to the knowledge base."""
    summaries: list[IndexSummary] = []
    completed = True
    count = max(1, len(plan.sources))
    with writable_knowledge_base(engines) as kb:
        if batch_size is not None:
            kb.batch_size = max(1, batch_size)
        for number, source in enumerate(plan.sources):
            if is_cancelled(cancel):
                completed = False
                break
            progress(source.name, number / count)
            summary = kb.index(source, progress=_source_progress(progress, number, count, source.name, on_batch),
                               cancel=cancel, total=source.estimate_total())
            summaries.append(summary)
            if on_summary is not None:
                on_summary(summary)
            if not summary.completed:
                completed = False
                break
        records = len(kb)
    completed = completed and not is_cancelled(cancel)
    return IndexResult(plan, tuple(summaries), records, completed, knowledge_base_status(engines.settings))
