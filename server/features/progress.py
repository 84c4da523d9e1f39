"""Work-done progress for long commands, with cancellation from the client.

A :class:`ProgressTask` is created on the event loop; its ``report`` and ``cancelled`` are safe
to call from executor threads. The client cancels through ``window/workDoneProgress/cancel``
(the progress token) or ``$/cancelRequest`` (the request being handled). pygls answers a
cancelled ``workspace/executeCommand`` with RequestCancelled at once but leaves the task running
the command handler alone, so a ProgressTask created in a request handler watches the request:
on cancellation it sets the cancel flag (executor work stops at its next checkpoint) and
cancels the handler's task.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import uuid
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """The user cancelled the operation."""


RequestFuture = concurrent.futures.Future[Any] | asyncio.Future[Any]


def request_future(server: RelatexServer) -> RequestFuture | None:
    """pygls' future of the request handled in the current context (None outside a request).

    pygls cancels it when the client sends ``$/cancelRequest`` for the request's id.
    """
    protocol = server.protocol
    msg_id = protocol.msg_id
    futures = getattr(protocol, "_request_futures", None)
    if msg_id is None or not isinstance(futures, dict):
        return None
    future = futures.get(msg_id)
    return future if isinstance(future, concurrent.futures.Future | asyncio.Future) else None


class ProgressTask:
    """One progress bar: begin / report (percentage and stage) / end, and a cancel flag.

    Create it in a request handler (before the handler's first ``await``) so that a
    ``$/cancelRequest`` of that request cancels the work too.
    """

    def __init__(self, server: RelatexServer, title: str) -> None:
        self.server = server
        self.title = title
        self.token: str | None = None
        self.cancel_event = threading.Event()
        self.loop = asyncio.get_running_loop()
        self._last = -1
        self._request = request_future(server)
        self._handler_task = asyncio.current_task()
        self._active = False
        #: How the progress ends when the work returns normally: None is "done"; set it to say
        #: "failed: ..." or "no knowledge base" when the work returned without doing its job.
        self.outcome: str | None = None

    def _request_done(self, future: RequestFuture) -> None:
        """The request was answered or cancelled (``$/cancelRequest``); runs on the loop's thread."""
        if not future.cancelled():
            return
        log.info("%s: request cancelled by the client", self.title)
        self.cancel_event.set()
        try:
            self.loop.call_soon_threadsafe(self._cancel_handler)
        except RuntimeError:  # loop closed during shutdown
            pass

    def _cancel_handler(self) -> None:
        task = self._handler_task
        if self._active and task is not None and not task.done():
            task.cancel()

    async def __aenter__(self) -> ProgressTask:
        self._active = True
        if self._request is not None:
            self._request.add_done_callback(self._request_done)
        caps = self.server.client_capabilities
        supported = bool(caps and caps.window and caps.window.work_done_progress)
        if supported:
            token = f"relatex-{uuid.uuid4()}"
            try:
                await self.server.work_done_progress.create_async(token)
                self.token = token
                future = self.server.work_done_progress.tokens.get(token)
                if future is not None:
                    future.add_done_callback(lambda f: self.cancel_event.set() if f.cancelled() else None)
                self.server.work_done_progress.begin(token, types.WorkDoneProgressBegin(
                    title=self.title, cancellable=True, percentage=0))
            except Exception as exc:
                log.warning("progress unavailable: %s", exc)
                self.token = None
        return self

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._active = False
        if exc_type is not None and issubclass(exc_type, asyncio.CancelledError):  # type: ignore[arg-type]
            self.cancel_event.set()
        if self.cancel_event.is_set():
            self.end("cancelled")
        else:
            self.end("failed" if exc_type else (self.outcome or "done"))

    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def check(self) -> None:
        if self.cancelled():
            raise Cancelled(f"{self.title}: cancelled")

    def report(self, message: str, fraction: float) -> None:
        """Report a stage and a fraction in [0, 1]; callable from any thread."""
        percentage = max(0, min(100, int(fraction * 100)))
        if self.token is None:
            return
        value = types.WorkDoneProgressReport(message=message, percentage=percentage, cancellable=True)
        token = self.token
        self._last = percentage
        try:
            self.loop.call_soon_threadsafe(self.server.work_done_progress.report, token, value)
        except RuntimeError:  # loop closed during shutdown
            pass

    def sub(self, low: float, high: float, stage: str) -> ProgressCallback:
        """A ``progress(message, fraction)`` callback mapped into ``[low, high]``."""
        return ProgressCallback(self, low, high, stage)

    def end(self, message: str) -> None:
        if self.token is None:
            return
        token, self.token = self.token, None
        self.server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        self.server.work_done_progress.tokens.pop(token, None)


class ProgressCallback:
    """Accepts ``(message, fraction)`` or ``(done, total)`` calls from the domain code."""

    def __init__(self, task: ProgressTask, low: float, high: float, stage: str) -> None:
        self.task, self.low, self.high, self.stage = task, low, high, stage

    def __call__(self, first: object, second: object = None) -> None:
        if isinstance(first, str):
            message, fraction = first, float(second) if isinstance(second, int | float) else 0.0
        elif isinstance(first, int | float) and isinstance(second, int | float) and second:
            message, fraction = self.stage, float(first) / float(second)
        else:
            message, fraction = self.stage, 0.0
        fraction = max(0.0, min(1.0, fraction))
        self.task.report(f"{self.stage}: {message}" if message != self.stage else message,
                         self.low + (self.high - self.low) * fraction)
