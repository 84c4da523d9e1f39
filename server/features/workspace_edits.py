"""Domain ``TextEdit``s (character offsets) -> one LSP ``WorkspaceEdit`` and applying it.

Edits become versioned ``TextDocumentEdit``s (the client refuses them if the document moved
on) and ``CreateFile`` operations for files that do not exist yet; clients without
``documentChanges`` support get a plain ``changes`` map.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types

from relatex.analysis.latex.project_boundary import check_writable
from relatex.analysis.text_files import dominant_newline, with_newlines
from relatex.server.documents import path_to_uri
from relatex.server.positions import mapper_for_file

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)


class OffsetEdit(Protocol):
    """The shape of :class:`relatex.analysis.edits.TextEdit`."""

    path: Path
    start: int
    end: int
    new_text: str


class StaleEdit(Exception):
    """The document changed since the edits were planned."""


def supports_document_changes(server: RelatexServer) -> bool:
    caps = server.client_capabilities
    edit = caps.workspace.workspace_edit if caps and caps.workspace else None
    return bool(edit and edit.document_changes)


def supports_create(server: RelatexServer) -> bool:
    caps = server.client_capabilities
    edit = caps.workspace.workspace_edit if caps and caps.workspace else None
    kinds = (edit.resource_operations or []) if edit else []
    return types.ResourceOperationKind.Create in kinds


def build_workspace_edit(server: RelatexServer, edits: Sequence[Any], root_dir: Path,
                         base_texts: Mapping[Path, str] | None = None,
                         versions: Mapping[Path, int | None] | None = None) -> types.WorkspaceEdit:
    """One WorkspaceEdit for ``edits``; offsets refer to ``base_texts`` (default: current texts).

    ``versions`` pins the document versions the edits were planned on; when omitted, the
    versions of the open documents now are used. Raises
    :class:`~relatex.analysis.latex.project_boundary.OutsideProjectError` when an edit targets a file
    outside the project folder ``root_dir`` (or not a .tex/.bib file).
    """
    state = server.state
    check_writable(root_dir, [Path(edit.path) for edit in edits])
    by_path: dict[Path, list[Any]] = {}
    for edit in edits:
        by_path.setdefault(Path(edit.path).resolve(), []).append(edit)
    document_changes: list[Any] = []
    changes: dict[str, list[types.TextEdit]] = {}
    for path, path_edits in by_path.items():
        uri = path_to_uri(path)
        doc = state.document_for_path(path)
        exists = doc is not None or path.exists()
        if base_texts is not None and path in base_texts:
            text = base_texts[path]
        else:
            text = (state.text_of(path) or "") if exists else ""
        mapper = mapper_for_file(path, text)
        newline = dominant_newline(text)  # inserted lines take the document's line endings
        lsp_edits = [
            types.TextEdit(range=mapper.range(e.start, e.end), new_text=with_newlines(e.new_text, newline))
            for e in sorted(path_edits, key=lambda e: (e.start, e.end))
        ]
        changes[uri] = lsp_edits
        if not exists:
            document_changes.append(types.CreateFile(uri=uri, options=types.CreateFileOptions(ignore_if_exists=True)))
        version = versions.get(path) if versions is not None and path in versions else (doc.version if doc else None)
        document_changes.append(types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            edits=list(lsp_edits),
        ))
    if supports_document_changes(server):
        return types.WorkspaceEdit(document_changes=document_changes)
    return types.WorkspaceEdit(changes=changes)
