"""Every request gets a result or a JSON-RPC error, the server stays up, and errors are not popups."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.conftest import EXAMPLE
from tests.server.raw_lsp import RawClient

INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
ALLOWED_ERRORS = {INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, -32603, -32700, -32800, -32801, -32803}
POSITION_METHODS = ("textDocument/hover", "textDocument/definition", "textDocument/references",
                    "textDocument/completion")
METHODS = (*POSITION_METHODS, "textDocument/codeAction", "textDocument/documentSymbol",
           "textDocument/documentLink", "workspace/executeCommand", "workspace/symbol", "completionItem/resolve",
           "codeAction/resolve", "textDocument/formatting", "relatex/documentText")
FUZZ_EXAMPLES = 300


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RawClient, str]]:
    root = tmp_path_factory.mktemp("conformance") / "demo"
    shutil.copytree(EXAMPLE, root)
    client = RawClient(root)
    answer = client.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {},
                                           "initializationOptions": {"knowledgeBase": {"embeddingModel": "hashing-256",
                                                                                       "dataDir": str(root / "kb")}}})
    assert "result" in answer and "capabilities" in answer["result"]
    client.notify("initialized", {})
    uri = (root / "main.tex").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "latex", "version": 1,
                                                            "text": (root / "main.tex").read_text(encoding="utf-8")}})
    yield client, uri
    client.close()


def _doc(uri: str) -> dict[str, Any]:
    return {"uri": uri}


def invalid_requests(uri: str) -> list[tuple[str, Any]]:
    """Requests a confused or hostile client may send: wrong shapes, nulls, out-of-range values."""
    pos = {"line": 3, "character": 2}
    rng = {"start": pos, "end": pos}
    return [
        ("textDocument/hover", [uri, 3, 2]),
        ("textDocument/hover", {"textDocument": _doc(uri)}),
        ("textDocument/hover", {"textDocument": _doc(uri), "position": {"line": -1, "character": -5}}),
        ("textDocument/hover", {"textDocument": _doc(uri), "position": {"line": 10**9, "character": 10**9}}),
        ("textDocument/hover", {"textDocument": _doc("file:///nowhere/x.tex"), "position": pos}),
        ("textDocument/hover", {"textDocument": _doc("not a uri"), "position": pos}),
        ("textDocument/hover", {"textDocument": {"uri": 42}, "position": pos}),
        ("textDocument/hover", None),
        ("textDocument/definition", {"textDocument": _doc(uri), "position": {"line": "x", "character": 0}}),
        ("textDocument/definition", {"textDocument": _doc(uri), "position": {"line": 2**40, "character": 0}}),
        ("textDocument/references", {"textDocument": _doc(uri), "position": pos}),
        ("textDocument/references", {"textDocument": _doc(uri), "position": pos, "context": None}),
        ("textDocument/completion", {"textDocument": _doc(uri), "position": {"line": 5000, "character": 0}}),
        ("textDocument/completion", {"textDocument": _doc(uri), "position": pos, "context": {"triggerKind": 99}}),
        ("textDocument/codeAction", {"textDocument": _doc(uri), "range": None, "context": {"diagnostics": []}}),
        ("textDocument/codeAction", {"textDocument": _doc(uri), "range": rng}),
        ("textDocument/codeAction", {"textDocument": _doc(uri), "range": rng,
                                     "context": {"diagnostics": [{"range": rng, "message": "x", "source": "relatex",
                                                                  "data": {"code": "undefined-citation"}}]}}),
        ("textDocument/codeAction", {"textDocument": _doc(uri), "range": {"start": {"line": 9, "character": 0},
                                                                          "end": {"line": 1, "character": 0}},
                                     "context": {"diagnostics": []}}),
        ("textDocument/documentSymbol", {"textDocument": _doc("file:///nowhere/y.tex")}),
        ("textDocument/documentSymbol", {}),
        ("workspace/executeCommand", {"command": "relatex.generateRelatedWork", "arguments": [42, None]}),
        ("workspace/executeCommand", {"command": "relatex.addEntry", "arguments": ["x"]}),
        ("workspace/executeCommand", {"command": "no.such.command", "arguments": []}),
        ("workspace/executeCommand", {"arguments": []}),
        ("workspace/symbol", {"query": None}),
        ("relatex/documentText", {"uri": 7}),
        ("relatex/noSuchMethod", {}),
        ("initialize", {"processId": None, "rootUri": None, "capabilities": {}}),
    ]


def test_every_invalid_request_is_answered(server: tuple[RawClient, str]) -> None:
    client, uri = server
    unanswered, bad = [], []
    cases = invalid_requests(uri)
    for method, params in cases:
        try:
            answer = client.request(method, params, timeout=15)
        except TimeoutError:
            unanswered.append((method, params))
            continue
        if "error" in answer and answer["error"].get("code") not in ALLOWED_ERRORS:
            bad.append((method, answer["error"]))
    assert unanswered == [] and bad == []
    second = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert second.get("error", {}).get("code") == INVALID_REQUEST
    assert client.popups() == []  # failures go to the log, not to the user's screen
    assert len(cases) == 28


_json = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=3), max_leaves=8)
_positions = st.fixed_dictionaries({"line": st.integers(-3, 10**6) | _json,
                                    "character": st.integers(-3, 10**6) | _json})


@st.composite
def _requests(draw: st.DrawFn, uri: str) -> tuple[str, Any]:
    method = draw(st.sampled_from(METHODS))
    doc = draw(st.sampled_from([{"uri": uri}, {"uri": "file:///elsewhere/a.tex"}]) | _json)
    shape = draw(st.integers(0, 3))
    if shape == 0:
        return method, draw(_json)
    params: dict[str, Any] = {"textDocument": doc, "position": draw(_positions)}
    if shape >= 2:
        params["range"] = draw(st.fixed_dictionaries({"start": _positions, "end": _positions}) | _json)
        params["context"] = draw(st.fixed_dictionaries({"diagnostics": st.lists(_json, max_size=2)}) | _json)
    if shape == 3:
        params = {**params, **draw(st.dictionaries(st.sampled_from(["command", "arguments", "query", "uri"]),
                                                   _json, max_size=2))}
    return method, params


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_requests_are_all_answered(server: tuple[RawClient, str], data: st.DataObject) -> None:
    client, uri = server
    method, params = data.draw(_requests(uri))
    answer = client.request(method, params, timeout=15)
    assert "result" in answer or answer["error"]["code"] in ALLOWED_ERRORS, answer


def test_server_is_alive_after_the_abuse(server: tuple[RawClient, str]) -> None:
    client, uri = server
    answer = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0,
                                                                                              "character": 0}})
    assert "result" in answer
    assert client.process.poll() is None and client.popups() == []


def test_garbage_frames_do_not_kill_the_server(server: tuple[RawClient, str]) -> None:
    client, uri = server
    client.send("{this is not json")
    client.send('{"jsonrpc": "2.0", "method": 17}')
    client.send("[]")
    answer = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert "result" in answer and client.process.poll() is None

