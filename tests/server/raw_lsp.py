"""A raw JSON-RPC client over the server's stdio, for messages no typed client would send."""

from __future__ import annotations

import itertools
import json
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from tests.server.conftest import SERVER_COMMAND


class RawClient:
    """Sends framed JSON-RPC messages; answers the server's own requests with ``null``."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=cwd)
        self.responses: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.ids = itertools.count(1)
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict[str, Any] | str) -> None:
        body = (message if isinstance(message, str) else json.dumps(message)).encode()
        assert self.process.stdin is not None
        with self._lock:
            self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            message = json.loads(stream.read(length))
            if "method" in message and "id" in message:  # a request of the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "method" in message:
                self.notifications.append(message)
            else:
                self.responses.put(message)

    def request(self, method: str, params: Any = None, timeout: float = 20.0, *, omit_params: bool = False,
                ) -> dict[str, Any]:
        """Send a request and wait for the response with its id (raises TimeoutError)."""
        request_id = next(self.ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if not omit_params:
            message["params"] = params
        self.send(message)
        return self.wait(request_id, timeout)

    def wait(self, request_id: int | str, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no response to request {request_id}")
            try:
                message = self.responses.get(timeout=left)
            except queue.Empty:
                continue
            if message.get("id") == request_id:
                return message

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def popups(self) -> list[dict[str, Any]]:
        return [n for n in self.notifications if n["method"] == "window/showMessage"
                and n["params"].get("type") == 1]

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait(timeout=10)
