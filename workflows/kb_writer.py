"""The knowledge base opened for writing (indexing, papers found online), beside the engines'
read-only one: the read-only one is closed first and reopened on its next use."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from relatex.workflows.engines import UNSET, Engines
from relatex.workflows.failures import BUSY, UseCaseFailed

if TYPE_CHECKING:
    from relatex.retrieval.knowledge_base import KnowledgeBase


@contextmanager
def writable_knowledge_base(engines: Engines) -> Iterator[KnowledgeBase]:
    """The configured knowledge base, writable; a knowledge base passed
    in through the engines' overrides is used as it is. Raises :class:`UseCaseFailed` (``BUSY``)
    when another process writes to it or it cannot be opened for writing."""
    if engines.overrides.knowledge_base is not UNSET:
        with engines.kb_lock:
            yield engines.overrides.knowledge_base
        return
    from relatex.retrieval.index_lock import KnowledgeBaseBusy
    from relatex.workflows.knowledge_bases import open_knowledge_base  # the model and store: on first use

    # The lock is held only while the read-only knowledge base is closed and the writable one
    # opened: held through a whole indexing run, it would stall every reader (hover, checks, the
    # editor's status) until the run ends, and with them a cancellation.
    with engines.kb_lock:
        engines.reset_knowledge_base()
        try:
            kb = open_knowledge_base(engines.settings, read_only=False)
        except (KnowledgeBaseBusy, ValueError, RuntimeError, OSError) as exc:
            raise UseCaseFailed(str(exc), BUSY) from exc
    try:
        yield kb
    finally:
        kb.close()
        engines.reset_knowledge_base()
