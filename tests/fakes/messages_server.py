"""A local Anthropic Messages API server for tests: ``POST /v1/messages`` on 127.0.0.1.

It answers in the real wire formats (a JSON ``message`` object, or server-sent events:
message_start, content_block_start, ping, content_block_delta with text_delta /
input_json_delta, content_block_stop, message_delta with usage, message_stop), replays a
script of :class:`Reply` and :class:`Fault` items (then falls back to a ``responder``
callable), counts tokens approximately and simulates prompt caching of the system prefix.
Tests run the real ``anthropic`` SDK against it with ``base_url=server.url``.

    with MessagesServer(script=[rate_limited(0), Reply(text="Hello")]) as server:
        llm = AnthropicLLM("claude-x", base_url=server.url, api_key="test")
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """A successful answer: text, and/or a tool_use block with ``tool_input``."""

    text: str = ""
    tool_input: dict[str, Any] | None = None
    tool_name: str | None = None  # default: the forced tool_choice, else the first tool
    stop_reason: str | None = None  # default: "tool_use" with a tool block, else "end_turn"
    output_tokens: int | None = None  # default: approximate count of the content
    delay: float = 0.0  # seconds before the response starts (client timeouts)
    chunk_delay: float = 0.0  # seconds between streamed deltas


@dataclass
class Fault:
    """An error answer in the API's error format, or a raw (malformed) body."""

    status: int
    error_type: str = "api_error"
    message: str = "Internal server error"
    retry_after: float | None = None
    delay: float = 0.0
    raw_body: str | None = None


def rate_limited(retry_after: float = 0) -> Fault:
    return Fault(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit",
                 retry_after=retry_after)


def overloaded(retry_after: float | None = None) -> Fault:
    return Fault(529, "overloaded_error", "Overloaded", retry_after=retry_after)


def server_error() -> Fault:
    return Fault(500, "api_error", "Internal server error")


def unauthorized() -> Fault:
    return Fault(401, "authentication_error", "invalid x-api-key")


def forbidden() -> Fault:
    return Fault(403, "permission_error", "Your API key does not have permission to use the specified resource.")


Responder = Callable[[dict[str, Any]], "Reply | Fault"]


