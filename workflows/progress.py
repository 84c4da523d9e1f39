"""How a use case reports progress: a callback taking a message and a fraction done (or None).

Cancellation is :data:`relatex.analysis.cancellation.Cancel` (an event or a callable), looked at
between batches; a cancelled use case raises or returns what it finished, as its docstring says.
"""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[str, "float | None"], None]


def no_progress(message: str, fraction: float | None) -> None:
    """The default callback: progress is not shown."""


def counting_progress(progress: ProgressCallback, label: str) -> Callable[[int, int], None]:
    """A ``(done, total)`` callback for the domain's loops that reports ``label: done/total``."""

    def report(done: int, total: int) -> None:
        progress(f"{label} {done}/{total}", done / total if total else None)

    return report
