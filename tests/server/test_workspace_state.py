"""Background work gives way to the editor's requests, but never stops for long."""

from __future__ import annotations

import time

from relatex.server.scheduler import FOREGROUND_SECONDS
from relatex.server.workspace_state import WorkspaceState


def test_background_checkpoints_wait_while_requests_are_answered() -> None:
    state = WorkspaceState()
    try:
        started = time.monotonic()
        state.yield_to_foreground()
        assert time.monotonic() - started < 0.01  # nothing in the foreground: no wait
        state.mark_foreground()
        started = time.monotonic()
        state.yield_to_foreground()
        waited = time.monotonic() - started
        assert FOREGROUND_SECONDS * 0.8 <= waited < FOREGROUND_SECONDS + 0.05
        state.mark_foreground()
        started = time.monotonic()
        state.yield_to_foreground(limit_s=0.01)  # the limit wins
        assert time.monotonic() - started < 0.03
    finally:
        state.shutdown()
