"""``relatex.generateRelatedWork``: select papers, write the section, apply ONE workspace edit.

Selection and writing run in the executor with work-done progress and cancellation (the
progress bar's cancel, or ``$/cancelRequest`` of the command's request; once cancelled, the
worker stops at its next checkpoint and no edit is sent). The insertion is planned on the
text the project model was built from; if the user edited the draft meanwhile, the project
is re-read and the insertion re-planned on the new text (rebase), and the edit is pinned to
the document versions it was planned on. If no plan can
be made on the current text, nothing is applied and the user is told why.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relatex.analysis.latex.project_boundary import OutsideProjectError
from relatex.server.features.code_actions import GENERATE_COMMAND, REPLACE_COMMAND, current_versions
from relatex.server.features.diagnostics import oversized_documents
from relatex.server.features.edit_rollback import apply_all_or_nothing
from relatex.server.features.progress import Cancelled, ProgressTask
from relatex.server.features.workspace_edits import build_workspace_edit
from relatex.server.workspace_state import optional_module, uri_to_path
from relatex.workflows.check_project import ProjectSnapshot, analyse_root

if TYPE_CHECKING:
    from relatex.config.settings import Settings
    from relatex.server.lsp_server import RelatexServer
    from relatex.server.workspace_state import WorkspaceState

log = logging.getLogger(__name__)

MAX_REBASES = 3


class GenerationError(Exception):
    """A clear reason why no section was generated (shown to the user)."""


def selection_params(settings: Settings) -> Any:
    selection = optional_module("retrieval.selection")
    if selection is None:
        raise GenerationError("paper selection (relatex.retrieval.selection) is not available")
    graph = settings.graph
    return selection.SelectionParams(breadth=graph.breadth, depth=graph.depth, diversity=graph.diversity,
                                     hops=graph.hops, landmark_year=graph.landmark_year)


def writing_options(settings: Settings) -> Any:
    generate = optional_module("writing.generate")
    if generate is None or not hasattr(generate, "WritingOptions"):
        return None
    options_cls = generate.WritingOptions
    if hasattr(options_cls, "from_settings"):
        return options_cls.from_settings(settings)
    names = {f.name for f in dataclasses.fields(options_cls)} if dataclasses.is_dataclass(options_cls) else set()
    values = {"section_title": settings.writing.section_title, "memory_tokens": settings.writing.memory_tokens,
              "placement": settings.writing.placement}
    return options_cls(**{k: v for k, v in values.items() if k in names})


def online_expander(settings: Settings, kb: Any) -> Any:
    if not settings.online.enabled:
        return None
    module = optional_module("retrieval.online_expansion")
    factory = getattr(module, "expander_from_settings", None) if module is not None else None
    if factory is None:
        return None
    try:
        return factory(settings, kb)
    except Exception as exc:
        log.warning("online expansion unavailable: %s", exc)
        return None


def generate_section(state: WorkspaceState, snapshot: ProjectSnapshot, task: ProgressTask) -> Any:
    """Selection then writing (runs in the executor); returns the GeneratedSection."""
    settings = state.settings
    draft = optional_module("retrieval.draft")
    selection = optional_module("retrieval.selection")
    generate = optional_module("writing.generate")
    if draft is None or selection is None or generate is None:
        raise GenerationError("related-work generation is not available in this installation")
    if snapshot.project is None:
        raise GenerationError(snapshot.error or "the draft could not be read")
    kb = state.knowledge_base()
    if kb is None:
        raise GenerationError(state.kb_error or "no knowledge base")
    task.report("reading the draft", 0.02)
    context = draft.draft_context(snapshot.project, snapshot.bibs, kb)
    task.check()
    chosen = selection.select_papers(context, kb, selection_params(settings), expander=online_expander(settings, kb),
                                     progress=task.sub(0.05, 0.5, "selecting papers"), cancel=task.cancelled)
    task.check()
    llm = None
    llm_factory = optional_module("workflows.language_models")
    if llm_factory is not None and settings.llm.provider != "none":
        llm = llm_factory.make_llm(settings)
    from relatex.server.features.checks import make_judge, verify  # the judge and verification the checks use

    draft_keys = {p.draft_key for p in chosen.papers if p.draft_key}
    entries = [e for bib in snapshot.bibs.values() for k, e in bib.by_key().items() if k in draft_keys]
    verdicts, _ = verify(state, snapshot, entries, task.cancelled) if entries else ({}, [])
    generated = generate.generate_related_work(snapshot.project, snapshot.bibs, chosen, llm=llm,
                                               options=writing_options(settings),
                                               progress=task.sub(0.5, 0.95, "writing"), cancel=task.cancelled,
                                               judge=make_judge(state), bib_verdicts=verdicts)
    task.check()
    return generated


def plan(snapshot: ProjectSnapshot, generated: Any, settings: Settings, replace: bool = False) -> list[Any]:
    placement = optional_module("writing.placement")
    if placement is None or snapshot.project is None:
        raise GenerationError("section placement (relatex.writing.placement) is not available")
    try:
        return list(placement.plan_insertion(snapshot.project, snapshot.bibs, generated,
                                             placement=settings.writing.placement,
                                             section_title=settings.writing.section_title, replace=replace))
    except (ValueError, LookupError) as exc:
        raise GenerationError(f"cannot place the section in the current text: {exc}") from exc


async def fresh_snapshot(server: RelatexServer, root: Path) -> ProjectSnapshot:
    state = server.state
    return await state.run(analyse_root, root, state.overlays(), server.settings, state.generation(root))


async def run_generation(server: RelatexServer, uri: str, replace: bool = False) -> dict[str, Any]:
    """The command: returns a summary (applied, keys, new entries) for the caller. The author's
    related work is kept (the new text follows it) unless ``replace`` was asked for."""
    state = server.state
    path = uri_to_path(uri)
    root = state.root_of.get(path) or state.find_root(path)
    too_large = oversized_documents(server, root)
    if too_large:
        server.warn(f"relatex: {too_large[0].message}")
        return {"applied": False, "error": too_large[0].message}
    snapshot = state.snapshots.get(root)
    # entered before the first await: a $/cancelRequest of this request cancels the task too
    async with ProgressTask(server, "relatex: generating related work") as task:
        if snapshot is None or not await state.run(state.is_current, snapshot):
            snapshot = await fresh_snapshot(server, root)
        try:
            generated = await state.run(generate_section, state, snapshot, task)
            task.report("placing the section", 0.96)
            for _attempt in range(MAX_REBASES):
                edits = plan(snapshot, generated, server.settings, replace)
                versions = current_versions(server, snapshot, edits)
                if versions is not None:
                    break
                log.info("the draft changed during generation; re-planning on the new text")
                snapshot = await fresh_snapshot(server, root)
            else:
                raise GenerationError("the draft kept changing; nothing was applied, please try again")
            # positions in a large .bib are counted off the event loop
            try:
                edit = await state.run(build_workspace_edit, server, edits, root.parent, snapshot.texts, versions)
            except OutsideProjectError as exc:
                raise GenerationError(f"{exc}; nothing was applied") from exc
            if current_versions(server, snapshot, edits) != versions:
                raise GenerationError("the draft changed while the edit was prepared; nothing was applied, "
                                      "please try again")
            task.check()  # no await between this check and sending the edit
            label = "Replace existing related work" if replace else "Generate related work"
            applied, message = await apply_all_or_nothing(server, edit, edits, snapshot.texts, root.parent, label)
            if not applied:
                raise GenerationError(f"{label} was not applied: {message}")
        except Exception as exc:
            if not task.cancelled() and not isinstance(exc, Cancelled):
                if isinstance(exc, GenerationError):
                    task.outcome = f"failed: {exc}"
                    server.warn(f"relatex: {exc}")
                    return {"applied": False, "error": str(exc)}
                raise
            server.warn("relatex: related-work generation cancelled; the draft is unchanged")
            return {"applied": False, "cancelled": True}
    return {
        "applied": applied,
        "cited_keys": list(getattr(generated, "cited_keys", ())),
        "new_entries": [e.key for e in getattr(generated, "new_entries", ())],
        "used_llm": bool(getattr(generated, "used_llm", False)),
    }


def register(server: RelatexServer) -> None:
    @server.command(GENERATE_COMMAND)
    @server.guarded("generate related work", default={"applied": False})
    async def generate_command(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        if uri is None:
            uri = next((d.uri for d in server.state.documents.values() if d.path.suffix == ".tex"), None)
        if uri is None:
            server.warn("relatex: open a .tex file of the draft to generate its related work")
            return {"applied": False, "error": "no document"}
        return await run_generation(server, uri)

    @server.command(REPLACE_COMMAND)
    @server.guarded("replace existing related work", default={"applied": False})
    async def replace_command(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        if uri is None:
            server.warn("relatex: open a .tex file of the draft to replace its related work")
            return {"applied": False, "error": "no document"}
        return await run_generation(server, uri, replace=True)
