"""The writer lock of a knowledge base: one writing process at a time, readers never blocked.

The lock is an OS file lock (``filelock``), released automatically when the process dies, so a
killed indexer never leaves a stale lock behind. The holder's pid is written beside it for the
error message.
"""

from __future__ import annotations

import os
from pathlib import Path

from filelock import FileLock, Timeout


class KnowledgeBaseBusy(RuntimeError):
    """Another process is writing to the knowledge base."""


class WriterLock:
    """Exclusive writer lock on ``<data_dir>/writer.lock``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._lock = FileLock(str(data_dir / "writer.lock"))
        self._pid_file = data_dir / "writer.pid"

    def holder_pid(self) -> int | None:
        try:
            return int(self._pid_file.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return None

    def acquire(self, timeout: float = 0.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        try:
            self._lock.acquire(timeout=timeout)
        except Timeout:
            pid = self.holder_pid()
            who = f" (pid {pid})" if pid else ""
            raise KnowledgeBaseBusy(
                f"the knowledge base at {self.data_dir} is being updated by another relatex process{who}; "
                "try again when it finishes"
            ) from None
        self._pid_file.write_text(str(os.getpid()), encoding="utf-8")

    def release(self) -> None:
        if self._lock.is_locked:
            try:
                self._pid_file.unlink()
            except OSError:
                pass
            self._lock.release(force=True)

    @property
    def held(self) -> bool:
        return bool(self._lock.is_locked)

    def is_busy(self) -> bool:
        """True when another process holds the lock right now."""
        if self._lock.is_locked:
            return False
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            return True
        self._lock.release()
        return False
