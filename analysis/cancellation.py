"""Cancellation tokens for long work: a ``threading.Event`` or a callable returning True to stop.

Every slow step (indexing, selection, writing, checks) takes one and looks at it between batches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

Cancel = threading.Event | Callable[[], bool] | None


def is_cancelled(cancel: Cancel) -> bool:
    """Whether the token asks to stop (None never does)."""
    if cancel is None:
        return False
    if isinstance(cancel, threading.Event):
        return cancel.is_set()
    return bool(cancel())
