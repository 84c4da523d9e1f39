"""AnthropicLLM against a local Messages API server, through the real anthropic SDK."""

from __future__ import annotations

import pytest

from relatex.writing.anthropic_llm import AnthropicLLM
from relatex.writing.llm import LLMError, UsageMeter, price_for
from relatex.writing.structured import complete_json, validate
from tests.fakes.messages_server import (
    Fault,
    MessagesServer,
    Reply,
    forbidden,
    overloaded,
    rate_limited,
    server_error,
)

SCHEMA = {
    "type": "object",
    "properties": {"paper": {"type": "string", "enum": ["a", "b"]}, "why": {"type": "string"}},
    "required": ["paper", "why"],
}


def make_llm(server: MessagesServer, **kwargs: object) -> tuple[AnthropicLLM, list[float]]:
    sleeps: list[float] = []
    llm = AnthropicLLM("claude-test", max_tokens=256, timeout=5.0, base_url=server.url, api_key="k",
                       backoff_base=0.01, sleep=sleeps.append, **kwargs)  # type: ignore[arg-type]
    return llm, sleeps


def test_complete_returns_text_and_usage() -> None:
    with MessagesServer(script=[Reply(text="Dense retrieval maps queries to vectors.")]) as server:
        llm, _ = make_llm(server)
        response = llm.complete("Be brief.", [{"role": "user", "content": "What is dense retrieval?"}])
    assert response.text == "Dense retrieval maps queries to vectors."
    assert response.input_tokens > 0 and response.output_tokens > 0
    assert response.stop_reason == "end_turn"
    body = server.requests[0].body
    assert body["model"] == "claude-test" and body["max_tokens"] == 256
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    headers = server.requests[0].headers
    assert headers.get("x-api-key") == "k" or headers.get("authorization") == "Bearer k"
    assert llm.meter.calls == 1


def test_retries_429_and_529_honouring_retry_after() -> None:
    script = [rate_limited(retry_after=2), overloaded(), server_error(), Reply(text="ok")]
    with MessagesServer(script=script) as server:
        llm, sleeps = make_llm(server)
        assert llm.complete("s", [{"role": "user", "content": "q"}]).text == "ok"
    assert len(server.requests) == 4
    assert sleeps[0] == pytest.approx(2.0)  # the server's retry-after, not the backoff
    assert all(s < 1.0 for s in sleeps[1:])


def test_gives_up_after_max_retries_with_clear_error() -> None:
    with MessagesServer(script=[overloaded()] * 3) as server:
        llm, _ = make_llm(server, max_retries=2)
        with pytest.raises(LLMError, match="still failing after 2 retries") as info:
            llm.complete("s", [{"role": "user", "content": "q"}])
    assert info.value.status == 529


def test_fatal_errors_are_human_and_not_retried() -> None:
    with MessagesServer(models={"claude-real"}) as server:
        llm, sleeps = make_llm(server)
        with pytest.raises(LLMError, match="model 'claude-test' was not found") as info:
            llm.complete("s", [{"role": "user", "content": "q"}])
        assert info.value.kind == "not_found" and not sleeps
    with MessagesServer(api_key="right") as server:
        llm, _ = make_llm(server)
        with pytest.raises(LLMError, match="rejected the API key") as auth:
            llm.complete("s", [{"role": "user", "content": "q"}])
        assert auth.value.status == 401 and len(server.requests) == 1
    with MessagesServer(script=[forbidden()]) as server:
        llm, _ = make_llm(server)
        with pytest.raises(LLMError, match="403"):
            llm.complete("s", [{"role": "user", "content": "q"}])


def test_missing_key_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(LLMError, match="ANTHROPIC_API_KEY"):
        AnthropicLLM("claude-test")
    # a local Anthropic-compatible server needs no key
    assert AnthropicLLM("llama3", base_url="http://127.0.0.1:9").model == "llama3"


def test_timeout_is_retried_then_reported() -> None:
    with MessagesServer(script=[Reply(text="late", delay=1.5), Reply(text="late", delay=1.5)]) as server:
        sleeps: list[float] = []
        llm = AnthropicLLM("claude-test", timeout=0.3, base_url=server.url, api_key="k", max_retries=1,
                           backoff_base=0.01, sleep=sleeps.append)
        with pytest.raises(LLMError, match="cannot reach"):
            llm.complete("s", [{"role": "user", "content": "q"}])
    assert len(sleeps) == 1


