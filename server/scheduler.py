"""When analysis runs: debounce per root, the executors, and the stale-generation rule.

- :meth:`CheckScheduler.schedule` runs a job for a root after a delay unless another change of
  that root comes first (each call bumps the root's generation).
- :meth:`CheckScheduler.run` runs CPU work (the syntax pass) in the analysis executor.
- :meth:`CheckScheduler.start_background` runs a root's background checks (verification,
  claims) in their own one-thread executor, so the syntax pass never waits behind them, and
  only once the root has had no change for :data:`BACKGROUND_QUIET_SECONDS`. Each
  result (partial ones too) is accepted only while the snapshot's generation is current, stored
  as the root's background results, and handed to the :class:`Publisher`.

The publisher (the diagnostics feature) is given to the scheduler when the server is put
together, so the checks that produce results never import the feature that publishes them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from relatex.server.roots import BackgroundResults, RootRegistry
from relatex.workflows.check_project import ProjectSnapshot

log = logging.getLogger(__name__)

#: How long background work pauses after each request from the editor.
FOREGROUND_SECONDS = 0.05
#: Background checks of a snapshot start once its root has had no change for this long: while
#: the author types, each keystroke's syntax pass has the CPU to itself.
BACKGROUND_QUIET_SECONDS = 0.3

Cancel = Callable[[], bool]
BackgroundWork = Callable[[Cancel, Callable[[BackgroundResults], None]], BackgroundResults]


class Publisher(Protocol):
    """What the scheduler tells the diagnostics feature."""

    def analyse(self, root: Path, generation: int) -> Awaitable[None]:
        """Run the syntax pass of ``root`` and publish it (then start its background checks)."""

    def publish_snapshot(self, snapshot: ProjectSnapshot) -> None:
        """Publish a root's findings: its snapshot's plus its current background results'."""

    def publish_standalone_bib(self, path: Path) -> None:
        """Publish the parse findings of a .bib file no open project uses."""


class CheckScheduler:
    """Debounced analysis and background checks of one server, and their executors."""

    def __init__(self, roots: RootRegistry, max_workers: int = 2) -> None:
        self.roots = roots
        self.executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="relatex")
        self.background_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="relatex-checks")
        self.publisher: Publisher | None = None
        self._pending: dict[Path, asyncio.Task[None]] = {}
        self._running: set[asyncio.Task[None]] = set()
        self._foreground_until = 0.0
        self._last_change: dict[Path, float] = {}

    # -- foreground and background ----------------------------------------------------------
    def mark_foreground(self) -> None:
        """A request from the editor is being answered: background work gives way for a moment."""
        self._foreground_until = time.monotonic() + FOREGROUND_SECONDS

    def foreground_remaining(self) -> float:
        """Seconds until the editor's latest request stops counting as foreground (0: quiet)."""
        return max(0.0, self._foreground_until - time.monotonic())

    def yield_to_foreground(self, limit_s: float = 1.0) -> None:
        """Called by background work at its checkpoints: while the editor is sending requests,
        sleep (releasing the GIL) so hover and completion are answered promptly; never more
        than ``limit_s`` per checkpoint, so background work always progresses."""
        deadline = time.monotonic() + limit_s
        while True:
            now = time.monotonic()
            if now >= self._foreground_until or now >= deadline:
                return
            time.sleep(min(0.005, self._foreground_until - now))

    # -- debounce -----------------------------------------------------------------------------
    def schedule(self, root: Path, delay_s: float, job: Callable[[Path, int], Any]) -> None:
        """Run ``job(root, generation)`` after ``delay_s`` unless another change comes first."""
        generation = self.roots.bump(root)
        self._last_change[root] = time.monotonic()
        previous = self._pending.pop(root, None)
        if previous is not None and not previous.done():
            previous.cancel()

        async def later() -> None:
            if delay_s > 0:
                await asyncio.sleep(delay_s)
            if self.roots.generation(root) != generation:
                return
            result = job(root, generation)
            if asyncio.iscoroutine(result):
                await result

        self._pending[root] = asyncio.get_running_loop().create_task(later())

    def reanalyse(self, roots: set[Path], delay_s: float = 0.0) -> None:
        """Schedule the publisher's syntax pass of each root (nothing before one is set)."""
        publisher = self.publisher
        if publisher is None:
            log.debug("no publisher yet: %d roots not analysed", len(roots))
            return
        for root in roots:
            self.schedule(root, delay_s, publisher.analyse)

    async def run(self, func: Callable[..., Any], *args: Any) -> Any:
        """Run CPU work in the analysis executor."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, func, *args)

    # -- background checks ----------------------------------------------------------------------
    def checkpoint(self, snapshot: ProjectSnapshot) -> Cancel:
        """The cancel test of background work on ``snapshot`` (called in its thread): give way
        to the editor's requests, then say whether the work has become stale."""

        def cancelled() -> bool:
            self.yield_to_foreground()
            return self.roots.is_stale(snapshot)

        return cancelled

    def accept(self, snapshot: ProjectSnapshot, result: BackgroundResults) -> bool:
        """Keep and publish background results unless the snapshot is stale (event loop only)."""
        if self.roots.is_stale(snapshot):
            return False
        self.roots.background[snapshot.root] = result
        self.publish(snapshot)
        return True

    def publish(self, snapshot: ProjectSnapshot) -> None:
        if self.publisher is not None:
            self.publisher.publish_snapshot(snapshot)

    def start_background(self, snapshot: ProjectSnapshot, work: BackgroundWork,
                         on_error: Callable[[Exception], None]) -> asyncio.Task[None]:
        """Run ``work(cancel, on_partial)`` for a fresh snapshot in the background executor, once its
        root has been quiet for a moment; every result it passes to ``on_partial`` and its final
        one are accepted while current."""
        loop = asyncio.get_running_loop()
        cancel = self.checkpoint(snapshot)

        def on_partial(result: BackgroundResults) -> None:  # in the background thread
            loop.call_soon_threadsafe(self.accept, snapshot, result)

        async def run() -> None:
            await self._until_quiet(snapshot.root)
            if self.roots.is_stale(snapshot):
                return  # the author went on typing: the newer snapshot starts its own checks
            try:
                result = await loop.run_in_executor(self.background_executor, work, cancel, on_partial)
            except Exception as exc:
                on_error(exc)
                return
            self.accept(snapshot, result)

        task = loop.create_task(run())
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    async def _until_quiet(self, root: Path) -> None:
        """Wait until ``root`` has had no change for :data:`BACKGROUND_QUIET_SECONDS`."""
        while True:
            last = self._last_change.get(root)
            wait = 0.0 if last is None else last + BACKGROUND_QUIET_SECONDS - time.monotonic()
            if wait <= 0:
                return
            await asyncio.sleep(wait)

    def shutdown(self) -> None:
        """Stop: pending jobs are cancelled, queued work is dropped, running work goes stale."""
        self.roots.closing = True
        for task in [*self._pending.values(), *self._running]:
            task.cancel()
        self._pending.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.background_executor.shutdown(wait=False, cancel_futures=True)
