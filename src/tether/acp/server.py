"""Serving the agent over stdio: JSON-RPC on the real stdout, everything else on stderr.

Nothing of the SDK loads before the first message is read: a plain `initialize` is answered
first (`tether.acp.handover`), and the SDK's connection takes the stream from there.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
import threading
from typing import TYPE_CHECKING, BinaryIO, cast

from tether.acp.handover import Prepended, check_answer, early_answer
from tether.acp.transport import LINE_LIMIT, JsonRpcLines, Sink

if TYPE_CHECKING:
    from tether.acp.agent import TetherAgent

__all__ = ["serve", "serve_stdio"]


async def serve_stdio(agent: TetherAgent) -> None:
    """Serve one client on stdin/stdout until it closes stdin; then release every session."""
    # The protocol keeps the real stdout to itself; fd 1 becomes stderr, so a stray print
    # (ours, a library's, a child process's) can never corrupt the JSON-RPC stream.
    sys.stdout.flush()
    protocol_out = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    await serve(agent, await _reader(sys.stdin.buffer), await _sink(protocol_out))


async def serve(agent: TetherAgent, reader: asyncio.StreamReader, sink: Sink) -> None:
    """Serve one client on `reader` and `sink` until the reader ends; then release every session."""
    lines = JsonRpcLines(reader, sink)
    first = await lines.receive()
    if first is None:  # nothing asked: no SDK to load
        await lines.close()
        await agent.close()
        return
    early = early_answer(first)
    if early is not None:
        await lines.send(early)
    from acp import Agent
    from acp.agent.connection import AgentSideConnection

    from tether.acp.agent import agent_router

    transport = Prepended(None if early is not None else first, lines)
    connection = AgentSideConnection(cast(Agent, agent), transport, listening=False)
    # The agent's own router (every method it defines, `session/delete` included) replaces
    # the SDK's before the connection reads its first message.
    connection._conn._handler = agent_router(agent)
    try:
        if early is not None:
            # The SDK's own path for the request answered early, for its effects on the
            # agent; its answer was given already.
            check_answer(early, await connection._conn._execute_request(first))
        await connection.listen()
    finally:
        await asyncio.shield(connection.close())
        await agent.close()


def _is_pipe(stream: BinaryIO) -> bool:
    # Only pipes and sockets can be polled everywhere; files, ttys and /dev/null take the
    # plain blocking path (a thread for reading).
    mode = os.fstat(stream.fileno()).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


async def _reader(stdin: BinaryIO) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    if _is_pipe(stdin):
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
        return reader

    # A file (`tether acp < requests.jsonl`), a terminal or /dev/null.
    def feed() -> None:
        try:
            while data := os.read(stdin.fileno(), 65536):
                loop.call_soon_threadsafe(reader.feed_data, data)
        finally:
            loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=feed, name="tether-acp-stdin", daemon=True).start()
    return reader


async def _sink(out: BinaryIO) -> Sink:
    if not _is_pipe(out):
        return _FileSink(out)
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(_Drain, out)
    return _PipeSink(asyncio.StreamWriter(transport, protocol, None, loop))


class _Drain(asyncio.streams.FlowControlMixin):
    """The write side's protocol: `drain()` waits while the pipe is full."""


class _PipeSink:
    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, data: bytes) -> None:
        self._writer.write(data)
        await self._writer.drain()

    def close(self) -> None:
        self._writer.close()


class _FileSink:
    def __init__(self, out: BinaryIO) -> None:
        self._out = out

    async def write(self, data: bytes) -> None:
        self._out.write(data)  # a regular file does not block for long

    def close(self) -> None:
        self._out.close()
