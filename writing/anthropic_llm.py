"""The Anthropic Messages API behind the :class:`~relatex.writing.llm.LLM` protocol.

Uses the official ``anthropic`` SDK with its own retries off, and retries here instead
(backoff, ``retry-after`` honoured) on 429, 529 and other 5xx answers, timeouts and dropped
connections, so the behaviour is the same for Anthropic and for Anthropic-compatible servers
(Ollama, llama.cpp's server, vLLM) reached through ``base_url``.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import anthropic

from relatex.writing.llm import LLMError, LLMResponse, UsageMeter

log = logging.getLogger(__name__)

ANTHROPIC_API_URL = "https://api.anthropic.com"
RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}


def _retry_after(error: anthropic.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``retry-after``), if any."""
    headers = error.response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue
    return None


def _error_message(error: anthropic.APIStatusError) -> str:
    body = error.body
    if isinstance(body, Mapping):
        inner = body.get("error")
        if isinstance(inner, Mapping) and inner.get("message"):
            return str(inner["message"])
    return str(error)


class MalformedResponse(Exception):
    """A 2xx answer whose body is not a Messages API message (bad JSON, missing content)."""


# answers retried like a 5xx: a malformed body is usually a proxy or a server having a bad moment
_MALFORMED = (MalformedResponse, ValueError, anthropic.APIResponseValidationError)


def _one_line(error: Exception, limit: int = 160) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


