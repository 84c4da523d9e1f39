"""Builds the configured language model (or none: the offline writer) from the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from relatex.config.settings import Settings

if TYPE_CHECKING:
    from relatex.writing.llm import LLM


def make_llm(settings: Settings) -> LLM | None:
    """The model of ``settings.llm``; None when the provider is "none".

    Raises :class:`relatex.writing.llm.LLMError` with a readable message when the provider is
    "anthropic" and no key is available for the Anthropic endpoint.
    """
    llm = settings.llm
    if llm.provider != "anthropic":
        return None
    # The SDK takes a second or two to import: only pay for it when a model is configured.
    from relatex.writing.anthropic_llm import AnthropicLLM

    return AnthropicLLM(
        model=llm.model,
        max_tokens=llm.max_tokens,
        temperature=llm.temperature,
        timeout=llm.timeout,
        base_url=llm.base_url,
    )
