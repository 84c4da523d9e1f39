"""The knowledge base in the editor: load it in the background, report its status, build it.

- On ``initialized`` the knowledge base, its vectors and the embedding model load in the
  background with ``$/progress``; nothing else waits for them (the draft's own diagnostics come
  from the syntax pass, which never touches the knowledge base).
- ``relatex.knowledgeBaseStatus`` says which knowledge base is used, its size, model and age;
  the same facts go to the client as a ``relatex/knowledgeBaseStatus`` notification whenever
  they change (loaded, missing, built).
- ``relatex.buildKnowledgeBase`` indexes the project's .bib files plus ``knowledgeBase.sources``
  with progress and cancellation; while no knowledge base exists it is offered as a code action.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.server.documents import uri_to_path
from relatex.server.features.progress import ProgressTask
from relatex.workflows.failures import UseCaseFailed
from relatex.workflows.index_sources import IndexPlan, IndexRequest, index_sources, plan_index
from relatex.workflows.kb_status import (
    describe,
    knowledge_base_present,
    knowledge_base_status,
    missing_message,
)
from relatex.workflows.progress import ProgressCallback

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)

BUILD_COMMAND = "relatex.buildKnowledgeBase"
STATUS_COMMAND = "relatex.knowledgeBaseStatus"
STATUS_NOTIFICATION = "relatex/knowledgeBaseStatus"
BUILD_TITLE = "Build knowledge base from this project"
BUILD_KIND = types.CodeActionKind.Source + ".relatex.buildKnowledgeBase"
_loading_tasks: set[asyncio.Task[None]] = set()
#: A query that exercises the lexical index, the vectors and the embedding model once.
WARM_UP_QUERY = "citation recommendation"


def status_payload(server: RelatexServer) -> dict[str, Any]:
    """The status as sent to clients: the facts, one line of text, and whether it is loaded."""
    status = knowledge_base_status(server.settings)
    payload = status.as_dict()
    payload["text"] = describe(status)
    payload["loaded"] = server.state.kb_loaded and not server.state.kb_building
    return payload


def notify_status(server: RelatexServer, payload: dict[str, Any]) -> None:
    try:
        server.protocol.notify(STATUS_NOTIFICATION, payload)
    except Exception:  # no client connected (unit use)
        log.debug("status notification failed", exc_info=True)


def warm_up(server: RelatexServer, task: ProgressTask) -> bool:
    """Open the knowledge base and load what searching needs (runs in the background executor).
    False when there is no knowledge base."""
    state = server.state
    task.report("opening the records", 0.05)
    kb = state.knowledge_base()
    if kb is None:
        return False
    task.report(f"loading {len(kb):,} records' vectors and the embedding model", 0.3)
    with state.kb_lock:
        kb.search(WARM_UP_QUERY, k=1)
    # a knowledge base still being built is not "loaded": the load after the build says so
    state.kb_loaded = not state.kb_building
    return True


async def load_in_background(server: RelatexServer) -> None:
    """Load the knowledge base with progress; tell the user once, clearly, when there is none."""
    loop = asyncio.get_running_loop()
    async with ProgressTask(server, "relatex: loading the knowledge base") as task:
        try:
            found = await loop.run_in_executor(server.state.scheduler.background_executor, warm_up, server, task)
        except Exception as exc:
            task.outcome = f"failed: {exc}"
            server.report_once("loading the knowledge base", exc)
            found = False
        if not found and task.outcome is None:
            task.outcome = "no knowledge base"
    payload = await server.state.run(status_payload, server)
    notify_status(server, payload)
    if not found and not payload["exists"]:
        server.warn(f"relatex: {missing_message(server.settings)}", types.MessageType.Info)


def start_loading(server: RelatexServer) -> None:
    """Schedule :func:`load_in_background` (called once the client is initialized)."""
    loading = asyncio.get_running_loop().create_task(load_in_background(server))
    _loading_tasks.add(loading)  # keep a reference until it finishes
    loading.add_done_callback(_loading_tasks.discard)


def project_folder(server: RelatexServer, uri: str | None) -> Path:
    """The folder whose .bib files make "this project": the root document's folder when a
    document is given, else the workspace folder, else the server's working directory."""
    if uri:
        path = uri_to_path(uri)
        root = server.state.root_of.get(path) or server.state.find_root(path)
        return root.parent
    root_path = getattr(server.workspace, "root_path", None)
    return Path(root_path) if root_path else Path.cwd()


