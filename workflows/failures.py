"""Why a knowledge-base or writing use case produced nothing: one exception, with a kind the
front ends map to an exit status (CLI) or a message and progress outcome (editor)."""

from __future__ import annotations

#: The request itself cannot be served (a missing file, a bad knob, a draft without abstract).
BAD_REQUEST = "bad_request"
#: There is no usable knowledge base (absent, unreadable, or built with another model).
NO_KNOWLEDGE_BASE = "no_knowledge_base"
#: The knowledge base exists but holds no papers.
EMPTY_KNOWLEDGE_BASE = "empty_knowledge_base"
#: Another process writes to the knowledge base, or it cannot be opened for writing.
BUSY = "busy"
#: The language model failed for good while writing (no fallback asked for, or none allowed).
MODEL_FAILED = "model_failed"
#: The work ran and failed (the language model, nothing found, an unwritable file).
FAILED = "failed"


class UseCaseFailed(Exception):
    """A clear, user-facing reason (``str(exc)``) and its ``kind`` (one of the constants above)."""

    def __init__(self, message: str, kind: str = FAILED) -> None:
        super().__init__(message)
        self.kind = kind


class UseCaseCancelled(Exception):
    """The cancellation token fired; nothing was changed beyond what the use case documents."""