def test_stream_yields_deltas_and_records_usage() -> None:
    text = "Retrieval-augmented generation grounds answers in documents. " * 3
    with MessagesServer(script=[server_error(), Reply(text=text)]) as server:
        llm, sleeps = make_llm(server)
        chunks = list(llm.stream("s", [{"role": "user", "content": "write"}]))
    assert len(chunks) > 1 and "".join(chunks) == text
    assert server.requests[-1].body["stream"] is True
    assert len(sleeps) == 1 and llm.meter.calls == 1 and llm.meter.output_tokens > 0


def test_tool_use_structured_output_validated() -> None:
    with MessagesServer(script=[Reply(tool_input={"paper": "a", "why": "closest to the draft"})]) as server:
        llm, _ = make_llm(server)
        value = complete_json(llm, "s", "pick one", SCHEMA, tool_name="pick")
    assert value == {"paper": "a", "why": "closest to the draft"}
    body = server.requests[0].body
    assert body["tool_choice"] == {"type": "tool", "name": "pick"}
    assert body["tools"][0]["input_schema"] == SCHEMA


def test_invalid_structured_output_gets_one_repair_round() -> None:
    script = [Reply(tool_input={"paper": "z"}), Reply(tool_input={"paper": "b", "why": "cites a"})]
    with MessagesServer(script=script) as server:
        llm, _ = make_llm(server)
        assert complete_json(llm, "s", "pick", SCHEMA)["paper"] == "b"
    repair = server.requests[1].body["messages"][-1]["content"]
    assert "not one of" in repair and "missing required property 'why'" in repair

    with MessagesServer(script=[Reply(tool_input={"paper": "z"}), Reply(text="no idea")]) as server:
        llm, _ = make_llm(server)
        with pytest.raises(LLMError, match="invalid structured output"):
            complete_json(llm, "s", "pick", SCHEMA)


def test_prompt_cache_prefix_is_read_on_second_call() -> None:
    shared = "<paper id=\"p1\">" + "Dense passage retrieval. " * 400 + "</paper>"
    with MessagesServer(script=[Reply(text="a"), Reply(text="b")]) as server:
        llm, _ = make_llm(server)
        first = llm.complete("rules", [{"role": "user", "content": "q1"}], cache_prefix=shared)
        second = llm.complete("rules", [{"role": "user", "content": "q2"}], cache_prefix=shared)
    assert first.cache_creation_tokens > 1000 and first.cache_read_tokens == 0
    assert second.cache_read_tokens == first.cache_creation_tokens
    summary = llm.meter.summary()
    assert summary["cache_read_tokens"] == second.cache_read_tokens


def test_malformed_error_body_is_still_an_llm_error() -> None:
    with MessagesServer(script=[Fault(400, raw_body="<html>bad gateway config</html>")]) as server:
        llm, _ = make_llm(server)
        with pytest.raises(LLMError, match="400"):
            llm.complete("s", [{"role": "user", "content": "q"}])


def test_cost_estimate_uses_family_prices() -> None:
    meter = UsageMeter(model="claude-sonnet-5-5", input_tokens=1_000_000, output_tokens=100_000)
    assert meter.estimated_cost_usd() == pytest.approx(3.0 + 1.5)
    assert price_for("claude-haiku-4-5")[0] == (1.0, 5.0)
    assert price_for("llama3")[1] is False
    assert "estimated cost" in meter.describe()


def test_validator_reports_nested_errors() -> None:
    schema = {"type": "object", "properties": {"facts": {"type": "array", "items": {"type": "string"}}}}
    assert validate({"facts": ["a", 3]}, schema) == ["$.facts[1]: expected string, got int"]
    assert validate({"facts": True}, {"type": "object", "properties": {"facts": {"type": "integer"}}})


def test_make_llm_follows_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from relatex.config.settings import load_settings
    from relatex.workflows.language_models import make_llm

    settings, _ = load_settings({}, env={})
    assert make_llm(settings) is None  # offline writer by default
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    settings, _ = load_settings({"llm": {"provider": "anthropic", "model": "claude-haiku-4-5", "maxTokens": 900}},
                                env={})
    llm = make_llm(settings)
    assert isinstance(llm, AnthropicLLM) and llm.model == "claude-haiku-4-5" and llm.max_tokens == 900
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(LLMError, match="ANTHROPIC_API_KEY"):
        make_llm(settings)
