"""``relatex.addEntry`` (the command of a knowledge-base completion item): add the paper's
BibTeX entry to the project's bibliography, pinned to the versions it was planned on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from relatex.analysis.latex.project_boundary import OutsideProjectError
from relatex.retrieval.records import PaperRecord
from relatex.server.documents import uri_to_path
from relatex.server.features.completion import ADD_ENTRY_COMMAND
from relatex.server.features.edit_rollback import apply_all_or_nothing
from relatex.server.features.progress import ProgressTask
from relatex.server.features.quick_fixes import add_entry_edits
from relatex.server.features.workspace_edits import build_workspace_edit
from relatex.workflows.check_project import ProjectSnapshot

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer


async def apply_entry(server: RelatexServer, snapshot: ProjectSnapshot, record: PaperRecord,
                      key: str) -> dict[str, Any]:
    """Plan the entry's edits (again on a fresh snapshot when the texts moved on) and apply them
    all or nothing."""
    state = server.state
    edits = add_entry_edits(snapshot, record, key)
    versions = state.current_versions(snapshot, edits)
    if versions is None:
        snapshot = await state.fresh_snapshot(snapshot.root)
        edits = add_entry_edits(snapshot, record, key)
        versions = state.current_versions(snapshot, edits)
    try:
        edit = build_workspace_edit(server, edits, snapshot.root.parent, snapshot.texts, versions)
    except OutsideProjectError as exc:
        server.warn(f"relatex: {exc}")
        return {"applied": False, "error": str(exc)}
    applied, message = await apply_all_or_nothing(server, edit, edits, snapshot.texts,
                                                  snapshot.root.parent, f"Add {key}")
    if not applied:
        server.warn(f"relatex: Add {key}: {message}")
    return {"applied": applied, "key": key}


async def add_entry(server: RelatexServer, record_id: str, key: str, uri: str) -> dict[str, Any]:
    """Add the knowledge-base record ``record_id`` as ``key`` to the bibliography of ``uri``'s project."""
    state = server.state
    snapshot = state.roots.snapshot_for(uri_to_path(uri))
    kb = state.knowledge_base()
    if snapshot is None or kb is None:
        server.warn("relatex: cannot add the entry: no project or no knowledge base")
        return {"applied": False}
    if key in snapshot.entries_by_key():
        return {"applied": False, "reason": "already defined"}
    async with ProgressTask(server, f"relatex: adding {key}") as task:
        task.report("rendering the entry", 0.3)
        record = await state.run(kb.get, record_id)
        if record is None:
            server.warn(f"relatex: {record_id} is not in the knowledge base")
            return {"applied": False}
        return await apply_entry(server, snapshot, record, key)


def register(server: RelatexServer) -> None:
    @server.command(ADD_ENTRY_COMMAND)
    @server.guarded("add entry", default={"applied": False})
    async def add_entry_command(*args: Any) -> dict[str, Any]:
        if len(args) < 3 or not all(isinstance(a, str) for a in args[:3]):
            raise ValueError("relatex.addEntry expects (record id, key, document uri)")
        return await add_entry(server, str(args[0]), str(args[1]), str(args[2]))
