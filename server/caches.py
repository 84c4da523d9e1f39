"""What the background checks remember between passes, by content, under one lock.

Entries are keyed by what they were computed from (an entry's text hash; a claim's text,
evidence and judge; a record id), so a pass after an edit redoes only what the edit changed.
The background thread and the event loop both read them: take :attr:`AnalysisCaches.lock`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from relatex.retrieval.records import PaperRecord


@dataclass
class AnalysisCaches:
    """The caches of one server."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    verdicts: dict[str, Any] = field(default_factory=dict)  # entry text hash -> BibVerdict
    records: dict[str, PaperRecord | None] = field(default_factory=dict)  # entry text hash -> record
    claims: dict[Any, Any] = field(default_factory=dict)  # claim signature -> results; "verdicts" -> cache
    summaries: dict[str, str] = field(default_factory=dict)  # record id -> LLM summary
    #: (LLM settings, monotonic time) of the last failed summary, to pause asking the model
    summary_failure: tuple[Any, float] | None = None

