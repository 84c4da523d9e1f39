"""End-to-end fixtures: a copy of the demo project, a small knowledge base, and an editor-like
LSP client (pytest-lsp) that keeps its own document texts and applies workspace edits the way
VS Code or Neovim would (versions checked, CreateFile honoured, didChange sent back)."""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from relatex.server.documents import uri_to_path
from relatex.server.positions import PositionMapper

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "demo"
SERVER_COMMAND = [sys.executable, "-m", "relatex.server.cli", "serve"]


@pytest.fixture(scope="session")
def kb_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base built from examples/demo/library.bib with the model-free embedder."""
    from relatex.retrieval.embedding import HashingEmbedder
    from relatex.retrieval.knowledge_base import KnowledgeBase
    from relatex.retrieval.sources import open_source

    base = tmp_path_factory.mktemp("kb")
    with KnowledgeBase.open(base / "default", embedder=HashingEmbedder(256)) as kb:
        kb.index(open_source(EXAMPLE / "library.bib"))
    return base


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A fresh copy of the bundled example project."""
    target = tmp_path / "demo"
    shutil.copytree(EXAMPLE, target)
    return target


class Editor:
    """The client side of a session: open documents with versions, edits, applied edits."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.docs: dict[str, tuple[int, str]] = {}
        self.applied: list[types.WorkspaceEdit] = []
        self.refused: list[str] = []

    def open(self, path: Path) -> str:
        uri = path.resolve().as_uri()
        text = path.read_bytes().decode("utf-8")  # line endings as stored, as editors keep them
        self.docs[uri] = (1, text)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="latex" if path.suffix == ".tex" else "bibtex",
                                                 version=1, text=text)))
        return uri

    def text(self, uri: str) -> str:
        return self.docs[uri][1]

    def position(self, uri: str, needle: str, delta: int = 0, occurrence: int = 0) -> types.Position:
        text = self.text(uri)
        index = -1
        for _ in range(occurrence + 1):
            index = text.index(needle, index + 1)
        return PositionMapper(text).position(index + delta)

    def change(self, uri: str, start: int, end: int, new_text: str) -> None:
        version, text = self.docs[uri]
        rng = PositionMapper(text).range(start, end)
        self.docs[uri] = (version + 1, text[:start] + new_text + text[end:])
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new_text)]))

    def insert(self, uri: str, needle: str, new_text: str, after: bool = True) -> None:
        index = self.text(uri).index(needle) + (len(needle) if after else 0)
        self.change(uri, index, index, new_text)

    def apply(self, edit: types.WorkspaceEdit) -> types.ApplyWorkspaceEditResult:
        """Apply like an editor: refuse the whole edit when a version does not match."""
        operations: list[Any] = list(edit.document_changes or [])
        if not operations and edit.changes:
            operations = [types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None), edits=list(edits))
                for uri, edits in edit.changes.items()]
        for op in operations:
            if isinstance(op, types.TextDocumentEdit) and op.text_document.version is not None:
                current = self.docs.get(op.text_document.uri)
                if current is None or current[0] != op.text_document.version:
                    self.refused.append(op.text_document.uri)
                    return types.ApplyWorkspaceEditResult(applied=False, failure_reason="version mismatch")
        for op in operations:
            if isinstance(op, types.CreateFile):
                path = uri_to_path(op.uri)
                if not path.exists():
                    path.write_text("", encoding="utf-8")
            elif isinstance(op, types.TextDocumentEdit):
                uri = op.text_document.uri
                opened = uri in self.docs
                text = self.docs[uri][1] if opened else uri_to_path(uri).read_bytes().decode("utf-8")
                mapper = PositionMapper(text)
                spans = sorted(((*mapper.offsets(e.range), e.new_text) for e in op.edits),
                               key=lambda s: (s[0], s[1]), reverse=True)
                new = text
                for start, end, new_text in spans:
                    new = new[:start] + new_text + new[end:]
                if opened:
                    version = self.docs[uri][0] + 1
                    self.docs[uri] = (version, new)
                    self.client.text_document_did_change(types.DidChangeTextDocumentParams(
                        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                        content_changes=[types.TextDocumentContentChangeWholeDocument(text=new)]))
                else:
                    uri_to_path(uri).write_text(new, encoding="utf-8")
        self.applied.append(edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    def save_all(self) -> None:
        """Write the open documents to disk (as the user saving)."""
        for uri, (_version, text) in self.docs.items():
            uri_to_path(uri).write_text(text, encoding="utf-8")

    async def diagnostics(self, uri: str, predicate: Callable[[list[types.Diagnostic]], bool],
                          timeout: float = 30.0) -> list[types.Diagnostic]:
        """Wait until the diagnostics published for ``uri`` satisfy ``predicate``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            current = list(self.client.diagnostics.get(uri, []))
            if predicate(current):
                return current
            if loop.time() > deadline:
                raise AssertionError(f"diagnostics for {uri} never matched; last: {[d.code for d in current]}")
            await asyncio.sleep(0.05)

    def progress(self, title: str) -> list[Any]:
        """The values of the latest progress bar whose title contains ``title``."""
        bars = [values for values in self.client.progress_reports.values()
                if values and isinstance(values[0], types.WorkDoneProgressBegin) and title in values[0].title]
        return bars[-1] if bars else []

    async def server_text(self, uri: str) -> dict[str, Any]:
        result = await self.client.protocol.send_request_async("relatex/documentText", {"uri": uri})
        return result if isinstance(result, dict) else {"text": result.text, "version": result.version}


StartEditor = Callable[..., Awaitable[Editor]]


@pytest_asyncio.fixture
async def start_editor(kb_data_dir: Path) -> AsyncIterator[StartEditor]:
    """Start a server and initialize it as the given editor profile; shuts everything down after."""
    started: list[LanguageClient] = []

    async def start(root: Path, profile: str = "visual-studio-code", settings: dict[str, Any] | None = None,
                    init: dict[str, Any] | None = None) -> Editor:
        client = await ClientServerConfig(server_command=SERVER_COMMAND).start()
        assert isinstance(client, LanguageClient)
        editor = Editor(client)

        @client.feature(types.WORKSPACE_APPLY_EDIT)
        def apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
            return editor.apply(params.edit)

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register_capability(params: types.RegistrationParams) -> None:
            editor.registrations = list(params.registrations)  # type: ignore[attr-defined]

        options = {"knowledgeBase": {"dataDir": str(kb_data_dir), "embeddingModel": "hashing-256"},
                   "debounceMs": 20, **(init or {})}
        client.set_configuration({"relatex": settings or {}})
        await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities(profile),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=options,
        ))
        started.append(client)
        return editor

    yield start
    for client in started:
        try:
            await asyncio.wait_for(client.shutdown_session(), 10)
        except Exception:
            process = getattr(client, "_server", None)
            if process is not None and process.returncode is None:
                process.kill()
        finally:
            await asyncio.wait_for(client.stop(), 10)
