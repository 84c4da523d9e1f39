"""A misbehaving model endpoint: malformed 200 answers are retried, then reported in one line;
`generate --write` writes nothing after a final failure unless --fallback-offline is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from relatex.server.cli import main
from relatex.writing.anthropic_llm import AnthropicLLM
from relatex.writing.llm import LLMError
from tests.fakes.messages_server import Fault, MessagesServer, Reply
from tests.writing.test_generate_cli import BIB, DRAFT, knowledge_base  # noqa: F401 (fixture)

MALFORMED = (
    Fault(200, raw_body="{not json"),
    Fault(200, raw_body='{"type": "message"}'),
    Fault(200, raw_body="[]"),
    Fault(200, raw_body='{"type": "message", "content": "text", "usage": null}'),
)


def llm_for(url: str, retries: int) -> AnthropicLLM:
    return AnthropicLLM("claude-sonnet-5-5", base_url=url, api_key="k", max_retries=retries,
                        backoff_base=0.01, sleep=lambda s: None)


def test_malformed_answers_are_retried_like_server_errors() -> None:
    with MessagesServer(script=[*MALFORMED, Reply(text="ok")]) as server:
        response = llm_for(server.url, retries=4).complete("s", [{"role": "user", "content": "q"}])
    assert response.text == "ok" and len(server.requests) == 5


@pytest.mark.parametrize("fault", MALFORMED, ids=["bad-json", "no-content", "list", "wrong-types"])
def test_a_malformed_answer_that_persists_is_one_line(fault: Fault) -> None:
    with MessagesServer(script=[fault] * 3) as server, pytest.raises(LLMError) as caught:
        llm_for(server.url, retries=2).complete("s", [{"role": "user", "content": "q"}])
    message = str(caught.value)
    assert "malformed response 3 times" in message and "\n" not in message and len(message) < 300
    assert caught.value.kind == "unavailable" and len(server.requests) == 3


def _generate(tmp_path: Path, kb: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    data, _ = kb
    with MessagesServer(script=[MALFORMED[0]] * 50) as server:
        monkeypatch.setattr("relatex.workflows.language_models.make_llm", lambda settings: llm_for(server.url, 1))
        config = tmp_path / "llm.json"
        config.write_text('{"knowledgeBase": {"embeddingModel": "hashing-256"}, "llm": {"provider": "anthropic"}}',
                          encoding="utf-8")
        return main(["generate", str(tmp_path / "main.tex"), "--write", "--data-dir", str(data), "--config",
                     str(config), "--breadth", "5", *extra])


def test_write_after_a_final_model_failure_writes_nothing(
    tmp_path: Path, knowledge_base: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "main.tex").write_text(DRAFT, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    assert _generate(tmp_path, knowledge_base, monkeypatch) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "JSONDecodeError" not in err
    [line] = [x for x in err.splitlines() if x.startswith("relatex generate:")]
    assert "malformed response" in line and "nothing written" in line
    assert (tmp_path / "main.tex").read_text(encoding="utf-8") == DRAFT
    assert (tmp_path / "refs.bib").read_text(encoding="utf-8") == BIB

    assert _generate(tmp_path, knowledge_base, monkeypatch, "--fallback-offline") == 0
    assert "offline writer was used instead" in capsys.readouterr().err
    assert "\\section{Related Work}" in (tmp_path / "main.tex").read_text(encoding="utf-8")
