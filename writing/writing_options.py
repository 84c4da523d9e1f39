"""The knobs of the section writers, shared by :mod:`relatex.writing.generate` and :mod:`relatex.writing.srw`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class WritingOptions:
    """Knobs of the writers. ``key_style`` None: detected from the user's keys."""

    section_title: str = "Related Work"
    key_style: str | None = None
    depth: int = 3  # abstract sentences a reader gets when the selection chose none
    memory_tokens: int = 4096
    parallel_workers: int = 4
    refine: bool = True
    max_reader_steps: int | None = None  # None: one step per paper
    seed: int = 0
    on_text: Callable[[str], None] | None = None  # streamed text of the LLM writer, as it arrives
    fallback_offline: bool = True  # False: a model that fails for good is an error, not the offline writer
