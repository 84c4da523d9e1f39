"""The documents the editor has open, kept once: in pygls' workspace.

pygls stores every open document and applies each ``didChange`` before the server's own
handler runs. :class:`EditorWorkspace` makes those documents :class:`EditorDocument`\\ s, which
apply an incremental change by slicing the text at offsets found by a cached
:class:`~relatex.server.positions.PositionMapper` (LSP line breaks only: ``\\n``, ``\\r\\n``,
``\\r``; UTF-16 columns), instead of re-joining every line of the document in Python.

:class:`Documents` is what the features use: each open document's path and version, its text
(the same string object pygls holds: looking it up costs nothing, whatever its size), the
texts of all open documents as overlays for the project loader, and position conversion.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from relatex.analysis.bib.bibtex import load_bib_file
from relatex.analysis.text_files import read_text
from relatex.server.positions import PositionMapper, mapper_for_file

log = logging.getLogger(__name__)

BIB_SUFFIXES = (".bib", ".bib.gz")


def uri_to_path(uri: str) -> Path:
    """The absolute resolved file path of a ``file://`` URI."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("file", ""):
        raise ValueError(f"not a file URI: {uri}")
    return _resolved(unquote(parsed.path))


@functools.lru_cache(maxsize=4096)
def _resolved(path: str) -> Path:
    """``path`` with its symbolic links resolved, once per path (each request names a document,
    and resolving costs a system call per folder)."""
    return Path(path).resolve()


def path_to_uri(path: Path) -> str:
    return path.resolve().as_uri()


class EditorDocument(TextDocument):
    """pygls' text document, with changes applied at offsets of a cached position mapper."""

    _mapper: PositionMapper | None = None

    def mapper(self) -> PositionMapper:
        """Position conversion for the current text (built again only after a change)."""
        text = self.source
        mapper = self._mapper
        if mapper is None or mapper.text is not text:
            mapper = self._mapper = PositionMapper(text)
        return mapper

    def apply_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        """Apply one ``didChange`` content change (a range edit, or the whole new text)."""
        if isinstance(change, types.TextDocumentContentChangePartial):
            text = self.source
            start, end = self.mapper().offsets(change.range)
            self._source = text[:start] + change.text + text[end:]
        else:
            self._source = change.text


class EditorWorkspace(Workspace):
    """pygls' workspace whose text documents are :class:`EditorDocument`\\ s."""

    def _create_text_document(self, doc_uri: str, source: str | None = None, version: int | None = None,
                              language_id: str | None = None) -> TextDocument:
        return EditorDocument(doc_uri, source=source, version=version, language_id=language_id,
                              sync_kind=types.TextDocumentSyncKind.Incremental, position_codec=self.position_codec)

    @classmethod
    def adopt(cls, workspace: Workspace) -> EditorWorkspace:
        """An editor workspace with the folders, root and documents of ``workspace``."""
        adopted = cls(workspace.root_uri, types.TextDocumentSyncKind.Incremental,
                      list(workspace.folders.values()), workspace.position_encoding)
        for uri, doc in workspace.text_documents.items():
            adopted.put_text_document(types.TextDocumentItem(
                uri=uri, language_id=doc.language_id or "", version=doc.version or 0, text=doc.source))
        return adopted


class OpenDocument:
    """A document the editor has open: its text is authoritative over the disk.

    A view of pygls' document: ``text`` and ``version`` are read from it, never copied.
    """

    __slots__ = ("document", "language_id", "path", "uri")

    def __init__(self, uri: str, path: Path, document: TextDocument, language_id: str = "") -> None:
        self.uri = uri
        self.path = path
        self.document = document
        self.language_id = language_id

    @property
    def text(self) -> str:
        return self.document.source

    @property
    def version(self) -> int:
        return self.document.version or 0

    def mapper(self) -> PositionMapper:
        """Position conversion for the current text (cached per text)."""
        if isinstance(self.document, EditorDocument):
            return self.document.mapper()
        return mapper_for_file(self.path, self.text)

    def __repr__(self) -> str:
        return f"OpenDocument({self.uri!r}, version={self.version})"


