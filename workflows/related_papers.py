"""The papers of a draft's related work: one selection, the same for ``relatex related``,
``relatex generate`` and the editor's "Generate related work".

One builder of :class:`SelectionParams` (``settings.graph`` overridden by the request's knobs,
``graph.alpha`` included), one place that builds the citation sources (the knowledge base's own
references, citation-edge files, the online expander), and one rule for a usable knowledge base.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relatex.analysis.bib.bibtex_model import BibFile
from relatex.analysis.cancellation import Cancel
from relatex.analysis.latex.latex_project import MAX_INCLUDED_BYTES, find_root, load_project
from relatex.analysis.latex.project_model import LatexProject
from relatex.analysis.verification.project_checks import load_bibliographies
from relatex.config.settings import Settings
from relatex.retrieval.draft import DraftContext, draft_context
from relatex.retrieval.neighbour_sources import NeighbourSource
from relatex.retrieval.selection import (
    Selection,
    SelectionCancelled,
    SelectionParams,
    default_sources,
    select_papers,
)
from relatex.workflows.engines import Engines
from relatex.workflows.failures import BAD_REQUEST, UseCaseCancelled, UseCaseFailed
from relatex.workflows.kb_access import check_not_empty, usable_knowledge_base
from relatex.workflows.kb_writer import writable_knowledge_base
from relatex.workflows.progress import ProgressCallback, no_progress

if TYPE_CHECKING:
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.online_expansion import OnlineExpander

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SelectionKnobs:
    """Overrides of ``settings.graph`` (None: the setting), and the knobs settings do not hold."""

    breadth: int | None = None
    depth: int | None = None
    diversity: float | None = None
    hops: int | None = None
    landmark_year: int | None = None
    alpha: float | None = None
    relevance_floor: float | None = None
    floor_exempt_links: int | None = None
    per_section: bool = False
    online_budget_s: float = 20.0


def selection_params(settings: Settings, knobs: SelectionKnobs | None = None) -> SelectionParams:
    """THE selection parameters: ``settings.graph`` overridden by ``knobs``. Raises
    :class:`UseCaseFailed` (``BAD_REQUEST``) for a value out of range."""
    knobs = knobs or SelectionKnobs()
    graph = settings.graph

    def pick(value: Any, default: Any) -> Any:
        return default if value is None else value

    try:
        return SelectionParams(
            breadth=pick(knobs.breadth, graph.breadth), depth=pick(knobs.depth, graph.depth),
            diversity=pick(knobs.diversity, graph.diversity), hops=pick(knobs.hops, graph.hops),
            landmark_year=pick(knobs.landmark_year, graph.landmark_year), alpha=pick(knobs.alpha, graph.alpha),
            alpha_without_citations=pick(knobs.alpha, graph.alpha_without_citations),  # an asked alpha: both
            relevance_floor=pick(knobs.relevance_floor, graph.relevance_floor), paper_fit_weight=graph.paper_fit_weight,
            floor_exempt_links=pick(knobs.floor_exempt_links, graph.floor_exempt_links),
            per_section=knobs.per_section, online_budget_s=float(knobs.online_budget_s),
        )
    except ValueError as exc:
        raise UseCaseFailed(str(exc), BAD_REQUEST) from exc


@dataclass(frozen=True)
class Draft:
    """A draft as the use cases read it: its project model and its parsed .bib files."""

    project: LatexProject
    bibs: Mapping[Path, BibFile]


def load_draft(path: Path, max_included_bytes: int = MAX_INCLUDED_BYTES) -> Draft:
    """The project of ``path`` (any file of it; the root is found) and its bibliographies, from
    disk; an included file larger than ``max_included_bytes`` is not read (one finding at its
    ``\\input``). Raises :class:`UseCaseFailed` (``BAD_REQUEST``) when the file does not exist."""
    path = path.expanduser().resolve()
    try:
        project = load_project(find_root(path), max_included_bytes=max_included_bytes)
    except FileNotFoundError as exc:
        raise UseCaseFailed(f"{path} does not exist", BAD_REQUEST) from exc
    return Draft(project, load_bibliographies(project))


def neighbour_sources(settings: Settings, kb: Any, citation_edges: tuple[str, ...] = (),
                      note: Callable[[str], None] = log.info) -> list[NeighbourSource]:
    """THE citation sources: the knowledge base's references (both directions), then every
    citation-edge file of ``settings.graph.citation_edges`` and ``citation_edges``. Raises
    :class:`UseCaseFailed` (``BAD_REQUEST``) when an edge file cannot be read."""
    sources: list[NeighbourSource] = default_sources(kb)
    edge_files = (*settings.graph.citation_edges, *citation_edges)
    if not edge_files:
        return sources
    from relatex.retrieval.acl_citations import AclCitationIndex, AclCitationSource

    for path in edge_files:
        try:
            index = AclCitationIndex.load(Path(path))
        except OSError as exc:
            raise UseCaseFailed(f"cannot read citation edges: {exc}", BAD_REQUEST) from exc
        note(f"{len(index)} citation edges from {path}")
        sources.append(AclCitationSource(index, kb))
    return sources


def online_expander(settings: Settings, kb: Any, enabled: bool, budget_s: float,
                    note: Callable[[str], None]) -> OnlineExpander | None:
    """THE online expander (None when online use is off, or it cannot be built)."""
    if not enabled:
        return None
    from relatex.retrieval.online_expansion import expander_from_settings

    try:
        return expander_from_settings(settings, kb, budget_s=budget_s, notify=note)
    except Exception as exc:  # the selection goes on with the local sources
        log.warning("online expansion unavailable: %s", exc)
        return None


@dataclass(frozen=True)
class RelatedRequest:
    """``online``: expand through the online registries (None: ``settings.online.enabled``);
    ``persist_online``: add the papers found online to the knowledge base (opened writable)."""

    draft: Draft
    knobs: SelectionKnobs = field(default_factory=SelectionKnobs)
    online: bool | None = None
    persist_online: bool = False
    citation_edges: tuple[str, ...] = ()
    require_query: bool = True  # a draft with no text and no citations is refused


@dataclass(frozen=True)
class RelatedResult:
    selection: Selection
    params: SelectionParams
    draft: DraftContext
    kb_records: int
    notes: tuple[str, ...] = ()  # citation-edge files read, online notices


@contextmanager
def selection_knowledge_base(engines: Engines, writable: bool) -> Iterator[KnowledgeBase]:
    """The knowledge base a selection reads (writable when online papers are to be kept)."""
    if not writable:
        yield usable_knowledge_base(engines)
        return
    with writable_knowledge_base(engines) as kb:
        check_not_empty(kb, engines.settings)
        yield kb


def related_papers(request: RelatedRequest, engines: Engines, cancel: Cancel = None,
                   progress: ProgressCallback = no_progress) -> RelatedResult:
    """Choose the papers of the draft's related work (see :func:`select_papers`). Raises
    :class:`UseCaseFailed` or :class:`UseCaseCancelled`."""
    settings = engines.settings
    params = selection_params(settings, request.knobs)
    online = settings.online.enabled if request.online is None else request.online
    notes: list[str] = []
    with selection_knowledge_base(engines, writable=online and request.persist_online) as kb:
        sources = neighbour_sources(settings, kb, request.citation_edges, notes.append)
        progress("reading the draft", 0.02)
        draft = draft_context(request.draft.project, request.draft.bibs, kb)
        if request.require_query and not draft.query_text().strip() and not draft.cited:
            raise UseCaseFailed("the draft has no title, abstract, text or citations to start from", BAD_REQUEST)
        expander = online_expander(settings, kb, online, params.online_budget_s, notes.append)
        try:
            selection = select_papers(draft, kb, params, expander, progress=progress, cancel=cancel,
                                      sources=sources, paper_fit=engines.paper_fit())
        except SelectionCancelled as exc:
            raise UseCaseCancelled(str(exc)) from exc
        records = len(kb)
    return RelatedResult(selection, params, draft, records, tuple(notes))
