"""JSON-RPC 2.0 in lines on stdin and stdout, as ACP runs it: the wire of the test agents.

The web tests start an agent for nearly every browser tab, and importing the ACP SDK's schema
costs such an agent about half a second of CPU before it answers anything. The test agents
write the protocol's messages themselves; what they send is still read, and checked against
the schema, by the real client inside `tether web` (the SDK's `ClientSideConnection`).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

__all__ = ["Handler", "RpcError", "Wire"]

LINE_LIMIT = 50 * 1024 * 1024
"""Longest line read (the SDK's own limit for an agent's stdin)."""

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
"""A request's or notification's params in, its result out (`None` for a notification)."""


class RpcError(Exception):
    """An error answer: JSON-RPC's code, message and data."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    @classmethod
    def invalid_params(cls, data: Any = None) -> RpcError:
        """JSON-RPC's -32602."""
        return cls(-32602, "Invalid params", data)

    @classmethod
    def auth_required(cls, data: Any = None) -> RpcError:
        """ACP's -32000: the agent wants `authenticate` first."""
        return cls(-32000, "Authentication required", data)

    def payload(self) -> dict[str, Any]:
        """The `error` member of an answer."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class Wire:
    """One peer of a JSON-RPC connection over this process's stdin and stdout.

    Each request the other side sends is handled in a task of its own (a prompt runs while a
    `session/cancel` comes in); an unknown method is answered with -32601 as the SDK does, a
    handler's unexpected exception with -32603 and its text.
    """

    def __init__(self, requests: Mapping[str, Handler], notices: Mapping[str, Handler]) -> None:
        self._requests = requests
        self._notices = notices
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def _write(self, message: dict[str, Any]) -> None:
        sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
        sys.stdout.buffer.flush()

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        """Send a notification."""
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        """Send a request and wait for its result (an error answer raises `RpcError`)."""
        request_id = self._next_id
        self._next_id += 1
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return await answer

    async def serve(self) -> None:
        """Read and handle messages until stdin closes."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=LINE_LIMIT)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        try:
            while line := await reader.readline():
                if line.strip():
                    self._take(json.loads(line))
        finally:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _take(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            waiting = self._waiting.pop(message.get("id", -1), None)
            if waiting is not None and not waiting.done():
                if "error" in message:
                    error = message["error"]
                    waiting.set_exception(
                        RpcError(error.get("code", 0), error.get("message", ""), error.get("data"))
                    )
                else:
                    waiting.set_result(message.get("result"))
            return
        task = asyncio.ensure_future(self._handle(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, message: dict[str, Any]) -> None:
        method, params = message["method"], message.get("params") or {}
        if "id" not in message:
            notice = self._notices.get(method)
            if notice is not None:
                await notice(params)
            return
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        handler = self._requests.get(method)
        try:
            if handler is None:
                raise RpcError(-32601, "Method not found", {"method": method})
            result = await handler(params)
            answer["result"] = {} if result is None else result
        except RpcError as exc:
            answer["error"] = exc.payload()
        except Exception as exc:  # as the SDK answers a handler's failure
            print(f"{method} failed: {exc!r}", file=sys.stderr)
            answer["error"] = RpcError(-32603, "Internal error", {"details": str(exc)}).payload()
        self._write(answer)
