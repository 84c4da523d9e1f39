"""JSON-RPC conformance on top of pygls: every request gets a result or an error response.

pygls drops a request whose params do not match the method's types (a hover with a list for
params, a code action with a null range, a negative line): the deserialisation error is only
logged. :class:`ConformingProtocol` answers such a request with ``InvalidParams`` (and a broken
message with ``InternalError``), and a second ``initialize`` with ``InvalidRequest``.
"""

from __future__ import annotations

import logging
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol

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
