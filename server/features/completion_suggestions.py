"""Knowledge-base papers offered in completion: searched in the background, per sentence.

A completion list never waits for the knowledge base: the first list for a sentence says it is
incomplete, and the papers come with the next list the editor asks for. The search waits on the
event loop (holding no worker thread) until the editor pauses its requests, and runs only for
the latest sentence asked about: one the editor has moved away from is dropped.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from relatex.server.workspace_state import text_hash
from relatex.workflows.search import paper_suggestions

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer
    from relatex.server.workspace_state import WorkspaceState

#: Knowledge-base papers per list.
MAX_KB_ITEMS = 10
#: The longest a search waits for the editor to pause its requests.
QUIET_LIMIT_SECONDS = 5.0
#: Searches whose papers are remembered (one per sentence).
REMEMBERED = 256


class KbSuggestions:
    """Knowledge-base searches for completion, remembered per sentence."""

    def __init__(self) -> None:
        self.results: dict[str, list[Any]] = {}
        self.pending: dict[str, asyncio.Task[list[Any] | None]] = {}
        self.latest = ""

    def lookup(self, server: RelatexServer,
               sentence: str) -> tuple[list[Any] | None, asyncio.Task[list[Any] | None] | None]:
        """The papers for ``sentence`` when known; else None and the search that will find them
        (started now unless already running). Called on the event loop."""
        digest = self.latest = text_hash(sentence)
        if digest in self.results:
            return self.results[digest], None
        task = self.pending.get(digest)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._search(server.state, sentence, digest))
            self.pending[digest] = task
            task.add_done_callback(lambda done: self._finished(digest, done))
        return None, task

    async def _search(self, state: WorkspaceState, sentence: str, digest: str) -> list[Any] | None:
        """Search once the editor pauses (None when, by then, another sentence was asked about)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + QUIET_LIMIT_SECONDS
        while self.latest == digest and loop.time() < deadline:
            remaining = state.scheduler.foreground_remaining()
            if remaining <= 0:
                break
            await asyncio.sleep(remaining)
        if self.latest != digest:
            return None
        return await loop.run_in_executor(state.executor, paper_suggestions, sentence, state.engines,
                                          MAX_KB_ITEMS * 3)

    def _finished(self, digest: str, task: asyncio.Task[list[Any] | None]) -> None:
        self.pending.pop(digest, None)
        if task.cancelled() or task.exception() is not None:
            return
        papers = task.result()
        if papers is not None:
            if len(self.results) >= REMEMBERED:
                self.results.clear()
            self.results[digest] = papers
