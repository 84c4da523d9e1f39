"""Soak: thousands of random incremental edits to a thesis-size project.

After every batch the server's view of the document (``relatex/documentText``) must equal the
client's, and no request (hover, completion, definition, symbols) may fail meanwhile.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from bench.make_thesis import make_thesis
from relatex.server.positions import PositionMapper
from tests.server.conftest import SERVER_COMMAND

PIECES = ["a", "b", " ", "\n", "\r\n", "é", "😀", "{", "}", "\\cite{", "paper00012", ",", ".", "\\section{X}", "%",
          "𝔸"]
EDIT_COUNT = 1500


def random_edits(rng: random.Random, count: int) -> list[tuple[float, int, str, bool]]:
    """(where in [0, 1], characters deleted, text inserted, batched with the next) per edit."""
    return [(rng.random(), rng.choice([0, 0, 1, 2, 5, 40]), "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6))),
             rng.random() < 0.2) for _ in range(count)]
TIME_BUDGET_S = 15.0


def _no_crlf_split(text: str, offset: int) -> int:
    """Editors never address the middle of a CRLF."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset - 1
    return offset


async def soak(root_dir: Path, kb_data_dir: Path, edits: list[tuple[float, int, str, bool]], profile: str) -> int:
    client = await ClientServerConfig(server_command=SERVER_COMMAND).start()
    assert isinstance(client, LanguageClient)
    done = 0
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities(profile), root_uri=root_dir.as_uri(),
            initialization_options={"knowledgeBase": {"dataDir": str(kb_data_dir), "embeddingModel": "hashing-256"},
                                    "debounceMs": 5}))
        chapter = root_dir / "chapters" / "ch02.tex"
        uri = chapter.resolve().as_uri()
        text = chapter.read_text(encoding="utf-8")
        version = 1
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="latex", version=1, text=text)))
        doc = types.TextDocumentIdentifier(uri=uri)
        started = time.monotonic()
        pending: list[types.TextDocumentContentChangeEvent] = []
        for index, (where, length, insert, batch) in enumerate(edits):
            start = _no_crlf_split(text, int(where * len(text)))
            end = _no_crlf_split(text, min(len(text), start + length))
            pending.append(types.TextDocumentContentChangePartial(range=PositionMapper(text).range(start, end),
                                                                  text=insert))
            text = text[:start] + insert + text[end:]
            if not batch or len(pending) >= 4:  # several content changes in one notification too
                version += 1
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=pending))
                pending = []
            done = index + 1
            if index % 40 == 0:
                position = PositionMapper(text).position(start)
                await client.text_document_hover_async(types.HoverParams(text_document=doc, position=position))
                await client.text_document_completion_async(types.CompletionParams(text_document=doc,
                                                                                   position=position))
                await client.text_document_definition_async(types.DefinitionParams(text_document=doc,
                                                                                   position=position))
                await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc))
            if index % 100 == 99 and not pending:
                view = await client.protocol.send_request_async("relatex/documentText", {"uri": uri})
                assert getattr(view, "text", None) == text and getattr(view, "version", None) == version
            if time.monotonic() - started > TIME_BUDGET_S:
                break
        if pending:
            version += 1
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=pending))
        view = await client.protocol.send_request_async("relatex/documentText", {"uri": uri})
        assert getattr(view, "text", None) == text and getattr(view, "version", None) == version
        assert client.error is None
        assert not [m for m in client.messages if m.type == types.MessageType.Error]
        await asyncio.wait_for(client.shutdown_session(), 10)
    finally:
        await asyncio.wait_for(client.stop(), 10)
    return done


@pytest.mark.slow
@settings(max_examples=1, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["visual-studio-code", "neovim"]))
def test_server_view_always_equals_the_client_view(tmp_path: Path, kb_data_dir: Path, seed: int,
                                                   profile: str) -> None:
    rng = random.Random(seed)
    root_dir = Path(tempfile.mkdtemp(dir=tmp_path))
    make_thesis(root_dir, None, chapters=20, citations=500)
    done = asyncio.run(soak(root_dir, kb_data_dir, random_edits(rng, EDIT_COUNT), profile))
    assert done >= 300  # enough edits ran within the time budget
