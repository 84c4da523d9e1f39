"""Hover cards with LLM summaries: from the local fake Messages API, and the abstract fallback.

With ``llm.provider`` "anthropic", the background pass asks the model for a one- or
two-sentence summary of each cited paper (title and abstract) and caches it for the cards.
When the model fails (5xx, overloaded, connection dropped or refused, no API key), the cards
use the abstract's contribution sentence, the checks still finish and the model is not asked
again on every pass.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from relatex.analysis.bib.bibtex import parse_bib_text
from relatex.server.features.hover import contribution_summary
from tests.fakes.messages_server import Fault, MessagesServer, Reply, overloaded, server_error
from tests.server.conftest import EXAMPLE, Editor, StartEditor

KEY = "robertson2009probabilistic"
TITLE = "The Probabilistic Relevance Framework: BM25 and Beyond"
SUMMARY_PROMPT_START = "Summarise the contribution"
CLAIM = (" Negative sampling is a simple alternative to the hierarchical softmax for learning word vectors"
         " \\citep{hoang2010towards}.")


def library_abstract(title: str) -> str:
    """The abstract of ``title`` in the knowledge base's source (examples/demo/library.bib)."""
    path = EXAMPLE / "library.bib"
    bib = parse_bib_text(path.read_text(encoding="utf-8"), path)
    [entry] = [e for e in bib.entries if e.title_plain == title]
    abstract = entry.get("abstract")
    assert abstract
    return abstract


def abstract_summary(title: str = TITLE) -> str:
    """The card's summary without a model: the contribution sentence of the abstract."""
    summary = contribution_summary(library_abstract(title))
    assert summary
    return summary


def system_text(body: dict[str, Any]) -> str:
    system = body.get("system", "")
    return system if isinstance(system, str) else "".join(str(b.get("text", "")) for b in system)


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else "".join(str(b.get("text", "")) for b in content)


def summarise(body: dict[str, Any]) -> Reply | Fault:
    """The model: a recognisable summary naming the paper (from the prompt's title line)."""
    if not system_text(body).startswith(SUMMARY_PROMPT_START):
        return server_error()
    title = user_text(body).split("\n", 1)[0].removeprefix("Title: ")
    return Reply(text=f"LLM-SUMMARY of {title}:\nit ranks   documents by relevance.")


def summary_requests(server: MessagesServer) -> list[dict[str, Any]]:
    return [r.body for r in server.requests if system_text(r.body).startswith(SUMMARY_PROMPT_START)]


async def settled(count: Any, minimum: int = 1, quiet: float = 0.6, timeout: float = 30.0) -> int:
    """Wait until ``count()`` reaches ``minimum`` and then stays the same for ``quiet`` seconds
    (the summaries are asked for after the claim diagnostics are published)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last, since = count(), loop.time()
    while loop.time() < deadline:
        await asyncio.sleep(0.05)
        now = count()
        if now != last:
            last, since = now, loop.time()
        elif now >= minimum and loop.time() - since >= quiet:
            return int(now)
    raise AssertionError(f"the count never settled (last {last})")


async def ready(editor: Editor, uri: str, timeout: float = 60.0) -> None:
    """The background pass's claim results are published (the summaries come after them)."""
    await editor.diagnostics(uri, lambda ds: any(str(d.code).startswith("claim-") for d in ds), timeout)


async def another_pass(editor: Editor, uri: str, anchor: str) -> None:
    """Add an unsupported claim after ``anchor``; return once that pass's claim results are published."""
    def flagged(diagnostics: list[types.Diagnostic]) -> int:
        return sum(1 for d in diagnostics if str(d.code).startswith("claim-") and "Negative sampling" in str(d.data))

    count = flagged(list(editor.client.diagnostics.get(uri, [])))
    editor.insert(uri, anchor, CLAIM)
    await editor.diagnostics(uri, lambda ds: flagged(ds) > count, 60)


async def card(editor: Editor, uri: str, key: str = KEY) -> str:
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=editor.position(uri, key, 3)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


