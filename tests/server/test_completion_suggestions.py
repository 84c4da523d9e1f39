"""Knowledge-base papers in completion: searched once per sentence, only for the latest one,
and only once the editor pauses its requests."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest

from relatex.server.features import completion_suggestions
from relatex.server.features.completion_suggestions import KbSuggestions

FIRST = "Transformers replaced recurrent networks."
SECOND = "Graph networks model citations."


class EditorBusyUntil:
    """A scheduler whose editor counts as busy until ``quiet_at`` (loop time)."""

    def __init__(self, quiet_at: float) -> None:
        self.quiet_at = quiet_at

    def foreground_remaining(self) -> float:
        return max(0.0, self.quiet_at - asyncio.get_running_loop().time())


async def test_only_the_latest_sentence_is_searched_once_the_editor_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[str] = []

    def search(sentence: str, engines: Any, limit: int) -> list[str]:
        searched.append(sentence)
        return [f"paper for {sentence}"]

    monkeypatch.setattr(completion_suggestions, "paper_suggestions", search)
    loop = asyncio.get_running_loop()
    executor = ThreadPoolExecutor(max_workers=1)
    scheduler = EditorBusyUntil(loop.time() + 0.2)
    server: Any = SimpleNamespace(state=SimpleNamespace(executor=executor, engines=object(), scheduler=scheduler))
    suggestions = KbSuggestions()
    try:
        papers, first = suggestions.lookup(server, FIRST)
        assert papers is None and first is not None
        assert suggestions.lookup(server, FIRST)[1] is first  # one search per sentence
        papers, second = suggestions.lookup(server, SECOND)
        assert second is not None
        await asyncio.sleep(0.1)
        assert searched == []  # not while the editor is asking
        assert await asyncio.wait_for(first, 2) is None  # the editor moved on from the first
        assert await asyncio.wait_for(second, 2) == [f"paper for {SECOND}"]
        assert searched == [SECOND]
        assert suggestions.lookup(server, SECOND) == ([f"paper for {SECOND}"], None)
        papers, retry = suggestions.lookup(server, FIRST)  # asked again: searched now
        assert retry is not None and await asyncio.wait_for(retry, 2) == [f"paper for {FIRST}"]
    finally:
        executor.shutdown(wait=True)