class Documents:
    """The open documents, by URI and by path, read from pygls' workspace.

    ``workspace`` returns the server's pygls workspace; without it (unit use) the documents live
    in a workspace of their own.
    """

    def __init__(self, workspace: Callable[[], Workspace] | None = None) -> None:
        if workspace is None:
            standalone = EditorWorkspace(None)
            workspace = lambda: standalone  # noqa: E731
        self._workspace = workspace
        self.by_uri: dict[str, OpenDocument] = {}
        self._by_path: dict[Path, OpenDocument] = {}

    def opened(self, uri: str) -> OpenDocument | None:
        """Start following a document pygls has just opened (None when it has not)."""
        document = self._workspace().text_documents.get(unquote(uri))
        if document is None:
            return None
        view = OpenDocument(uri, uri_to_path(uri), document, document.language_id or "")
        self.closed(uri)
        self.by_uri[uri] = view
        self._by_path[view.path] = view
        return view

    def open(self, uri: str, version: int, text: str, language_id: str = "") -> OpenDocument:
        """Open a document in the workspace and follow it (what pygls does on ``didOpen``)."""
        uri_to_path(uri)  # a URI that is not a file is refused before pygls stores it
        self._workspace().put_text_document(
            types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text))
        view = self.opened(uri)
        assert view is not None
        return view

    def closed(self, uri: str) -> OpenDocument | None:
        """Stop following a document (pygls has already dropped it on ``didClose``)."""
        view = self.by_uri.pop(uri, None)
        if view is not None and self._by_path.get(view.path) is view:
            del self._by_path[view.path]
            other = next((d for d in self.by_uri.values() if d.path == view.path), None)
            if other is not None:  # the same file under a second URI
                self._by_path[view.path] = other
        return view

    def close(self, uri: str) -> OpenDocument | None:
        """Close a document in the workspace and stop following it."""
        self._workspace().remove_text_document(uri)
        return self.closed(uri)

    def get(self, uri: str) -> OpenDocument | None:
        return self.by_uri.get(uri)

    def for_path(self, path: Path) -> OpenDocument | None:
        return self._by_path.get(path)

    def __iter__(self) -> Iterator[OpenDocument]:
        return iter(list(self.by_uri.values()))

    def __len__(self) -> int:
        return len(self.by_uri)

    def overlays(self) -> dict[Path, str]:
        """path -> the editor's text of every open document (no text is copied)."""
        return {doc.path: doc.text for doc in self.by_uri.values()}

    def text_of(self, path: Path) -> str | None:
        """The editor's text of a file when open, else the disk's (None when unreadable)."""
        doc = self.for_path(path)
        if doc is not None:
            return doc.text
        try:
            return read_text(path)[0]
        except OSError:
            return None

    def unchanged(self, path: Path, text: str) -> bool:
        """Whether ``text`` is still the file's current text (the editor's when open, else the
        disk's). A .bib file on disk is compared through the BibTeX cache, so an unchanged
        100k-entry file is not read again (it may be parsed again when it changed)."""
        doc = self.for_path(path)
        if doc is not None:
            return doc.text == text
        if path.name.endswith(BIB_SUFFIXES):
            try:
                return load_bib_file(path).text == text
            except OSError:
                return False
        return self.text_of(path) == text

    def versions_if_current(self, texts: Mapping[Path, str], paths: Iterable[Path]) -> dict[Path, int | None] | None:
        """The version of each of ``paths`` (None for a file that is not open) while every one
        of them that ``texts`` holds still has that text; None when one of them changed."""
        versions: dict[Path, int | None] = {}
        for path in paths:
            if path in texts and not self.unchanged(path, texts[path]):
                return None
            doc = self.for_path(path)
            versions[path] = doc.version if doc is not None else None
        return versions
