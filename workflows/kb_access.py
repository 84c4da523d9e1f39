"""The engines' knowledge base for a use case that reads it, or a clear reason why there is none.

Light on purpose: the language server imports it at start-up (completion, status).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from relatex.config.settings import Settings
from relatex.workflows.engines import Engines
from relatex.workflows.failures import EMPTY_KNOWLEDGE_BASE, FAILED, NO_KNOWLEDGE_BASE, UseCaseFailed
from relatex.workflows.kb_status import index_command, knowledge_base_present, missing_message

if TYPE_CHECKING:
    from relatex.retrieval.knowledge_base import KnowledgeBase


def opened_knowledge_base(engines: Engines) -> KnowledgeBase:
    """The engines' knowledge base; else :class:`UseCaseFailed` saying where it should be and
    how to build it (``NO_KNOWLEDGE_BASE``), or why it cannot be opened (``FAILED``)."""
    settings = engines.settings
    kb = engines.knowledge_base()
    if kb is None:
        if not knowledge_base_present(settings):
            raise UseCaseFailed(missing_message(settings), NO_KNOWLEDGE_BASE)
        raise UseCaseFailed(f"cannot open the knowledge base: {engines.kb_error or 'unknown error'}", FAILED)
    return kb


def usable_knowledge_base(engines: Engines) -> KnowledgeBase:
    """:func:`opened_knowledge_base` with papers in it (else ``EMPTY_KNOWLEDGE_BASE``)."""
    kb = opened_knowledge_base(engines)
    check_not_empty(kb, engines.settings)
    return kb


def check_not_empty(kb: KnowledgeBase, settings: Settings) -> None:
    """Raise :class:`UseCaseFailed` (``EMPTY_KNOWLEDGE_BASE``) when ``kb`` holds no papers."""
    if len(kb) == 0:
        raise UseCaseFailed(f"the knowledge base at {settings.knowledge_base.resolved_data_dir()} is empty; run "
                            f"`{index_command(settings)}` in the project folder first", EMPTY_KNOWLEDGE_BASE)
