"""One running MCP server, through the official `mcp` SDK: its tools, its calls, its stop.

The SDK's transports are anyio contexts that must be left by the task that entered them,
so each server lives in a task of its own: it connects, lists the tools, reports ready and
waits until `close()`. Calls are made from the session's tasks. A server that fails to start
or dies is named with the tail of what it wrote to stderr; one over HTTP that answers with
an error status is named with it (the SDK's own error says only "an error response").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any, assert_never

import httpx2
import mcp_types
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp import ClientSession, StdioServerParameters
from tether import __version__
from tether.errors import McpServerError
from tether.mcp.specs import HttpServer, McpSpec, SseServer, StdioServer

__all__ = ["START_TIMEOUT", "McpConnection", "McpServerError"]

log = logging.getLogger(__name__)

START_TIMEOUT = 30.0
"""Seconds a server has to start, answer `initialize` and list its tools."""
CALL_TIMEOUT = 600.0
_STDERR_TAIL = 2000
_MAX_TOOL_PAGES = 50


class McpConnection:
    """A started MCP server; `tools` is what it offers, `call` runs one, `close` stops it."""

    def __init__(self, spec: McpSpec, cwd: Path) -> None:
        self.spec = spec
        self.name = spec.name
        self.cwd = cwd
        self.tools: list[mcp_types.Tool] = []
        self._session: ClientSession | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stderr: IO[str] | None = None
        self._statuses = _HttpStatuses()

    @classmethod
    async def start(cls, spec: McpSpec, cwd: Path, timeout: float = START_TIMEOUT) -> McpConnection:
        """Connect and list the tools; `McpServerError` naming the server when that fails."""
        connection = cls(spec, cwd)
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        connection._task = asyncio.create_task(connection._run(ready), name=f"mcp {spec.name}")
        try:
            await asyncio.wait_for(asyncio.shield(ready), timeout)
        except TimeoutError:
            failed = connection._failed(f"did not start within {timeout:g} s")
            await connection.close()
            raise McpServerError(failed) from None
        except Exception as exc:
            # The process has ended: what it wrote to stderr is all there; read it first.
            why = connection._statuses.describe() or _reason(exc)
            failed = connection._failed(f"failed to start: {why}")
            await connection.close()
            raise McpServerError(failed) from exc
        return connection

    async def call(self, tool: str, arguments: dict[str, Any]) -> mcp_types.CallToolResult:
        """Call one tool; `McpServerError` when the server is gone or the call fails."""
        if self._session is None or self._task is None or self._task.done():
            raise McpServerError(self._failed("is not running"))
        seen = self._statuses.count
        try:
            result = await self._session.call_tool(
                tool, arguments, read_timeout_seconds=CALL_TIMEOUT
            )
        except Exception as exc:
            status = self._statuses.describe() if self._statuses.count > seen else None
            why = status or _reason(exc)
            raise McpServerError(self._failed(f"failed calling {tool}: {why}")) from exc
        if not isinstance(result, mcp_types.CallToolResult):
            raise McpServerError(self._failed(f"answered {tool} with no tool result"))
        return result

    async def close(self) -> None:
        """Stop the server (its process ends with the transport) and wait for it."""
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._task), 10)
            if not self._task.done():
                self._task.cancel()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await self._task
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def stderr_tail(self) -> str:
        """The last of what the server wrote to stderr (stdio servers only)."""
        if self._stderr is None or self._stderr.closed:
            return ""
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read()[-_STDERR_TAIL:].strip()

    def _failed(self, what: str) -> str:
        tail = self.stderr_tail()
        return f"MCP server {self.name} {what}" + (f"\nstderr:\n{tail}" if tail else "")

    async def _run(self, ready: asyncio.Future[None]) -> None:
        try:
            async with (
                self._transport() as (read, write),
                ClientSession(
                    read,
                    write,
                    client_info=mcp_types.Implementation(name="tether", version=__version__),
                ) as session,
            ):
                await session.initialize()
                self.tools = await _list_tools(session)
                self._session = session
                ready.set_result(None)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(str(exc)))
            elif not self._stop.is_set():
                log.warning("MCP server %s stopped: %s", self.name, _reason(exc))
            if not isinstance(exc, Exception):
                raise
        finally:
            self._session = None

    @contextlib.asynccontextmanager
    async def _transport(self) -> AsyncIterator[Any]:
        spec = self.spec
        match spec:
            case StdioServer():
                # Kept open for the server's life (closed by `close`): the tail names failures.
                self._stderr = tempfile.TemporaryFile(  # noqa: SIM115
                    "w+", encoding="utf-8", errors="replace"
                )
                params = StdioServerParameters(
                    command=spec.command,
                    args=list(spec.args),
                    env=dict(spec.env) or None,
                    cwd=self.cwd,
                )
                async with stdio_client(params, errlog=self._stderr) as streams:
                    yield streams
            case HttpServer():
                headers = dict(spec.headers)
                async with (
                    self._statuses.client(headers=headers) as http,
                    streamable_http_client(spec.url, http_client=http) as streams,
                ):
                    yield streams[0], streams[1]
            case SseServer():
                headers = dict(spec.headers)
                async with sse_client(
                    spec.url, headers=headers, httpx_client_factory=self._statuses.client
                ) as streams:
                    yield streams
            case _:
                assert_never(spec)


class _HttpStatuses:
    """The error statuses an MCP server over HTTP answered with, to name them in failures."""

    def __init__(self) -> None:
        self.count = 0
        """How many error answers came so far (a call's failure names one that came during it)."""
        self._last: tuple[int, str] | None = None

    def client(
        self,
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        """The SDK's HTTP client, watched by this."""
        http = create_mcp_http_client(headers=headers, timeout=timeout, auth=auth)
        http.event_hooks["response"].append(self._seen)
        return http

    async def _seen(self, response: httpx2.Response) -> None:
        if response.status_code >= 400:
            self.count += 1
            self._last = (response.status_code, response.reason_phrase)

    def describe(self) -> str | None:
        """What the last error status means, or `None` when none came."""
        if self._last is None:
            return None
        status, reason = self._last
        answered = f"the server answered HTTP {status}" + (f" {reason}" if reason else "")
        if status in (401, 403):
            return f"{answered}: its headers or token may be wrong or missing"
        return answered


async def _list_tools(session: ClientSession) -> list[mcp_types.Tool]:
    tools: list[mcp_types.Tool] = []
    cursor: str | None = None
    for _ in range(_MAX_TOOL_PAGES):
        params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def _reason(exc: BaseException) -> str:
    # anyio wraps failures of its task groups; the first real one says what happened.
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc) or type(exc).__name__
    return text if isinstance(exc, McpServerError) else f"{type(exc).__name__}: {text}"