class AnthropicLLM:
    """A Claude model (or any Anthropic-compatible endpoint) via the Messages API.

    The key comes from ``api_key`` or ``ANTHROPIC_API_KEY``; a custom ``base_url`` (a local
    server) works without a key. Every call is recorded in :attr:`meter`.
    """

    def __init__(
        self,
        model: str,
        max_tokens: int = 4096,
        temperature: float = 0.3,
        timeout: float = 120.0,
        base_url: str = "",
        api_key: str | None = None,
        *,
        max_retries: int = 4,
        backoff_base: float = 1.0,
        backoff_cap: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        meter: UsageMeter | None = None,
    ) -> None:
        key = api_key or os.environ.get("ANTHROPIC_API_KEY", "")
        custom_endpoint = bool(base_url) and base_url.rstrip("/") != ANTHROPIC_API_URL
        if not key:
            if not custom_endpoint:
                raise LLMError(
                    "no Anthropic API key: set ANTHROPIC_API_KEY (or point relatex.llm.baseUrl at a local "
                    "Anthropic-compatible server), or set relatex.llm.provider to 'none' for the offline writer",
                    kind="missing_key",
                )
            key = "not-needed"  # local servers ignore the key, the SDK still wants one
        self.model = model
        self.custom_endpoint = custom_endpoint
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.base_url = base_url or ANTHROPIC_API_URL
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_cap = backoff_cap
        self._sleep = sleep
        self.meter = meter if meter is not None else UsageMeter(model=model)
        self._client = anthropic.Anthropic(
            api_key=key, base_url=self.base_url, timeout=timeout, max_retries=0
        )

    # -- request building -------------------------------------------------------------------
    def _system_blocks(self, system: str, cache_prefix: str | None) -> list[dict[str, Any]]:
        """System prompt then shared context; the last block carries the cache breakpoint."""
        blocks: list[dict[str, Any]] = [{"type": "text", "text": system}]
        if cache_prefix:
            blocks.append({"type": "text", "text": cache_prefix})
        blocks[-1]["cache_control"] = {"type": "ephemeral"}
        return blocks

    def _params(
        self,
        system: str,
        messages: list[dict[str, Any]],
        max_tokens: int | None,
        temperature: float | None,
        cache_prefix: str | None,
    ) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model,
            "system": self._system_blocks(system, cache_prefix),
            "messages": messages,
            "max_tokens": max_tokens or self.max_tokens,
        }
        if self.custom_endpoint:
            # The current Messages API exposes no sampling parameters (the SDK has none);
            # Anthropic-compatible local servers still honour a temperature.
            params["extra_body"] = {"temperature": self.temperature if temperature is None else temperature}
        return params

    # -- error handling ---------------------------------------------------------------------
    def _fatal(self, error: anthropic.APIStatusError) -> LLMError:
        status = error.status_code
        detail = _error_message(error)
        if status == 401:
            return LLMError(
                f"the model endpoint {self.base_url} rejected the API key (401): check ANTHROPIC_API_KEY ({detail})",
                status=status, kind="authentication",
            )
        if status == 403:
            return LLMError(
                f"the API key may not use model '{self.model}' at {self.base_url} (403): {detail}",
                status=status, kind="permission",
            )
        if status == 404:
            return LLMError(
                f"model '{self.model}' was not found at {self.base_url} (404): set relatex.llm.model to a "
                f"model this endpoint serves ({detail})",
                status=status, kind="not_found",
            )
        if status == 400:
            return LLMError(f"the model endpoint refused the request (400): {detail}", status=status,
                            kind="invalid_request")
        return LLMError(f"the model endpoint failed ({status}): {detail}", status=status, kind="api_error")

    def _wait(self, attempt: int, error: Exception) -> None:
        """Sleep before retry ``attempt`` (1-based) or raise when retries are used up."""
        status = getattr(error, "status_code", None)
        if attempt > self.max_retries:
            if isinstance(error, anthropic.APIStatusError):
                raise LLMError(
                    f"the model endpoint is still failing after {self.max_retries} retries "
                    f"({status}): {_error_message(error)}",
                    status=status, kind="unavailable",
                ) from error
            if isinstance(error, _MALFORMED):
                raise LLMError(
                    f"the model endpoint {self.base_url} sent a malformed response {self.max_retries + 1} times: "
                    f"{_one_line(error)}", kind="unavailable",
                ) from error
            raise LLMError(
                f"cannot reach the model endpoint {self.base_url} after {self.max_retries} retries: "
                f"{_one_line(error)}", kind="unavailable",
            ) from error
        delay = None
        if isinstance(error, anthropic.APIStatusError):
            delay = _retry_after(error)
        if delay is None:
            delay = self.backoff_base * (2 ** (attempt - 1)) * (0.75 + 0.5 * random.random())
        delay = min(delay, self.backoff_cap)
        log.warning("model call failed (%s); retry %d/%d in %.1fs", status or error, attempt,
                    self.max_retries, delay)
        self._sleep(delay)

    def _with_retries(self, call: Callable[[], Any]) -> Any:
        attempt = 0
        while True:
            try:
                return call()
            except anthropic.APIStatusError as error:
                if error.status_code not in RETRYABLE_STATUS:
                    raise self._fatal(error) from error
                attempt += 1
                self._wait(attempt, error)
            except (anthropic.APIConnectionError, *_MALFORMED) as error:  # connection errors include timeouts
                attempt += 1
                self._wait(attempt, error)

    # -- the LLM protocol ---------------------------------------------------------------------
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
    ) -> LLMResponse:
        params = self._params(system, messages, max_tokens, temperature, cache_prefix)
        if tools:
            params["tools"] = [dict(t) for t in tools]
        if tool_choice:
            params["tool_choice"] = dict(tool_choice)
        response = self._with_retries(lambda: self._to_response(self._client.messages.create(**params)))
        self.meter.record(response)
        return response

    def stream(
        self,
        system: str,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        cache_prefix: str | None = None,
    ) -> Iterator[str]:
        """Yield text deltas as they arrive; failures before the first delta are retried."""
        params = self._params(system, messages, max_tokens, temperature, cache_prefix)
        attempt = 0
        while True:
            yielded = False
            try:
                with self._client.messages.stream(**params) as events:
                    for text in events.text_stream:
                        yielded = True
                        yield text
                    final = events.get_final_message()
                self.meter.record(self._to_response(final))
                return
            except anthropic.APIStatusError as error:
                if yielded or error.status_code not in RETRYABLE_STATUS:
                    raise self._fatal(error) from error
                attempt += 1
                self._wait(attempt, error)
            except (anthropic.APIConnectionError, *_MALFORMED) as error:
                if yielded:
                    raise LLMError(f"the model stream was interrupted: {_one_line(error)}",
                                   kind="unavailable") from error
                attempt += 1
                self._wait(attempt, error)

    def _to_response(self, message: Any) -> LLMResponse:
        content = getattr(message, "content", None)
        usage = getattr(message, "usage", None)
        if not isinstance(content, list) or usage is None:
            raise MalformedResponse(f"the answer is not a message: {str(message)[:80]!r}")
        try:
            return self._convert(message)
        except (AttributeError, TypeError) as error:
            raise MalformedResponse(f"the answer is not a message: {error}") from error

    def _convert(self, message: Any) -> LLMResponse:
        texts: list[str] = []
        tool_input: dict[str, Any] | None = None
        tool_name: str | None = None
        for block in message.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use" and tool_input is None:
                tool_input = dict(block.input) if isinstance(block.input, Mapping) else None
                tool_name = block.name
        usage = message.usage
        return LLMResponse(
            text="".join(texts),
            tool_input=tool_input,
            input_tokens=int(usage.input_tokens or 0),
            output_tokens=int(usage.output_tokens or 0),
            cache_read_tokens=int(getattr(usage, "cache_read_input_tokens", 0) or 0),
            cache_creation_tokens=int(getattr(usage, "cache_creation_input_tokens", 0) or 0),
            stop_reason=message.stop_reason,
            model=str(message.model or self.model),
            tool_name=tool_name,
        )

    def close(self) -> None:
        self._client.close()
