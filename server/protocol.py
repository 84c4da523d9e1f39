"""JSON-RPC conformance on top of pygls: every request gets a result or an error response.

pygls drops a request whose params do not match the method's types (a hover with a list for
params, a code action with a null range, a negative line): the deserialisation error is only
logged. :class:`ConformingProtocol` answers such a request with ``InvalidParams`` (and a broken
message with ``InternalError``), and a second ``initialize`` with ``InvalidRequest``.

Positions are UTF-16 columns, the encoding every client supports and the only one
:class:`~relatex.server.positions.PositionMapper` speaks: the server never offers another one,
even to a client that prefers UTF-8. Open documents live in an
:class:`~relatex.server.documents.EditorWorkspace`.
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.workspace import Workspace

from relatex.server.documents import EditorWorkspace

log = logging.getLogger(__name__)


class _Answered:
    """Stands for a request that was already answered with an error while being read."""

    jsonrpc = "answered"


ANSWERED = _Answered()


class ConformingProtocol(LanguageServerProtocol):
    """The LSP protocol with an answer for every request."""

    _initialize_seen = False

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" not in data or "method" not in data:
                raise
            log.warning("invalid %s request %r: %s", data.get("method"), data.get("id"), error.message)
            self._send_response(data["id"], None, error.to_response_error())
            return ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is ANSWERED:
            return
        if getattr(message, "method", None) == "initialize" and hasattr(message, "id"):
            if self._initialize_seen:
                log.warning("a second initialize request was refused")
                error = JsonRpcInvalidRequest("the server is already initialized")
                self._send_response(message.id, None, error.to_response_error())
                return
            self._initialize_seen = True
        super().handle_message(message)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        """pygls' initialize, with UTF-16 positions whatever encodings the client offers."""
        general = params.capabilities.general
        if general is not None and general.position_encodings:
            general.position_encodings = None
        return (yield from super().lsp_initialize(params))

    @property
    def workspace(self) -> Workspace:
        """pygls' workspace, made an :class:`EditorWorkspace` the first time it is used."""
        workspace = super().workspace
        if not isinstance(workspace, EditorWorkspace):
            workspace = self._workspace = EditorWorkspace.adopt(workspace)
        return workspace
