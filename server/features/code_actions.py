"""Code actions: the "Generate related work" source action and quick fixes for diagnostics."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.analysis.latex.project_boundary import OutsideProjectError
from relatex.analysis.latex.project_model import Section
from relatex.server.documents import uri_to_path
from relatex.server.features.hover import snapshot_for
from relatex.server.features.knowledge_base import knowledge_base_actions
from relatex.server.features.quick_fixes import fixes_for
from relatex.server.features.workspace_edits import build_workspace_edit
from relatex.workflows.check_project import ProjectSnapshot

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)

GENERATE_COMMAND = "relatex.generateRelatedWork"
GENERATE_KIND = types.CodeActionKind.Source + ".relatex.generateRelatedWork"
REPLACE_COMMAND = "relatex.replaceRelatedWork"
REPLACE_KIND = types.CodeActionKind.Source + ".relatex.replaceRelatedWork"


def wanted(only: Sequence[str] | None, kind: str) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


def current_versions(server: RelatexServer, snapshot: ProjectSnapshot, edits: Sequence[Any]) -> dict[Path, int | None] | None:
    """Versions of the edited documents when the snapshot's text is still theirs; None when stale."""
    versions: dict[Path, int | None] = {}
    for edit in edits:
        path = Path(edit.path).resolve()
        doc = server.state.document_for_path(path)
        if path in snapshot.texts and not server.state.unchanged(path, snapshot.texts[path]):
            return None
        versions[path] = doc.version if doc is not None else None
    return versions


def related_section_of(snapshot: ProjectSnapshot | None) -> tuple[Section, int] | None:
    """The draft's existing related-work part and how many lines replacing it removes, or None."""
    if snapshot is None or snapshot.project is None:
        return None
    from relatex.writing.placement import find_related_section, replaced_lines  # heavy: on first use

    existing = find_related_section(snapshot.project)
    return None if existing is None else (existing, replaced_lines(snapshot.project, existing))


def register(server: RelatexServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.Source, GENERATE_KIND, REPLACE_KIND],
        resolve_provider=False,
    ))
    @server.guarded("code actions", default=[])
    async def code_actions(params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        path = uri_to_path(uri)
        only = params.context.only
        actions: list[types.CodeAction] = []
        snapshot = snapshot_for(server, path)
        fix_diagnostics = [d for d in params.context.diagnostics
                           if d.source == "relatex" and isinstance(d.data, dict)]
        if snapshot is not None and wanted(only, types.CodeActionKind.QuickFix):
            for diagnostic in fix_diagnostics:
                try:
                    fixes = await server.state.run(fixes_for, server.state, snapshot, dict(diagnostic.data or {}))
                except Exception as exc:
                    server.report_once("quick fixes", exc)
                    continue
                for title, edits in fixes:
                    versions = current_versions(server, snapshot, edits)
                    if versions is None:
                        continue  # planned on stale text: the next request gets a fresh one
                    try:
                        edit = build_workspace_edit(server, edits, snapshot.root.parent, snapshot.texts, versions)
                    except OutsideProjectError as exc:
                        log.warning("quick fix '%s' not offered: %s", title, exc)
                        continue
                    actions.append(types.CodeAction(
                        title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                        edit=edit, is_preferred=len(fixes) == 1 or None,
                    ))
        actions += [a for a in knowledge_base_actions(server, uri) if wanted(only, str(a.kind))]
        if path.suffix.lower() == ".tex" and wanted(only, GENERATE_KIND):
            actions.append(types.CodeAction(
                title="Generate related work",
                kind=GENERATE_KIND,
                command=types.Command(title="Generate related work", command=GENERATE_COMMAND, arguments=[uri]),
            ))
        found = related_section_of(snapshot) if path.suffix.lower() == ".tex" and wanted(only, REPLACE_KIND) else None
        if found is not None:
            existing, removed = found
            title = (f"Replace existing related work (\"{existing.title}\", {existing.path.name}: "
                     f"removes {removed} lines)")
            actions.append(types.CodeAction(title=title, kind=REPLACE_KIND, command=types.Command(
                title=title, command=REPLACE_COMMAND, arguments=[uri])))
        return actions
