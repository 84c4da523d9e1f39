"""``$/cancelRequest`` on long commands: the request ends with RequestCancelled, the work stops.

The model behind generation and the claim judge is the local fake Messages API, answering
after a delay, so the commands run long enough to be cancelled deterministically while they
are talking to it; the requests it receives show whether the server's worker really stopped.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled

from tests.fakes.messages_server import Fault, MessagesServer, Reply, ScriptedAgents
from tests.server.conftest import Editor, StartEditor

GENERATE = "relatex.generateRelatedWork"
CHECK_CLAIMS = "relatex.checkClaims"


class SlowModel:
    """A responder for the fake server: writing agents and a claim judge answering after ``delay``.

    Hover-summary requests are answered at once and not counted; ``calls`` counts the others and
    ``peak`` is the highest number of them in flight at once since the last :meth:`reset_peak`.
    """

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.agents = ScriptedAgents()
        self.calls = 0
        self.in_flight = 0
        self.peak = 0
        self._lock = threading.Lock()

    def reset_peak(self) -> None:
        with self._lock:
            self.peak = self.in_flight

    def __call__(self, body: dict[str, Any]) -> Reply | Fault:
        system = body.get("system", "")
        system_text = system if isinstance(system, str) else "".join(str(b.get("text", "")) for b in system)
        if system_text.startswith("Summarise the contribution"):
            return Reply(text="A short summary.")
        with self._lock:
            self.calls += 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            time.sleep(self.delay)
        finally:
            with self._lock:
                self.in_flight -= 1
        if (body.get("tool_choice") or {}).get("name") == "record_verdict":
            return Reply(tool_input={"label": "not_addressed", "evidence_quote": "", "rationale": "Unrelated."})
        return self.agents(body)


@pytest.fixture
def model() -> Iterator[tuple[SlowModel, MessagesServer]]:
    slow = SlowModel(delay=0.4)
    with MessagesServer(responder=slow) as server:
        yield slow, server


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def progress_of(editor: Editor, title: str) -> list[Any]:
    """The progress values of the (single) progress bar whose title contains ``title``."""
    return editor.progress(title)


def execute(editor: Editor, command: str, uri: str) -> tuple[str, asyncio.Future[Any]]:
    """Send ``workspace/executeCommand`` with a request id of our own (to cancel it by id)."""
    request_id = f"{command}-{uuid.uuid4().hex[:8]}"
    future = asyncio.ensure_future(editor.client.protocol.send_request_async(
        types.WORKSPACE_EXECUTE_COMMAND, types.ExecuteCommandParams(command=command, arguments=[uri]),
        msg_id=request_id))
    return request_id, future


async def cancel_and_expect_error(editor: Editor, request_id: str, future: asyncio.Future[Any]) -> float:
    """Send ``$/cancelRequest``; the request must fail with RequestCancelled (-32800). Returns seconds."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    editor.client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=request_id))
    with pytest.raises(JsonRpcRequestCancelled) as error:
        await asyncio.wait_for(future, 10)
    assert error.value.code == -32800
    return loop.time() - start


async def hover_latency(editor: Editor, uri: str, key: str) -> float:
    loop = asyncio.get_running_loop()
    start = loop.time()
    hover = await asyncio.wait_for(editor.client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=editor.position(uri, key, 2))), 10)
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return loop.time() - start


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"])
async def test_cancel_request_stops_generation_and_applies_nothing(
        start_editor: StartEditor, demo: Path, model: tuple[SlowModel, MessagesServer], profile: str) -> None:
    slow, server = model
    editor = await start_editor(demo, profile, init={
        "llm": {"provider": "anthropic", "baseUrl": server.url}, "graph": {"breadth": 8}})
    uri = editor.open(demo / "main.tex")
    bib = editor.open(demo / "references.bib")
    before = {u: editor.text(u) for u in (uri, bib)}
    request_id, future = execute(editor, GENERATE, uri)
    await until(lambda: slow.calls >= 2, 60, "the writer to talk to the model")
    assert not future.done()

    seconds = await cancel_and_expect_error(editor, request_id, future)
    assert seconds < 3.0
    # the progress bar ends, reporting the cancellation
    await until(lambda: any(isinstance(v, types.WorkDoneProgressEnd) for v in progress_of(editor, "generating")),
                5, "the progress end")
    end = progress_of(editor, "generating")[-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "cancelled"
    # the worker stops at its next checkpoint: at most the call in flight finishes, no new ones
    await asyncio.sleep(slow.delay * 1.5)
    calls = slow.calls
    await asyncio.sleep(slow.delay * 4)
    assert slow.calls == calls, "the generation kept calling the model after the request was cancelled"
    # the server answers at once, nothing was applied, both sides still agree on the texts
    assert await hover_latency(editor, uri, "hoang2010towards") < 2.0
    assert editor.applied == [] and editor.refused == []
    assert {u: editor.text(u) for u in (uri, bib)} == before
    assert (await editor.server_text(uri))["text"] == before[uri]

    # a second generation afterwards runs normally and applies its ONE edit
    slow.delay = 0.0
    slow.agents = ScriptedAgents()
    outcome = await asyncio.wait_for(editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=GENERATE, arguments=[uri])), 120)
    assert outcome is not None and outcome["applied"] is True and outcome["used_llm"] is True and outcome["cited_keys"]
    assert len(editor.applied) == 1 and editor.refused == []
    assert "\\section{Related Work}" in editor.text(uri)
    assert (await editor.server_text(uri))["text"] == editor.text(uri)
    end = progress_of(editor, "generating")[-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and end.message == "done"


async def test_cancel_request_stops_a_claim_check(start_editor: StartEditor, demo: Path,
                                                  model: tuple[SlowModel, MessagesServer]) -> None:
    """With the model as judge, ``relatex.checkClaims`` judges sentence after sentence, slowly.

    The background pass judges the same sentences at the same time (sharing the verdict cache),
    so while the command runs two judge calls are in flight; after the cancellation only one.
    """
    slow, server = model
    editor = await start_editor(demo, init={"llm": {"provider": "anthropic", "baseUrl": server.url},
                                            "judge": {"kind": "llm"}})
    uri = editor.open(demo / "main.tex")
    before = editor.text(uri)
    await until(lambda: uri in editor.client.diagnostics, 60, "the first analysis")
    request_id, future = execute(editor, CHECK_CLAIMS, uri)
    await until(lambda: slow.peak >= 2, 60, "the command and the background pass to judge together")
    assert not future.done()

    seconds = await cancel_and_expect_error(editor, request_id, future)
    assert seconds < 3.0
    await until(lambda: any(isinstance(v, types.WorkDoneProgressEnd) for v in progress_of(editor, "checking claims")),
                5, "the progress end")
    assert progress_of(editor, "checking claims")[-1].message == "cancelled"
    await asyncio.sleep(slow.delay * 1.5)  # the command's call in flight finishes
    slow.reset_peak()
    await asyncio.sleep(slow.delay * 4)
    assert slow.peak <= 1, "the claim check kept judging after the request was cancelled"
    assert await hover_latency(editor, uri, "hoang2010towards") < 2.0

    # once the background pass is done, the command runs to the end (from the cache)
    slow.delay = 0.0
    await editor.diagnostics(uri, lambda ds: any(str(d.code).startswith("claim-") for d in ds), 120)
    result = await asyncio.wait_for(editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=CHECK_CLAIMS, arguments=[uri])), 60)
    assert result is not None and result["claims"] and sum(result["claims"].values()) > 0
    assert editor.applied == [] and editor.text(uri) == before