def _approx_tokens(text: str) -> int:
    return max(1, (len(text) + 3) // 4) if text else 0


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if isinstance(block, dict):
            if block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif block.get("type") == "tool_use":
                parts.append(json.dumps(block.get("input", {})))
            elif block.get("type") == "tool_result":
                parts.append(_content_text(block.get("content", "")))
    return "".join(parts)


@dataclass
class RecordedRequest:
    body: dict[str, Any]
    headers: dict[str, str]
    path: str


@dataclass
class MessagesServer:
    """The server; use as a context manager. ``requests`` records every POST received."""

    script: Iterable[Reply | Fault] = ()
    responder: Responder | None = None
    models: Collection[str] | None = None  # None: every model exists; else others give 404
    api_key: str | None = None  # set: other keys give 401
    min_cache_tokens: int = 1024  # the API caches prefixes of at least this many tokens
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._queue: deque[Reply | Fault] = deque(self.script)
        self._lock = threading.Lock()
        self._cached: set[str] = set()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> MessagesServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                server._handle(self)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> MessagesServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def push(self, *items: Reply | Fault) -> None:
        with self._lock:
            self._queue.extend(items)

    # -- request handling --------------------------------------------------------------------
    def _next(self, body: dict[str, Any]) -> Reply | Fault:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            return self.responder(body)
        return Fault(500, "api_error", "messages_server: script exhausted and no responder")

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("content-length") or 0)
        raw = handler.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send_error(handler, Fault(400, "invalid_request_error", "malformed JSON body"))
            return
        headers = {k.lower(): v for k, v in handler.headers.items()}
        with self._lock:
            self.requests.append(RecordedRequest(body=body, headers=headers, path=handler.path))
        if handler.path.rstrip("/").split("?")[0] != "/v1/messages":
            self._send_error(handler, Fault(404, "not_found_error", f"Not found: {handler.path}"))
            return
        given = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
        if self.api_key is not None and given != self.api_key:
            self._send_error(handler, unauthorized())
            return
        model = str(body.get("model", ""))
        if self.models is not None and model not in self.models:
            self._send_error(handler, Fault(404, "not_found_error", f"model: {model}"))
            return
        item = self._next(body)
        if item.delay:
            time.sleep(item.delay)
        if isinstance(item, Fault):
            self._send_error(handler, item)
            return
        message = self._message(body, item)
        if body.get("stream"):
            self._send_stream(handler, message, item.chunk_delay)
        else:
            self._send_json(handler, 200, message)

    def _usage(self, body: dict[str, Any]) -> dict[str, int]:
        """Approximate input tokens, with the cache-marked system prefix read or written."""
        system = body.get("system", "")
        blocks = [{"type": "text", "text": system}] if isinstance(system, str) else list(system or [])
        prefix_parts: list[str] = []
        cached_prefix = ""
        for block in blocks:
            prefix_parts.append(str(block.get("text", "")))
            if block.get("cache_control"):
                cached_prefix = "".join(prefix_parts)
        system_text = "".join(prefix_parts)
        rest = system_text[len(cached_prefix):] + "".join(
            _content_text(m.get("content")) for m in body.get("messages", [])
        )
        rest += json.dumps(body.get("tools", [])) if body.get("tools") else ""
        usage = {"input_tokens": _approx_tokens(rest), "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0}
        prefix_tokens = _approx_tokens(cached_prefix)
        if cached_prefix and prefix_tokens >= self.min_cache_tokens:
            digest = hashlib.sha256(f"{body.get('model')}\0{cached_prefix}".encode()).hexdigest()
            with self._lock:
                hit = digest in self._cached
                self._cached.add(digest)
            usage["cache_read_input_tokens" if hit else "cache_creation_input_tokens"] = prefix_tokens
        else:
            usage["input_tokens"] += prefix_tokens
        return usage

    def _message(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if reply.text:
            content.append({"type": "text", "text": reply.text})
        if reply.tool_input is not None:
            name = reply.tool_name
            if name is None:
                choice = body.get("tool_choice") or {}
                tools = body.get("tools") or [{"name": "tool"}]
                name = choice.get("name") if choice.get("type") == "tool" else tools[0].get("name")
            content.append({"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:24]}", "name": name,
                            "input": reply.tool_input})
        stop = reply.stop_reason or ("tool_use" if reply.tool_input is not None else "end_turn")
        out_text = reply.text + (json.dumps(reply.tool_input) if reply.tool_input is not None else "")
        usage = self._usage(body)
        usage["output_tokens"] = reply.output_tokens if reply.output_tokens is not None else _approx_tokens(out_text)
        return {
            "id": f"msg_{uuid.uuid4().hex[:24]}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }

    # -- wire formats ------------------------------------------------------------------------
    @staticmethod
    def _send_json(handler: BaseHTTPRequestHandler, status: int, payload: Any,
                   extra: dict[str, str] | None = None) -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(data)))
        handler.send_header("request-id", f"req_{uuid.uuid4().hex[:24]}")
        for name, value in (extra or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)

    def _send_error(self, handler: BaseHTTPRequestHandler, fault: Fault) -> None:
        extra: dict[str, str] = {}
        if fault.retry_after is not None:
            extra["retry-after"] = str(int(fault.retry_after)) if float(fault.retry_after).is_integer() \
                else str(fault.retry_after)
            extra["retry-after-ms"] = str(int(fault.retry_after * 1000))
        if fault.raw_body is not None:
            self._send_json(handler, fault.status, fault.raw_body, extra)
            return
        payload = {"type": "error", "error": {"type": fault.error_type, "message": fault.message},
                   "request_id": f"req_{uuid.uuid4().hex[:24]}"}
        self._send_json(handler, fault.status, payload, extra)

    @staticmethod
    def _send_stream(handler: BaseHTTPRequestHandler, message: dict[str, Any], chunk_delay: float) -> None:
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("cache-control", "no-cache")
        handler.send_header("connection", "close")
        handler.end_headers()

        def event(name: str, data: dict[str, Any]) -> None:
            handler.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            handler.wfile.flush()
            if chunk_delay and name == "content_block_delta":
                time.sleep(chunk_delay)

        usage = dict(message["usage"])
        output_tokens = usage.pop("output_tokens")
        start = dict(message, content=[], stop_reason=None, usage=dict(usage, output_tokens=1))
        event("message_start", {"type": "message_start", "message": start})
        for index, block in enumerate(message["content"]):
            if block["type"] == "text":
                event("content_block_start", {"type": "content_block_start", "index": index,
                                              "content_block": {"type": "text", "text": ""}})
                if index == 0:
                    event("ping", {"type": "ping"})
                text = block["text"]
                for pos in range(0, len(text), 24):
                    event("content_block_delta", {"type": "content_block_delta", "index": index,
                                                  "delta": {"type": "text_delta", "text": text[pos:pos + 24]}})
            else:
                event("content_block_start", {"type": "content_block_start", "index": index,
                                              "content_block": dict(block, input={})})
                partial = json.dumps(block["input"])
                for pos in range(0, len(partial), 32):
                    event("content_block_delta", {"type": "content_block_delta", "index": index,
                                                  "delta": {"type": "input_json_delta",
                                                            "partial_json": partial[pos:pos + 32]}})
            event("content_block_stop", {"type": "content_block_stop", "index": index})
        event("message_delta", {"type": "message_delta",
                                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                                "usage": {"output_tokens": output_tokens}})
        event("message_stop", {"type": "message_stop"})


@dataclass
class ScriptedAgents:
    """A responder playing the Select-Read-Write agents with plausible, deterministic answers.

    Selector calls (tool ``select_paper``) pick the first allowed paper until ``reads`` papers were
    read, then "End"; reader calls (``update_memory``) note the paper's first words as a fact;
    writer calls cite every allowed key. ``obey_injection`` makes the writer cite a key that a
    retrieved abstract asked for, as a gullible model would.
    """

    reads: int = 1000
    obey_injection: str | None = None
    calls: list[str] = field(default_factory=list)

    def __call__(self, body: dict[str, Any]) -> Reply | Fault:
        choice = (body.get("tool_choice") or {}).get("name")
        prompt = _content_text(body["messages"][-1]["content"])
        self.calls.append(choice or "write")
        if choice == "select_paper":
            enum = body["tools"][0]["input_schema"]["properties"]["paper"]["enum"]
            done = sum(1 for c in self.calls if c == "update_memory")
            key = "End" if done >= self.reads or len(enum) == 1 else enum[0]
            return Reply(tool_input={"paper": key, "reason": "closest unread neighbour"})
        if choice == "update_memory":
            start = prompt.find('<paper id="') + len('<paper id="')
            key = prompt[start:prompt.find('"', start)]
            text_start = prompt.find("Text:", start) + len("Text:")
            words = prompt[text_start:].split()[:8]
            return Reply(tool_input={"notes": [{"paper": key, "facts": [f"Studies {' '.join(words[2:7])}."]}],
                                     "discard": []})
        keys_line = next((line for line in prompt.splitlines() if line.startswith("Allowed citation keys:")), "")
        keys = [k.strip() for k in keys_line.split(":", 1)[-1].split(",") if k.strip()]
        extra = f" Prior work also exists \\citep{{{self.obey_injection}}}." if self.obey_injection else ""
        if "<section>" in prompt:
            section = prompt[prompt.find("<section>") + 9:prompt.find("</section>")].strip()
            if "problems" in prompt.split("<section>")[0]:
                return Reply(text=section)  # a repair that fixes nothing: the validator must drop the key
            return Reply(text="In this section we review prior work.\n\n" + section)
        if "covering these papers" in prompt:
            label = prompt.split("theme '", 1)[1].split("'", 1)[0]
            cites = " ".join(f"\\citet{{{k}}} contribute to {label}." for k in keys)
            return Reply(text=f"Work on {label} is varied. {cites}{extra} Our draft differs from them.")
        cites = " ".join(f"\\citet{{{k}}} is relevant." for k in keys)
        return Reply(text=f"Prior work is broad. {cites}{extra}\n\nOur draft builds on it.")
