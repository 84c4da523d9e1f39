"""All or nothing for multi-file workspace edits.

A client may apply the first file of a ``WorkspaceEdit`` and refuse the next (a version check on
the .bib after the user touched it): the section would then cite keys that have no entry. After a
refusal, every file the edit did change is found (its text is now the edited text, not the
planned-on one) and changed back with one more edit, and the refusal is reported as a failure.
A client that declares it rolls a refused edit back itself (``failureHandling``) is left to do so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.analysis.edits import TextEdit, apply_edits
from relatex.server.features.workspace_edits import build_workspace_edit

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)

SETTLE_SECONDS = 2.0  # how long the client's didChange for an applied part may lag its answer
_ROLLS_BACK = (types.FailureHandlingKind.Transactional, types.FailureHandlingKind.Undo)


def client_rolls_back(server: RelatexServer, edit: types.WorkspaceEdit) -> bool:
    """Whether the client itself undoes what it applied of a refused ``edit`` (its
    ``workspaceEdit.failureHandling``: transactional or undo, or text-only transactional for an edit
    that creates no file): then relatex must not undo it a second time."""
    caps = server.client_capabilities
    edit_caps = caps.workspace.workspace_edit if caps and caps.workspace else None
    handling = edit_caps.failure_handling if edit_caps else None
    if handling in _ROLLS_BACK:
        return True
    text_only = all(isinstance(op, types.TextDocumentEdit) for op in edit.document_changes or [])
    return handling == types.FailureHandlingKind.TextOnlyTransactional and text_only


def inverse_edits(path: Path, base: str, edits: Sequence[Any]) -> list[TextEdit]:
    """Edits that turn ``apply_edits(base, edits)`` back into ``base``."""
    inverse: list[TextEdit] = []
    shift = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        start = edit.start + shift
        inverse.append(TextEdit(path, start, start + len(edit.new_text), base[edit.start:edit.end]))
        shift += len(edit.new_text) - (edit.end - edit.start)
    return inverse


async def _applied_files(server: RelatexServer, by_path: Mapping[Path, list[Any]],
                         base_texts: Mapping[Path, str]) -> dict[Path, str]:
    """path -> edited text, for the files whose current text is the edited one."""
    expected = {path: apply_edits(base_texts.get(path, ""), items) for path, items in by_path.items()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_SECONDS
    while True:
        current = {path: server.state.text_of(path) for path in by_path}
        applied = {path: text for path, text in expected.items() if current[path] == text}
        unsettled = [p for p in by_path if current[p] not in (expected[p], base_texts.get(p, ""), None)]
        if not unsettled or loop.time() > deadline:
            return applied
        await asyncio.sleep(0.05)


async def apply_all_or_nothing(server: RelatexServer, edit: types.WorkspaceEdit, edits: Sequence[Any],
                               base_texts: Mapping[Path, str], root_dir: Path, label: str) -> tuple[bool, str]:
    """Send ``edit``; on a refusal undo what the client applied of it. Returns (applied, message)."""
    result = await server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
    if result.applied:
        return True, "applied"
    reason = result.failure_reason or "the editor refused the edit"
    if client_rolls_back(server, edit):
        return False, f"{reason}; the editor keeps none of an edit it refuses"
    by_path: dict[Path, list[Any]] = {}
    for item in edits:
        by_path.setdefault(Path(item.path).resolve(), []).append(item)
    bases = {Path(p).resolve(): t for p, t in base_texts.items()}
    applied = await _applied_files(server, by_path, bases)
    if not applied:
        return False, f"{reason}; nothing was changed"
    undo = [inv for path in applied for inv in inverse_edits(path, bases.get(path, ""), by_path[path])]
    versions = {path: (doc.version if (doc := server.state.document_for_path(path)) else None) for path in applied}
    names = ", ".join(sorted(p.name for p in applied))
    log.warning("%s: the client applied part of the edit (%s) and refused the rest: %s", label, names, reason)
    undo_edit = build_workspace_edit(server, undo, root_dir, applied, versions)
    undone = await server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=undo_edit, label=f"Undo {label}"))
    if undone.applied:
        return False, f"{reason}; the part already applied to {names} was undone"
    return False, f"{reason}; the part applied to {names} could not be undone ({undone.failure_reason or 'refused'})"
