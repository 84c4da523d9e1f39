"""Document sync (incremental) and file-system changes: keep each root's project model fresh.

Edits only update the in-memory text and schedule a debounced re-analysis of the roots the
file belongs to; nothing here waits for analysis.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from relatex.server.positions import apply_change
from relatex.server.workspace_state import uri_to_path

if TYPE_CHECKING:
    from relatex.server.lsp_server import RelatexServer

log = logging.getLogger(__name__)

TEX_SUFFIXES = (".tex", ".ltx", ".latex")


def _is_bib(path: Path) -> bool:
    return path.name.endswith((".bib", ".bib.gz"))


def schedule_roots(server: RelatexServer, roots: set[Path], immediate: bool = False) -> None:
    from relatex.server.features.diagnostics import analyse

    delay = 0.0 if immediate else server.settings.debounce_ms / 1000.0
    for root in roots:
        server.state.schedule(root, delay, lambda r, g: analyse(server, r, g))


def roots_for_change(server: RelatexServer, path: Path) -> set[Path]:
    """Roots to re-analyse when ``path`` changed (finding the root of a new .tex file)."""
    roots = server.state.roots_for(path)
    if not roots and path.suffix.lower() in TEX_SUFFIXES:
        root = server.state.find_root(path)
        server.state.root_of[path] = root
        roots = {root}
    elif not roots and _is_bib(path):
        # which project uses this .bib is known only after an analysis: re-run the pending ones
        roots = set(server.state.generations)
    return roots


def reanalyse_all(server: RelatexServer) -> None:
    roots = set(server.state.snapshots) | set(server.state.root_of.values())
    schedule_roots(server, roots, immediate=True)


def register(server: RelatexServer) -> None:
    state = server.state

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        try:
            doc = state.open(item.uri, item.version, item.text, item.language_id)
        except ValueError:
            return
        roots = roots_for_change(server, doc.path)
        if roots:
            schedule_roots(server, roots, immediate=True)
        elif _is_bib(doc.path):
            from relatex.server.features.diagnostics import publish_standalone_bib

            publish_standalone_bib(server, doc.path)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        doc = state.document(params.text_document.uri)
        if doc is None:
            log.warning("change for a document that is not open: %s", params.text_document.uri)
            return
        text = doc.text
        for change in params.content_changes:
            text = apply_change(text, change, doc.mapper() if text is doc.text else None)
        doc.text = text
        doc.version = params.text_document.version
        roots = roots_for_change(server, doc.path)
        if roots:
            schedule_roots(server, roots)
        elif _is_bib(doc.path):
            from relatex.server.features.diagnostics import publish_standalone_bib

            publish_standalone_bib(server, doc.path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        doc = state.document(params.text_document.uri)
        if doc is not None:
            schedule_roots(server, roots_for_change(server, doc.path), immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        doc = state.close(params.text_document.uri)
        if doc is not None:
            schedule_roots(server, state.roots_for(doc.path), immediate=True)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(params: types.DidChangeWatchedFilesParams) -> None:
        roots: set[Path] = set()
        for event in params.changes:
            try:
                path = uri_to_path(event.uri)
            except ValueError:
                continue
            if state.document_for_path(path) is not None:
                continue  # the editor's text wins over the disk
            roots |= state.roots_for(path)
            if event.type == types.FileChangeType.Deleted and path in state.snapshots:
                roots.add(path)
        schedule_roots(server, roots)
