"""A connection's first message: a plain `initialize` is answered before the SDK loads.

Importing the ACP SDK costs about half a second of CPU (it builds its few hundred schema
types), and a client waits for the answer to `initialize` before it does anything else.
That answer is known without the SDK (`tether.acp.capabilities.initialize_result`), so:

1. tether's own transport reads the first message (a bad line gets its JSON-RPC error
   there, as every line does, and the next line is read);
2. an `initialize` request the SDK is sure to accept (`early_answer`) is answered at once;
3. the SDK loads and runs that same request through the agent's routes, so the agent is
   left as the SDK would have left it; its answer, already given, is checked against the
   early one and not sent again;
4. the SDK's connection reads the rest of the stream.

Anything else first (another method, a notification, or `initialize` params the SDK might
refuse or read differently) goes to the SDK as it came, which answers it as before.
"""

from __future__ import annotations

import logging
from typing import Any

from tether.acp.capabilities import initialize_result
from tether.acp.transport import JsonRpcLines

__all__ = ["INITIALIZE", "Prepended", "check_answer", "early_answer"]

log = logging.getLogger(__name__)

INITIALIZE = "initialize"
"""The method every client sends first."""

_MAX_VERSION = 65535
"""The largest `protocolVersion` the SDK's schema accepts (a uint16)."""

_CALL_NAMES = frozenset({"self", "protocol_version", "client_capabilities", "client_info"})
"""The SDK calls `initialize` with `_meta`'s keys as keywords beside these: a key among them
would make its call fail, so such a request is left to the SDK to answer."""


def early_answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The response to `message` when it is an `initialize` request whose answer cannot
    depend on the SDK; else `None` (the SDK answers it)."""
    if message.get("method") != INITIALIZE or "id" not in message:
        return None  # another method, or `initialize` sent as a notification
    params = message.get("params")
    if not isinstance(params, dict):
        return None
    version = params.get("protocolVersion")
    # The SDK reads a string or a float as a number, and refuses one out of range: only an
    # integer in range is certain to be read as itself.
    if type(version) is not int or not 0 <= version <= _MAX_VERSION:
        return None
    meta = params.get("_meta")
    if isinstance(meta, dict) and not _CALL_NAMES.isdisjoint(meta):
        return None
    # The client's capabilities and info never fail the SDK's schema (it salvages a malformed
    # one to its default), and tether answers the same whatever they say.
    return {"jsonrpc": "2.0", "id": message["id"], "result": initialize_result()}


class Prepended:
    """A transport that gives `first` (when not `None`) before reading on from `lines`."""

    def __init__(self, first: dict[str, Any] | None, lines: JsonRpcLines) -> None:
        self._first = first
        self._lines = lines

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message."""
        await self._lines.send(message)

    async def receive(self) -> dict[str, Any] | None:
        """`first`, once, then the next message read."""
        first, self._first = self._first, None
        if first is not None:
            return first
        return await self._lines.receive()

    async def close(self) -> None:
        """Close the writing side."""
        await self._lines.close()


def check_answer(early: dict[str, Any], sdk: dict[str, Any]) -> None:
    """Log when the SDK would have answered `initialize` otherwise than `early` did."""
    if sdk != early:
        log.error("the early answer to initialize %s differs from the SDK's %s", early, sdk)
