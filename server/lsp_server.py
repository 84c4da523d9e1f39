"""The relatex language server put together: the server class, every feature, the publisher.

Each feature module exposes ``register(server)``; they are imported plainly and registered in
order. The diagnostics feature becomes the scheduler's publisher here, so the features that
produce results (sync, the background checks, the commands) never import it.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from relatex.config.settings import Settings
from relatex.server.features import (
    add_entry,
    check_commands,
    code_actions,
    completion,
    configuration,
    diagnostics,
    generate_action,
    hover,
    knowledge_base,
    navigation,
    reindex,
    sync,
)
from relatex.server.language_server import SERVER_NAME, SERVER_VERSION, RelatexServer
from relatex.workflows.check_project import ProjectSnapshot
from relatex.workflows.engines import Engines

__all__ = ["FEATURES", "SERVER_NAME", "SERVER_VERSION", "RelatexServer", "create_server"]

#: The feature modules, in the order they are registered.
FEATURES = (
    configuration,
    sync,
    diagnostics,
    hover,
    completion,
    navigation,
    code_actions,
    generate_action,
    check_commands,
    reindex,
    add_entry,
    knowledge_base,
)


class DiagnosticsPublisher:
    """The diagnostics feature as the scheduler's :class:`~relatex.server.scheduler.Publisher`."""

    def __init__(self, server: RelatexServer) -> None:
        self.server = server

    async def analyse(self, root: Path, generation: int) -> None:
        await diagnostics.analyse(self.server, root, generation)

    def publish_snapshot(self, snapshot: ProjectSnapshot) -> None:
        diagnostics.publish_snapshot(self.server, snapshot)

    def publish_standalone_bib(self, path: Path) -> None:
        diagnostics.publish_standalone_bib(self.server, path)


def create_server(settings: Settings | None = None, engines: Engines | None = None) -> RelatexServer:
    """A server with every feature registered; ``engines`` (tests pass fakes) default to those
    built from ``settings``."""
    server = RelatexServer(settings, engines)
    for feature in FEATURES:
        feature.register(server)
    if server.state.scheduler.publisher is None:  # unless the diagnostics feature set its own
        server.state.scheduler.publisher = DiagnosticsPublisher(server)

    @server.feature(types.SHUTDOWN)
    def on_shutdown(*args: object) -> None:
        server.state.shutdown()  # the scheduler stops its executors: background work goes stale

    return server
