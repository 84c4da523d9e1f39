"""The background-check scheduler: debounce, the stale-generation rule, the publisher."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

from relatex.server.roots import BackgroundResults, RootRegistry
from relatex.server.scheduler import CheckScheduler
from relatex.workflows.check_project import ProjectSnapshot

ROOT = Path("/project/main.tex")


class RecordingPublisher:
    """Records what the scheduler asks of the diagnostics feature."""

    def __init__(self) -> None:
        self.analysed: list[tuple[Path, int]] = []
        self.published: list[ProjectSnapshot] = []
        self.standalone: list[Path] = []

    async def analyse(self, root: Path, generation: int) -> None:
        self.analysed.append((root, generation))

    def publish_snapshot(self, snapshot: ProjectSnapshot) -> None:
        self.published.append(snapshot)

    def publish_standalone_bib(self, path: Path) -> None:
        self.standalone.append(path)


def snapshot(generation: int, root: Path = ROOT) -> ProjectSnapshot:
    return ProjectSnapshot(root=root, generation=generation, project=None, bibs={}, findings=(), texts={})


def make() -> tuple[CheckScheduler, RecordingPublisher]:
    scheduler = CheckScheduler(RootRegistry())
    publisher = RecordingPublisher()
    scheduler.publisher = publisher
    return scheduler, publisher


async def test_debounce_runs_only_the_last_of_quick_changes() -> None:
    scheduler, publisher = make()
    try:
        for _ in range(3):
            scheduler.reanalyse({ROOT}, delay_s=0.05)
        await asyncio.sleep(0.2)
        assert publisher.analysed == [(ROOT, 3)]
        assert scheduler.roots.generation(ROOT) == 3
        scheduler.reanalyse({ROOT})  # immediate
        await asyncio.sleep(0.05)
        assert publisher.analysed[-1] == (ROOT, 4)
    finally:
        scheduler.shutdown()


async def test_without_a_publisher_nothing_is_analysed() -> None:
    scheduler = CheckScheduler(RootRegistry())
    try:
        scheduler.reanalyse({ROOT})
        await asyncio.sleep(0.02)
        assert scheduler.roots.generation(ROOT) == 0
    finally:
        scheduler.shutdown()


async def test_background_results_are_published_while_current() -> None:
    scheduler, publisher = make()
    generation = scheduler.roots.bump(ROOT)
    current = snapshot(generation)
    threads: list[str] = []

    def work(cancel: Callable[[], bool], on_partial: Callable[[BackgroundResults], None]) -> BackgroundResults:
        threads.append(threading.current_thread().name)
        assert not cancel()
        on_partial(BackgroundResults(generation, verdicts={"a": "partial"}))
        return BackgroundResults(generation, verdicts={"a": "final"})

    try:
        await scheduler.start_background(current, work, on_error=lambda exc: None)
        await asyncio.sleep(0)  # the partial result is handed over with call_soon_threadsafe
        assert threads and threads[0].startswith("relatex-checks")
        assert scheduler.roots.background[ROOT].verdicts == {"a": "final"}
        assert len(publisher.published) == 2 and all(s is current for s in publisher.published)
    finally:
        scheduler.shutdown()


async def test_stale_results_are_dropped_and_the_work_is_told_to_stop() -> None:
    scheduler, publisher = make()
    old = snapshot(scheduler.roots.bump(ROOT))
    seen: list[bool] = []
    started, proceed = threading.Event(), threading.Event()

    def work(cancel: Callable[[], bool], on_partial: Callable[[BackgroundResults], None]) -> BackgroundResults:
        started.set()
        proceed.wait(5)
        seen.append(cancel())
        return BackgroundResults(old.generation)

    try:
        task = scheduler.start_background(old, work, on_error=lambda exc: None)
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)
        scheduler.roots.bump(ROOT)  # the user typed: a newer generation exists
        proceed.set()
        await task
        assert seen == [True]
        assert ROOT not in scheduler.roots.background and publisher.published == []
        assert not scheduler.accept(old, BackgroundResults(old.generation))
    finally:
        scheduler.shutdown()


async def test_errors_are_reported_and_shutdown_makes_everything_stale() -> None:
    scheduler, publisher = make()
    current = snapshot(scheduler.roots.bump(ROOT))
    errors: list[Exception] = []

    def failing(cancel: Callable[[], bool], on_partial: Callable[[BackgroundResults], None]) -> BackgroundResults:
        raise RuntimeError("judge unavailable")

    await scheduler.start_background(current, failing, on_error=errors.append)
    assert [str(e) for e in errors] == ["judge unavailable"] and publisher.published == []
    scheduler.shutdown()
    assert scheduler.roots.generation(ROOT) == -1 and scheduler.roots.is_stale(current)
    assert not scheduler.accept(current, BackgroundResults(current.generation))


def test_roots_registry_remembers_snapshots_and_their_files(tmp_path: Path) -> None:
    roots = RootRegistry()
    root, chapter = tmp_path / "main.tex", tmp_path / "intro.tex"
    snap = ProjectSnapshot(root=root, generation=roots.bump(root), project=None, bibs={}, findings=(),
                           texts={root: "", chapter: ""})
    roots.remember(snap)
    assert roots.root_of[chapter] == root and roots.roots_for(chapter) == {root}
    assert roots.snapshot_for(chapter) is snap and roots.known_roots() == {root}
    assert not roots.is_stale(snap)
    roots.bump(root)
    assert roots.is_stale(snap)


async def test_background_checks_wait_until_the_author_pauses() -> None:
    scheduler, publisher = make()
    ran: list[int] = []

    def work_of(snap: ProjectSnapshot) -> Callable[..., BackgroundResults]:
        def work(cancel: Callable[[], bool], on_partial: Callable[[BackgroundResults], None]) -> BackgroundResults:
            ran.append(snap.generation)
            return BackgroundResults(snap.generation)
        return work

    async def no_analysis(root: Path, generation: int) -> None:
        return None

    try:
        scheduler.schedule(ROOT, 0.0, no_analysis)  # a keystroke
        typing = snapshot(scheduler.roots.generation(ROOT))
        first = scheduler.start_background(typing, work_of(typing), on_error=lambda exc: None)
        await asyncio.sleep(0.1)
        assert ran == []  # not while the author types
        scheduler.schedule(ROOT, 0.0, no_analysis)  # the next keystroke makes that snapshot stale
        paused = snapshot(scheduler.roots.generation(ROOT))
        second = scheduler.start_background(paused, work_of(paused), on_error=lambda exc: None)
        await asyncio.wait_for(asyncio.gather(first, second), 2)
        assert ran == [paused.generation]  # the stale snapshot's checks never ran
        assert scheduler.roots.background[ROOT].generation == paused.generation
    finally:
        scheduler.shutdown()