async def card_with(editor: Editor, uri: str, needle: str, timeout: float = 30.0) -> str:
    """Hover until the card contains ``needle`` (the summaries are made after the claims)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await card(editor, uri)
        if needle in value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"{needle!r} never appeared in the card:\n{value}")
        await asyncio.sleep(0.1)


def llm_init(base_url: str) -> dict[str, Any]:
    return {"llm": {"provider": "anthropic", "baseUrl": base_url, "model": "claude-test"}}


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"])
async def test_hover_card_shows_the_llm_summary(start_editor: StartEditor, demo: Path, profile: str) -> None:
    abstract = library_abstract(TITLE)
    with MessagesServer(responder=summarise) as server:
        editor = await start_editor(demo, profile, init=llm_init(server.url))
        uri = editor.open(demo / "main.tex")
        await ready(editor, uri)
        value = await card_with(editor, uri, "LLM-SUMMARY")
        assert f"> LLM-SUMMARY of {TITLE}: it ranks documents by relevance." in value
        assert abstract_summary() not in value  # instead of the abstract's sentence
        assert f"**{TITLE}**" in value and "**Bibliography:**" in value and f"`{KEY}`" in value

        # the model was asked for a summary from the paper's title and abstract, once per paper
        await settled(lambda: len(summary_requests(server)), minimum=5)
        bodies = summary_requests(server)
        assert len(bodies) == len(server.requests)  # nothing else was asked (offline judge and writer)
        [asked] = [b for b in bodies if user_text(b).startswith(f"Title: {TITLE}\n")]
        assert user_text(asked) == f"Title: {TITLE}\n\nAbstract: {abstract}"
        assert asked["model"] == "claude-test" and asked["max_tokens"] <= 200
        prompts = [user_text(b) for b in bodies]
        assert len(prompts) == len(set(prompts)) >= 5

        # cached: a later pass does not ask again
        await another_pass(editor, uri, "form the basis of our expansion step.")
        assert len(summary_requests(server)) == len(bodies)
        assert "LLM-SUMMARY" in await card(editor, uri)

    # with the model switched off, the card is the abstract's again
    editor.client.set_configuration({"relatex": {"llm": {"provider": "none"}}})
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    value = await card_with(editor, uri, f"> {abstract_summary()}")
    assert "LLM-SUMMARY" not in value


class DroppingServer:
    """A TCP endpoint that accepts connections and closes them at once (counting them)."""

    def __init__(self) -> None:
        self.connections = 0
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._socket.getsockname()[:2]
        return f"http://{host}:{port}"

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()

    def __enter__(self) -> DroppingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._socket.close()


def refused_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture(params=["server-error", "overloaded", "dropped", "refused"])
def failing_model(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    """(base URL, a callable counting the attempts that reached it, or None)."""
    if request.param == "refused":
        yield refused_url(), None
    elif request.param == "dropped":
        with DroppingServer() as dropping:
            yield dropping.url, lambda: dropping.connections
    else:
        fault = server_error() if request.param == "server-error" else overloaded(retry_after=1)
        with MessagesServer(responder=lambda body: fault) as server:
            yield server.url, lambda: len(server.requests)


async def test_hover_falls_back_to_the_abstract_when_the_model_fails(
        start_editor: StartEditor, demo: Path, failing_model: tuple[str, Any]) -> None:
    url, attempts = failing_model
    editor = await start_editor(demo, init=llm_init(url))
    uri = editor.open(demo / "main.tex")
    await ready(editor, uri)  # the checks are published despite the model
    value = await card(editor, uri)
    assert f"> {abstract_summary()}" in value
    assert "**Bibliography:** \u2714 verified" in value
    if attempts is not None:
        assert 1 <= await settled(attempts) <= 2  # one attempt, not one per paper nor retries with backoff
    # later passes do not ask the failing model again, nor wait for it (retries would take 11 s or more)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await another_pass(editor, uri, "form the basis of our expansion step.")
    await another_pass(editor, uri, "in a given field.")
    assert loop.time() - start < 10.0
    if attempts is not None:
        assert attempts() <= 2
    assert f"> {abstract_summary()}" in await card(editor, uri)
    assert not [m.message for m in editor.client.messages if m.type == types.MessageType.Error]
    assert (await editor.server_text(uri))["text"] == editor.text(uri)


async def test_no_api_key_leaves_the_checks_and_the_cards_intact(start_editor: StartEditor, demo: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The Anthropic endpoint without a key: the model cannot be built, everything else works."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    editor = await start_editor(demo, init={"llm": {"provider": "anthropic"}})
    uri = editor.open(demo / "main.tex")
    await ready(editor, uri)
    value = await card(editor, uri)
    assert f"> {abstract_summary()}" in value
    assert "**Bibliography:** \u2714 verified" in value
    assert not [m.message for m in editor.client.messages if m.type == types.MessageType.Error]
