"""Document sync (incremental) and file-system changes: keep each root's project model fresh.

pygls keeps the open documents (see :mod:`relatex.server.documents`) and applies each change
before these handlers run; they only follow the documents and schedule a debounced
re-analysis of the roots a file belongs to. Nothing here waits for analysis.

``relatex/documentText`` (a custom request) returns the server's view of a document so that
clients and tests can check that incremental sync kept it identical to theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.server.documents import uri_to_path

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)

TEX_SUFFIXES = (".tex", ".ltx", ".latex")
DOCUMENT_TEXT = "relatex/documentText"


def _is_bib(path: Path) -> bool:
    return path.name.endswith((".bib", ".bib.gz"))


def schedule_roots(server: RelatexServer, roots: set[Path], immediate: bool = False) -> None:
    """Re-analyse ``roots`` now, or after the debounce delay."""
    delay = 0.0 if immediate else server.settings.debounce_ms / 1000.0
    server.state.scheduler.reanalyse(roots, delay)


def roots_for_change(server: RelatexServer, path: Path) -> set[Path]:
    """Roots to re-analyse when ``path`` changed (finding the root of a new .tex file)."""
    state = server.state
    roots = state.roots.roots_for(path)
    if not roots and path.suffix.lower() in TEX_SUFFIXES:
        root = state.find_root(path)
        state.roots.root_of[path] = root
        roots = {root}
    elif not roots and _is_bib(path):
        # which project uses this .bib is known only after an analysis: re-run the pending ones
        roots = set(state.roots.generations)
    return roots


def reanalyse_all(server: RelatexServer) -> None:
    schedule_roots(server, server.state.roots.known_roots(), immediate=True)


def _changed(server: RelatexServer, path: Path, immediate: bool) -> None:
    """A document's text changed: re-analyse its roots, or publish a .bib no project uses."""
    roots = roots_for_change(server, path)
    publisher = server.state.scheduler.publisher
    if roots:
        schedule_roots(server, roots, immediate)
    elif _is_bib(path) and publisher is not None:
        publisher.publish_standalone_bib(path)


def document_text(server: RelatexServer, params: Any) -> dict[str, Any] | None:
    """The server's text and version of an open document (None when it is not open)."""
    uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
    doc = server.state.document(str(uri)) if uri else None
    if doc is None:
        return None
    return {"uri": doc.uri, "version": doc.version, "text": doc.text}


def _watched_roots(server: RelatexServer, changes: Sequence[types.FileEvent]) -> set[Path]:
    """Roots of the files changed on disk (files open in the editor excepted: their text wins)."""
    state = server.state
    roots: set[Path] = set()
    for event in changes:
        try:
            path = uri_to_path(event.uri)
        except ValueError:
            continue
        if state.document_for_path(path) is not None:
            continue
        found = state.roots.roots_for(path)
        if not found:  # its project may be in its first analysis, which read the file before this change
            found = {root for root in state.roots.generations if root not in state.roots.snapshots}
        roots |= found
        if event.type == types.FileChangeType.Deleted and path in state.roots.snapshots:
            roots.add(path)
    return roots


def register(server: RelatexServer) -> None:
    documents = server.state.open_documents

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        try:
            doc = documents.opened(params.text_document.uri)
        except ValueError:  # not a file
            return
        if doc is not None:
            _changed(server, doc.path, immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        doc = documents.get(params.text_document.uri)
        if doc is None:
            log.warning("change for a document that is not open: %s", params.text_document.uri)
            return
        _changed(server, doc.path, immediate=False)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        doc = documents.get(params.text_document.uri)
        if doc is not None:
            schedule_roots(server, roots_for_change(server, doc.path), immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        doc = documents.closed(params.text_document.uri)
        if doc is not None:
            schedule_roots(server, server.state.roots.roots_for(doc.path), immediate=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(params: types.DidChangeWatchedFilesParams) -> None:
        schedule_roots(server, _watched_roots(server, params.changes))

    @server.feature(DOCUMENT_TEXT)
    def on_document_text(params: Any) -> dict[str, Any] | None:
        return document_text(server, params)
