"""The agent subprocess of one page: started with its stdio as the ACP connection, and ended
with every pipe and the process's transport closed, however its end comes.

The ACP SDK's `spawn_agent_process` ends an agent well (stdin closed, a grace period, then
terminate and kill) but leaves closing asyncio's subprocess transport to the end of the
agent's output being read. When a child of the agent still holds that output, or the server's
event loop stops before the end is read, the transport and its pipes stay open: a long-running
`tether web` would leak descriptors with each agent it ends. Here the transport is owned and
closed when the agent is done with, and the agent's exit is its process's own (asyncio's
`Process.wait` also waits for the end of its output, which a child may hold for ever).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from subprocess import PIPE

from acp.client.connection import ClientSideConnection
from acp.interfaces import Client

__all__ = ["GRACE_S", "OUTPUT_GRACE_S", "RunningAgent", "agent_process"]

GRACE_S = 2.0
"""How long an agent has to exit once its input is closed, and again once terminated."""
OUTPUT_GRACE_S = 1.0
"""How long the end of an agent's output is waited for once it has exited."""


class _Streams(asyncio.subprocess.SubprocessStreamProtocol):
    """asyncio's stdio streams of a process, and the moment the process itself exits."""

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exited: asyncio.Future[None] = loop.create_future()
        self.output_ended: asyncio.Future[None] = loop.create_future()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        """One of the process's pipes has closed (its stdout: all it wrote has been read)."""
        super().pipe_connection_lost(fd, exc)
        if fd == 1 and not self.output_ended.done():
            self.output_ended.set_result(None)

    def process_exited(self) -> None:
        """The process has ended (its output may still be held open by a child of it)."""
        super().process_exited()
        if not self.exited.done():
            self.exited.set_result(None)


@dataclass(frozen=True)
class RunningAgent:
    """An agent started by `agent_process`: its ACP connection and its process."""

    conn: ClientSideConnection
    process: asyncio.subprocess.Process
    _transport: asyncio.SubprocessTransport
    _streams: _Streams

    async def exited(self) -> int:
        """Wait for the agent's process to end; its exit code (negative: the signal)."""
        await self.process_ended()
        # What it wrote before it ended is read first, as it normally is by now; a child of
        # it holding its output open is not waited for.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._streams.output_ended), OUTPUT_GRACE_S)
        code = self._transport.get_returncode()
        assert code is not None  # set before the protocol hears of the exit
        return code

    async def process_ended(self) -> None:
        """Wait for the agent's process to end, whether or not its output has been read."""
        await asyncio.shield(self._streams.exited)

    def close_input(self) -> None:
        """Close the agent's stdin, so an agent waiting on us sees its end."""
        if self.process.stdin is not None:
            self.process.stdin.close()


@asynccontextmanager
async def agent_process(
    client: Client, command: Sequence[str], env: Mapping[str, str], cwd: Path, limit: int
) -> AsyncIterator[RunningAgent]:
    """Run `command` as an ACP agent speaking to `client`; end it, and close its pipes, on exit.

    Its stderr is the server's own (an unread pipe would fill and stall the agent); `limit`
    is the longest line read from it.
    """
    loop = asyncio.get_running_loop()
    program, *args = command
    transport, streams = await loop.subprocess_exec(
        lambda: _Streams(limit, loop),
        program,
        *args,
        stdin=PIPE,
        stdout=PIPE,
        stderr=None,
        env=dict(env),
        cwd=cwd,
    )
    process = asyncio.subprocess.Process(transport, streams, loop)
    agent: RunningAgent | None = None
    try:
        assert process.stdin is not None and process.stdout is not None  # both piped above
        conn = ClientSideConnection(client, process.stdin, process.stdout)
        agent = RunningAgent(conn, process, transport, streams)
        try:
            yield agent
        finally:
            await conn.close()
            await _end(agent)
    finally:
        # Kills the agent if its end was cut short (the server stopping cancels this), and
        # closes the pipes whatever still holds their other ends.
        transport.close()
        if agent is not None and transport.get_returncode() is None:
            # Reaped while the loop still runs: a process the loop never saw exit is later
            # reported by the garbage collector as still running.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(agent.process_ended(), GRACE_S)


async def _end(agent: RunningAgent) -> None:
    """Close the agent's input, then terminate and at last kill it if it does not exit."""
    with contextlib.suppress(OSError, RuntimeError):
        agent.close_input()
    try:
        await asyncio.wait_for(agent.process_ended(), GRACE_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            agent.process.terminate()
        try:
            await asyncio.wait_for(agent.process_ended(), GRACE_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                agent.process.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(agent.process_ended(), GRACE_S)
