"""``relatex.reindex``: index ``knowledgeBase.sources`` into the knowledge base, then
re-analyse every root (their citations may now resolve)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from relatex.server.features.knowledge_base import index_paths
from relatex.server.features.progress import ProgressTask

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

REINDEX = "relatex.reindex"


def reindex(server: RelatexServer, task: ProgressTask) -> dict[str, Any]:
    """Index ``knowledgeBase.sources`` into the knowledge base (runs in the executor)."""
    sources = [Path(source).expanduser() for source in server.settings.knowledge_base.sources]
    if not sources:
        server.warn("relatex: no knowledge-base sources configured (relatex.knowledgeBase.sources); "
                    "\"Build knowledge base from this project\" indexes the project's .bib files")
        return {"indexed": 0}
    return {"indexed": index_paths(server, task, sources, by_path=False)["added"]}


def register(server: RelatexServer) -> None:
    @server.command(REINDEX)
    @server.guarded("reindex", default={"indexed": 0})
    async def reindex_command(*args: Any) -> dict[str, Any]:
        async with ProgressTask(server, "relatex: indexing the knowledge base") as task:
            result: dict[str, Any] = await server.state.run(reindex, server, task)
        server.state.scheduler.reanalyse(server.state.roots.known_roots())
        return result
