"""Newline-delimited JSON-RPC that answers bad input instead of skipping it.

The SDK's own stdio transport logs a line that is not JSON and reads on, so the client never
learns why it got no answer. This transport gives every bad line a JSON-RPC error with
`id: null` and keeps serving:

- a line that is not JSON (or not UTF-8, or nested too deeply to decode) → -32700
  `Parse error`;
- JSON that is not an object (a batch array, a number...), an object that is neither a
  request, a notification nor a response, a `method` that is not a string, or an `id` that
  is not a string, an integer or null → -32600 `Invalid request` (with the id when it is
  a valid one, else null);
- a line longer than the read limit → -32600, and the line is skipped.

Unknown methods (-32601) and parameters that fail the schema (-32602) are answered by the
SDK's router, which sees only well-formed messages.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Protocol

from tether.acp.errors import INVALID_REQUEST, PARSE_ERROR
from tether.jsontext import parse_json

__all__ = ["LINE_LIMIT", "JsonRpcLines", "Sink"]

log = logging.getLogger(__name__)

LINE_LIMIT = 50 * 1024 * 1024
"""The longest message read (prompts may carry images); longer lines are refused."""


class Sink(Protocol):
    """Where encoded lines go (stdout as a pipe, or as a file)."""

    async def write(self, data: bytes) -> None:
        """Write all of `data`."""
        ...

    def close(self) -> None:
        """No more writes."""
        ...


class _TooLarge(Exception):
    pass


class JsonRpcLines:
    """A message transport (`send` / `receive` / `close`) over a byte reader and writer."""

    def __init__(self, reader: asyncio.StreamReader, sink: Sink) -> None:
        self._reader = reader
        self._sink = sink
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message as one line."""
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            # A lone surrogate (echoed from a client's own `\udXXX` escape) has no UTF-8 form;
            # JSON escapes carry it back exactly, so the client still gets its answer.
            data = json.dumps(message, separators=(",", ":")).encode("ascii")
        async with self._lock:
            await self._sink.write(data + b"\n")

    async def receive(self) -> dict[str, Any] | None:
        """The next well-formed message, or `None` at the end of input."""
        while True:
            try:
                line = await self._read_line()
            except _TooLarge:
                await self._error(
                    INVALID_REQUEST, "Invalid request", f"message longer than {LINE_LIMIT} bytes"
                )
                continue
            if line is None:
                return None
            line = line.strip()
            if not line:
                continue
            try:
                message = parse_json(line)
            except ValueError as exc:
                log.warning("not JSON: %s", exc)
                await self._error(PARSE_ERROR, "Parse error", str(exc))
                continue
            problem = _problem(message)
            if problem is not None:
                log.warning("not a JSON-RPC message: %s", problem)
                request_id = _echoable_id(message)
                await self._error(INVALID_REQUEST, "Invalid request", problem, request_id)
                continue
            return message  # type: ignore[no-any-return]

    async def close(self) -> None:
        """Close the writing side."""
        self._sink.close()

    async def _error(self, code: int, message: str, details: str, request_id: Any = None) -> None:
        error = {"code": code, "message": message, "data": {"details": details}}
        await self.send({"jsonrpc": "2.0", "id": request_id, "error": error})

    async def _read_line(self) -> bytes | None:
        try:
            return await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            return exc.partial or None
        except asyncio.LimitOverrunError as exc:
            await self._skip_line(exc.consumed)
            raise _TooLarge from None

    async def _skip_line(self, consumed: int) -> None:
        while True:
            await self._reader.readexactly(consumed)
            try:
                await self._reader.readuntil(b"\n")
                return
            except asyncio.IncompleteReadError:
                return
            except asyncio.LimitOverrunError as exc:
                consumed = exc.consumed


def _problem(message: Any) -> str | None:
    """Why a decoded line is not a JSON-RPC message, or `None` when it is one."""
    if not isinstance(message, dict):
        return f"expected a JSON object, got {type(message).__name__}"
    request_id = message.get("id")
    if request_id is not None and (
        isinstance(request_id, bool) or not isinstance(request_id, int | str)
    ):
        return "id must be a string, an integer or null"
    if "method" in message:
        if not isinstance(message["method"], str):
            return "method must be a string"
        return None
    if "id" in message and ("result" in message or "error" in message):
        return None
    return "neither a request, a notification nor a response"


def _echoable_id(message: Any) -> Any:
    """The id an error about `message` can answer to: its own when valid, else null."""
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    return request_id
