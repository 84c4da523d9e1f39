"""Commands: reindex, verify the bibliography, check claims, add an entry; and a text probe.

``relatex/documentText`` (a custom request) returns the server's view of a document so that
clients and tests can check that incremental sync kept it identical to theirs.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from relatex.analysis.latex.project_boundary import OutsideProjectError
from relatex.server.features.checks import background_pass
from relatex.server.features.code_actions import current_versions
from relatex.server.features.completion import ADD_ENTRY_COMMAND
from relatex.server.features.edit_rollback import apply_all_or_nothing
from relatex.server.features.generate_action import fresh_snapshot
from relatex.server.features.hover import snapshot_for
from relatex.server.features.knowledge_base import index_paths
from relatex.server.features.progress import ProgressTask
from relatex.server.features.quick_fixes import add_entry_edits
from relatex.server.features.workspace_edits import build_workspace_edit
from relatex.server.workspace_state import BackgroundResults, ProjectSnapshot, uri_to_path

if TYPE_CHECKING:
    from relatex.server.lsp_server import RelatexServer

log = logging.getLogger(__name__)

REINDEX = "relatex.reindex"
VERIFY = "relatex.verifyBibliography"
CHECK_CLAIMS = "relatex.checkClaims"
DOCUMENT_TEXT = "relatex/documentText"


def reindex(server: RelatexServer, task: ProgressTask) -> dict[str, Any]:
    """Index ``knowledgeBase.sources`` into the knowledge base (runs in the executor)."""
    sources = [Path(source).expanduser() for source in server.settings.knowledge_base.sources]
    if not sources:
        server.warn("relatex: no knowledge-base sources configured (relatex.knowledgeBase.sources); "
                    "\"Build knowledge base from this project\" indexes the project's .bib files")
        return {"indexed": 0}
    return {"indexed": index_paths(server, task, sources, by_path=False)["added"]}


async def recheck(server: RelatexServer, uri: str | None, task: ProgressTask, claims: bool) -> dict[str, Any]:
    """Run the background checks of a root now (verification, optionally claims) and publish."""
    state = server.state
    snapshot: ProjectSnapshot | None = None
    if uri is not None:
        snapshot = snapshot_for(server, uri_to_path(uri))
    if snapshot is None and state.snapshots:
        snapshot = next(iter(state.snapshots.values()))
    if snapshot is None:
        server.warn("relatex: open a .tex file of the draft first")
        return {"checked": 0}
    task.report("checking", 0.1)
    result: BackgroundResults = await state.run(background_pass, state, snapshot, task.cancelled, None, claims)
    if state.generation(snapshot.root) == snapshot.generation:
        state.background[snapshot.root] = result
        from relatex.server.features.diagnostics import publish_snapshot

        publish_snapshot(server, snapshot)
    statuses: dict[str, int] = {}
    for verdict in result.verdicts.values():
        status = str(getattr(verdict, "status", "unchecked"))
        statuses[status] = statuses.get(status, 0) + 1
    labels: dict[str, int] = {}
    for claim in result.claims:
        labels[claim.verdict.label] = labels.get(claim.verdict.label, 0) + 1
    return {"verdicts": statuses, "claims": labels, "findings": len(result.findings)}


def register(server: RelatexServer) -> None:
    state = server.state

    @server.command(REINDEX)
    @server.guarded("reindex", default={"indexed": 0})
    async def reindex_command(*args: Any) -> dict[str, Any]:
        async with ProgressTask(server, "relatex: indexing the knowledge base") as task:
            result: dict[str, Any] = await state.run(reindex, server, task)
        from relatex.server.features.sync import reanalyse_all

        reanalyse_all(server)
        return result

    @server.command(VERIFY)
    @server.guarded("verify bibliography", default={})
    async def verify_command(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        async with ProgressTask(server, "relatex: verifying the bibliography") as task:
            return await recheck(server, uri, task, claims=False)

    @server.command(CHECK_CLAIMS)
    @server.guarded("check claims", default={})
    async def claims_command(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        async with ProgressTask(server, "relatex: checking claims") as task:
            return await recheck(server, uri, task, claims=True)

    @server.command(ADD_ENTRY_COMMAND)
    @server.guarded("add entry", default={"applied": False})
    async def add_entry_command(*args: Any) -> dict[str, Any]:
        if len(args) < 3 or not all(isinstance(a, str) for a in args[:3]):
            raise ValueError("relatex.addEntry expects (record id, key, document uri)")
        record_id, key, uri = str(args[0]), str(args[1]), str(args[2])
        snapshot = snapshot_for(server, uri_to_path(uri))
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
            edits = add_entry_edits(snapshot, record, key)
            versions = current_versions(server, snapshot, edits)
            if versions is None:
                snapshot = await fresh_snapshot(server, snapshot.root)
                edits = add_entry_edits(snapshot, record, key)
                versions = current_versions(server, snapshot, edits)
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

    @server.feature(DOCUMENT_TEXT)
    def document_text(params: Any) -> dict[str, Any] | None:
        uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        doc = state.document(str(uri)) if uri else None
        if doc is None:
            return None
        return {"uri": doc.uri, "version": doc.version, "text": doc.text}
