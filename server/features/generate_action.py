"""``relatex.generateRelatedWork``: the generate-section use case, applied as ONE workspace edit.

The use case (:mod:`relatex.workflows.generate_section`, the one ``relatex generate`` calls)
runs in the executor with work-done progress and cancellation (the
progress bar's cancel, or ``$/cancelRequest`` of the command's request; once cancelled, the
worker stops at its next checkpoint and no edit is sent). The insertion is planned on the
text the project model was built from; if the user edited the draft meanwhile, the project
is re-read and the insertion re-planned on the new text (rebase), and the edit is pinned to
the document versions it was planned on. If no plan can
be made on the current text, nothing is applied and the user is told why.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.analysis.edits import TextEdit
from relatex.analysis.latex.project_boundary import OutsideProjectError
from relatex.server.documents import uri_to_path
from relatex.server.features.code_actions import GENERATE_COMMAND, REPLACE_COMMAND, current_versions
from relatex.server.features.diagnostics import oversized_documents
from relatex.server.features.edit_rollback import apply_all_or_nothing
from relatex.server.features.knowledge_base import task_progress
from relatex.server.features.progress import Cancelled, ProgressTask
from relatex.server.features.workspace_edits import build_workspace_edit
from relatex.workflows.check_project import ProjectSnapshot, analyse_root
from relatex.workflows.failures import UseCaseFailed

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer
    from relatex.server.workspace_state import WorkspaceState
    from relatex.workflows.generate_section import GenerateResult

log = logging.getLogger(__name__)

MAX_REBASES = 3


class GenerationError(Exception):
    """A clear reason why no section was applied (shown to the user)."""


def generate(state: WorkspaceState, snapshot: ProjectSnapshot, replace: bool, task: ProgressTask) -> GenerateResult:
    """The use case on the snapshot's texts (runs in the executor). The editor cannot ask what to
    do when the model fails for good, so it falls back to the offline writer and says so."""
    # selection and writing are imported on first use: a quick start for the server
    from relatex.workflows.generate_section import GenerateRequest, generate_section
    from relatex.workflows.related_papers import Draft

    if snapshot.project is None:
        raise UseCaseFailed(snapshot.error or "the draft could not be read")
    request = GenerateRequest(Draft(snapshot.project, snapshot.bibs), replace=replace, fallback_offline=True)
    return generate_section(request, state.engines, task.cancelled, task_progress(task))


def replan(snapshot: ProjectSnapshot, result: GenerateResult, server: RelatexServer, replace: bool) -> list[TextEdit]:
    """The insertion planned again on a newer text of the draft."""
    from relatex.workflows.generate_section import plan_section_edits

    if snapshot.project is None:
        raise GenerationError(snapshot.error or "the draft could not be read")
    return plan_section_edits(snapshot.project, snapshot.bibs, result.section, server.settings, replace,
                              result.section_title, result.placement)


async def fresh_snapshot(server: RelatexServer, root: Path) -> ProjectSnapshot:
    state = server.state
    return await state.run(analyse_root, root, state.overlays(), server.settings, state.generation(root))


async def current_edits(server: RelatexServer, root: Path, snapshot: ProjectSnapshot, result: GenerateResult,
                        replace: bool) -> tuple[ProjectSnapshot, list[TextEdit], dict[Path, int | None]]:
    """The edits on the current text: planned on the generation's snapshot, else re-planned on a
    fresh one when the user typed meanwhile (rebase); with the document versions they are for."""
    edits = list(result.edits)
    for _attempt in range(MAX_REBASES):
        versions = current_versions(server, snapshot, edits)
        if versions is not None:
            return snapshot, edits, versions
        log.info("the draft changed during generation; re-planning on the new text")
        snapshot = await fresh_snapshot(server, root)
        edits = replan(snapshot, result, server, replace)
    raise GenerationError("the draft kept changing; nothing was applied, please try again")


async def apply_result(server: RelatexServer, root: Path, snapshot: ProjectSnapshot, result: GenerateResult,
                       replace: bool, task: ProgressTask) -> bool:
    """Send the section and entries as ONE workspace edit; raises GenerationError when refused."""
    state = server.state
    snapshot, edits, versions = await current_edits(server, root, snapshot, result, replace)
    try:  # positions in a large .bib are counted off the event loop
        edit = await state.run(build_workspace_edit, server, edits, root.parent, snapshot.texts, versions)
    except OutsideProjectError as exc:
        raise GenerationError(f"{exc}; nothing was applied") from exc
    if current_versions(server, snapshot, edits) != versions:
        raise GenerationError("the draft changed while the edit was prepared; nothing was applied, please try again")
    task.check()  # no await between this check and sending the edit
    label = "Replace existing related work" if replace else "Generate related work"
    applied, message = await apply_all_or_nothing(server, edit, edits, snapshot.texts, root.parent, label)
    if not applied:
        raise GenerationError(f"{label} was not applied: {message}")
    return applied


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
            result: GenerateResult = await state.run(generate, state, snapshot, replace, task)
            applied = await apply_result(server, root, snapshot, result, replace, task)
        except Exception as exc:
            if not task.cancelled() and not isinstance(exc, Cancelled):
                if isinstance(exc, GenerationError | UseCaseFailed):
                    task.outcome = f"failed: {exc}"
                    server.warn(f"relatex: {exc}")
                    return {"applied": False, "error": str(exc)}
                raise
            server.warn("relatex: related-work generation cancelled; the draft is unchanged")
            return {"applied": False, "cancelled": True}
    for warning in result.section.warnings:
        server.warn(f"relatex: {warning}", types.MessageType.Info)
    return {
        "applied": applied,
        "cited_keys": list(result.section.cited_keys),
        "new_entries": [e.key for e in result.section.new_entries],
        "used_llm": result.section.used_llm,
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
