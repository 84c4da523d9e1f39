"""Settings: initialization options, ``workspace/configuration`` (section ``relatex``), env.

Invalid values produce a ``window/showMessage`` warning and keep the default. Settings are
re-read on ``workspace/didChangeConfiguration``; a changed knowledge base is reopened lazily.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from relatex.config.settings import load_settings
from relatex.server.features.knowledge_base import start_loading
from relatex.server.features.sync import reanalyse_all

if TYPE_CHECKING:
    from relatex.server.language_server import RelatexServer

log = logging.getLogger(__name__)

WATCH_GLOBS = ("**/*.tex", "**/*.bib", "**/*.bib.gz", "**/*.sty", "**/*.cls")


def _supports_configuration(server: RelatexServer) -> bool:
    caps = server.client_capabilities
    return bool(caps and caps.workspace and caps.workspace.configuration)


def _supports_dynamic_watch(server: RelatexServer) -> bool:
    caps = server.client_capabilities
    watched = caps.workspace.did_change_watched_files if caps and caps.workspace else None
    return bool(watched and watched.dynamic_registration)


async def refresh_settings(server: RelatexServer) -> None:
    """Merge init options and the client's ``relatex`` section; warn about invalid values."""
    client_section: Any = None
    if _supports_configuration(server):
        try:
            result = await server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="relatex")])
            )
            client_section = result[0] if result else None
        except Exception as exc:
            log.warning("workspace/configuration failed: %s", exc)
    layers: list[Any] = [server.init_options]
    if isinstance(client_section, dict):
        layers.append(client_section)
    elif client_section is not None:
        server.warn("relatex: the 'relatex' settings must be an object; ignored")
    old = server.settings
    settings, warnings = load_settings(*layers)
    for warning in warnings:
        server.warn(warning)
    server.state.settings = settings
    if settings.knowledge_base != old.knowledge_base:
        server.state.reset_knowledge_base()


def register(server: RelatexServer) -> None:
    @server.feature(types.INITIALIZE)
    def on_initialize(params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            server.init_options = options
        elif options is not None:
            server.warn("relatex: initializationOptions must be an object; ignored")
        settings, warnings = load_settings(server.init_options)
        server.state.settings = settings
        for warning in warnings:
            log.warning("%s", warning)

    @server.feature(types.INITIALIZED)
    async def on_initialized(params: types.InitializedParams) -> None:
        await refresh_settings(server)
        start_loading(server)
        if _supports_dynamic_watch(server):
            watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in WATCH_GLOBS]
            try:
                await server.client_register_capability_async(
                    types.RegistrationParams(registrations=[
                        types.Registration(
                            id="relatex-watch-files",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
                        )
                    ])
                )
            except Exception as exc:
                log.warning("registering the file watcher failed: %s", exc)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def on_configuration(params: types.DidChangeConfigurationParams) -> None:
        if isinstance(params.settings, dict) and not _supports_configuration(server):
            server.init_options = {**server.init_options, **params.settings.get("relatex", params.settings)}
        await refresh_settings(server)
        if not server.state.kb_loaded:  # another knowledge base was configured: load it now
            start_loading(server)
        reanalyse_all(server)
