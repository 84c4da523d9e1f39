"""The relatex language server class: a pygls ``LanguageServer`` with its workspace state.

The features (``relatex.server.features.*``) type their ``server`` argument with
:class:`RelatexServer` from here; ``relatex.server.lsp_server.create_server`` registers them. A
feature that fails is logged and reported once to the user; the server stays up.
"""

from __future__ import annotations

import functools
import inspect
import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from relatex.config.settings import Settings
from relatex.server.protocol import ConformingProtocol
from relatex.server.workspace_state import WorkspaceState
from relatex.workflows.engines import Engines

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

SERVER_NAME = "relatex"
SERVER_VERSION = "0.1.0"


class RelatexServer(LanguageServer):
    """The language server with its workspace state."""

    def __init__(self, settings: Settings | None = None, engines: Engines | None = None) -> None:
        super().__init__(SERVER_NAME, SERVER_VERSION, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=ConformingProtocol)
        self.state = WorkspaceState(settings, engines=engines, workspace=lambda: self.workspace)
        self.init_options: dict[str, Any] = {}
        self._reported: set[str] = set()
        self.analysis_hooks: list[Callable[..., Any]] = []

    @property
    def settings(self) -> Settings:
        return self.state.settings

    def warn(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        """Show a message to the user (stderr-logged too)."""
        log.warning("%s", message)
        try:
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        except Exception:  # no client connected (unit use)
            log.debug("showMessage failed", exc_info=True)

    def report_once(self, feature: str, exc: BaseException) -> None:
        """Log a feature failure; the first time that feature fails, also to the client's log
        (window/logMessage: the editor's output panel, not a popup)."""
        log.error("relatex: %s failed: %s\n%s", feature, exc,
                  "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        if feature not in self._reported:
            self._reported.add(feature)
            try:
                self.window_log_message(types.LogMessageParams(
                    type=types.MessageType.Error, message=f"relatex: {feature} failed: {exc}"))
            except Exception:  # no client connected (unit use)
                log.debug("logMessage failed", exc_info=True)

    def guarded(self, feature: str, default: Any = None) -> Callable[[F], F]:
        """Decorator: exceptions of a handler are reported once and ``default`` is returned;
        while it runs, background checks give way (see ``WorkspaceState.yield_to_foreground``)."""

        def wrap(func: F) -> F:
            if inspect.iscoroutinefunction(func):

                @functools.wraps(func)
                async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                    self.state.mark_foreground()
                    try:
                        return await func(*args, **kwargs)
                    except Exception as exc:
                        self.report_once(feature, exc)
                        return default

                return async_wrapper  # type: ignore[return-value]

            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                self.state.mark_foreground()
                try:
                    return func(*args, **kwargs)
                except Exception as exc:
                    self.report_once(feature, exc)
                    return default

            return wrapper  # type: ignore[return-value]

        return wrap

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A malformed or unanswerable message: logged, never shown (the client got an error response)."""
        log.error("relatex: server error: %s", error)