def task_progress(task: ProgressTask, low: float = 0.0, high: float = 1.0) -> ProgressCallback:
    """A use case's progress callback reporting to ``task`` in ``[low, high]`` (a message without
    a fraction keeps the bar where it is)."""
    last = [low]

    def report(message: str, fraction: float | None) -> None:
        if fraction is not None:
            last[0] = max(last[0], low + (high - low) * max(0.0, min(1.0, fraction)))
        task.report(message, last[0])

    return report


def index_plan(server: RelatexServer, task: ProgressTask, plan: IndexPlan) -> dict[str, Any]:
    """Index a planned set of sources (runs in the executor) and say what was done."""
    state = server.state
    state.kb_building = True
    try:
        state.reset_knowledge_base()
        result = index_sources(plan, state.engines, task.cancelled, task_progress(task))
    finally:
        state.kb_building = False
        state.reset_knowledge_base()
    return {"sources": [str(p) for p in plan.paths], "added": result.added, "records": result.records,
            "completed": result.completed and not task.cancelled()}


def index_paths(server: RelatexServer, task: ProgressTask, paths: list[Path], by_path: bool = True) -> dict[str, Any]:
    """Index ``paths`` into the configured knowledge base (runs in the executor). With ``by_path``
    each source is named by its path (as ``relatex index`` does in a project folder), so that
    another project's ``references.bib`` is another source and removes nothing of this one."""
    plan = plan_index(IndexRequest(sources=tuple(paths), name_by_path=by_path), server.settings)
    return index_plan(server, task, plan)


async def build_command(server: RelatexServer, uri: str | None) -> dict[str, Any]:
    """Build (or update) the knowledge base from the project; reload it and re-check the drafts."""
    state = server.state
    folder = project_folder(server, uri)
    request = IndexRequest(project_folder=folder, overlays=state.overlays())
    async with ProgressTask(server, "relatex: building the knowledge base") as task:
        try:
            plan: IndexPlan = await state.run(plan_index, request, server.settings)
        except UseCaseFailed as exc:
            message = f"cannot build the knowledge base: {exc}"
            task.outcome = f"failed: {exc}"
            server.warn(f"relatex: {message}")
            return {"completed": False, "error": message}
        result: dict[str, Any] = await state.run(index_plan, server, task, plan)
        if not result["completed"]:
            task.outcome = "cancelled; what was indexed is kept"
    server.warn(f"relatex: knowledge base built from {len(plan.paths)} file(s): {result['records']:,} records"
                if result["completed"] else "relatex: building the knowledge base was cancelled; run it again "
                "to resume", types.MessageType.Info)
    from relatex.server.features.sync import reanalyse_all

    reanalyse_all(server)
    start_loading(server)
    return result


def knowledge_base_actions(server: RelatexServer, uri: str) -> list[types.CodeAction]:
    """"Build knowledge base from this project" while none exists (or it cannot be opened)."""
    if server.state.kb_loaded or knowledge_base_present(server.settings):
        return []
    return [types.CodeAction(title=BUILD_TITLE, kind=BUILD_KIND,
                             command=types.Command(title=BUILD_TITLE, command=BUILD_COMMAND, arguments=[uri]))]


def register(server: RelatexServer) -> None:
    @server.command(BUILD_COMMAND)
    @server.guarded("build knowledge base", default={"completed": False})
    async def build(*args: Any) -> dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        return await build_command(server, uri)

    @server.command(STATUS_COMMAND)
    @server.guarded("knowledge base status", default={})
    async def status(*args: Any) -> dict[str, Any]:
        payload: dict[str, Any] = await server.state.run(status_payload, server)
        return payload
