"""The one small interface relatex uses to talk to a language model, plus usage accounting.

Everything that needs a model (the Select-Read-Write agents, the LLM claim judge) depends on
the :class:`LLM` protocol only; :class:`relatex.writing.anthropic_llm.AnthropicLLM` is the real
implementation and tests pass the same class pointed at a local Messages API server.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class LLMError(RuntimeError):
    """A model call failed in a way retrying will not fix; ``str(error)`` is for humans."""

    def __init__(self, message: str, *, status: int | None = None, kind: str = "error") -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind


@dataclass(frozen=True)
class LLMResponse:
    """What one model call returned: text and/or the input of the forced tool, and token counts."""

    text: str
    tool_input: dict[str, Any] | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0
    stop_reason: str | None = None
    model: str = ""
    tool_name: str | None = None


@runtime_checkable
class LLM(Protocol):
    """A chat model: one blocking completion, or a stream of text deltas.

    ``messages`` are Messages-API style dicts (``{"role": "user", "content": "..."}``).
    ``cache_prefix`` is long context shared by several calls (the papers being written
    about); implementations place it where the provider can cache it. Implementations may
    also expose ``model``, ``max_tokens`` and a :class:`UsageMeter` as ``meter``.
    """

    def complete(
        self,
        system: str,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        tools: Sequence[Mapping[str, Any]] | None = None,
        tool_choice: Mapping[str, Any] | None = None,
        cache_prefix: str | None = None,
    ) -> LLMResponse: ...

    def stream(
        self,
        system: str,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        cache_prefix: str | None = None,
    ) -> Iterator[str]: ...


# USD per million tokens (input, output) by model family. An estimate for the user's budget
# only: prices change, and self-hosted Anthropic-compatible servers cost nothing per token.
PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "opus-4-0": (15.0, 75.0),
    "opus-4-1": (15.0, 75.0),
    "opus": (5.0, 25.0),
    "sonnet": (3.0, 15.0),
    "haiku-3": (0.25, 1.25),
    "haiku": (1.0, 5.0),
}
CACHE_READ_FACTOR = 0.1  # cached input tokens are billed at a tenth of the input price
CACHE_WRITE_FACTOR = 1.25  # writing the 5-minute cache costs a quarter more than plain input


def price_for(model: str) -> tuple[tuple[float, float], bool]:
    """(input, output) USD per million tokens for a model id, and whether the family is known."""
    name = model.lower()
    for family in sorted(PRICES_PER_MTOK, key=len, reverse=True):
        if family in name:
            return PRICES_PER_MTOK[family], True
    return PRICES_PER_MTOK["sonnet"], False


@dataclass
class UsageMeter:
    """Thread-safe running totals of the calls of one run (calls may come from a thread pool)."""

    model: str = ""
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def record(self, response: LLMResponse) -> None:
        with self._lock:
            self.calls += 1
            self.input_tokens += response.input_tokens
            self.output_tokens += response.output_tokens
            self.cache_read_tokens += response.cache_read_tokens
            self.cache_creation_tokens += response.cache_creation_tokens
            if response.model and not self.model:
                self.model = response.model

    def estimated_cost_usd(self) -> float:
        """Estimated price of the run in USD from :data:`PRICES_PER_MTOK` (an estimate only)."""
        (price_in, price_out), _ = price_for(self.model)
        total = (
            self.input_tokens * price_in
            + self.cache_read_tokens * price_in * CACHE_READ_FACTOR
            + self.cache_creation_tokens * price_in * CACHE_WRITE_FACTOR
            + self.output_tokens * price_out
        )
        return total / 1_000_000

    def summary(self) -> dict[str, Any]:
        with self._lock:
            _, known = price_for(self.model)
            return {
                "model": self.model,
                "calls": self.calls,
                "input_tokens": self.input_tokens,
                "output_tokens": self.output_tokens,
                "cache_read_tokens": self.cache_read_tokens,
                "cache_creation_tokens": self.cache_creation_tokens,
                "estimated_cost_usd": round(self.estimated_cost_usd(), 4),
                "price_known": known,
            }

    def describe(self) -> str:
        """One line for stderr at the end of a run."""
        s = self.summary()
        note = "" if s["price_known"] else " (unknown model family: priced at Sonnet rates)"
        return (
            f"LLM usage: {s['calls']} calls, {s['input_tokens']} input tokens "
            f"(+{s['cache_read_tokens']} read from cache, {s['cache_creation_tokens']} written to cache), "
            f"{s['output_tokens']} output tokens; estimated cost ${s['estimated_cost_usd']:.4f}{note}"
        )


def approx_tokens(text: str) -> int:
    """A cheap token estimate (about four characters per token for English prose)."""
    return (len(text) + 3) // 4
