"""The agent subprocess of one page: started with its stdio as the ACP connection, and ended
with every pipe and the process's transport closed, however its end comes.

The ACP SDK's `spawn_agent_process` ends an agent well (stdin closed, a grace period, then
terminate and kill) but leaves closing asyncio's subprocess transport to the end of the
agent's output being read. When a child of the agent still holds that output, or the server's
event loop stops before the end is read, the transport and its pipes stay open: a long-running
`tether web` would leak descriptors with each agent it ends. Here the transport is owned and
closed when the agent is done with.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from subprocess import PIPE

from acp.client.connection import ClientSideConnection
from acp.interfaces import Client

__all__ = ["GRACE_S", "agent_process"]

GRACE_S = 2.0
"""How long an agent has to exit once its input is closed, and again once terminated."""


@asynccontextmanager
async def agent_process(
    client: Client, command: Sequence[str], env: Mapping[str, str], cwd: Path, limit: int
) -> AsyncIterator[tuple[ClientSideConnection, asyncio.subprocess.Process]]:
    """Run `command` as an ACP agent speaking to `client`; end it, and close its pipes, on exit.

    Its stderr is the server's own (an unread pipe would fill and stall the agent); `limit`
    is the longest line read from it.
    """
    loop = asyncio.get_running_loop()
    program, *args = command
    transport, protocol = await loop.subprocess_exec(
        lambda: asyncio.subprocess.SubprocessStreamProtocol(limit=limit, loop=loop),
        program,
        *args,
        stdin=PIPE,
        stdout=PIPE,
        stderr=None,
        env=dict(env),
        cwd=cwd,
    )
    process = asyncio.subprocess.Process(transport, protocol, loop)
    try:
        assert process.stdin is not None and process.stdout is not None  # both piped above
        conn = ClientSideConnection(client, process.stdin, process.stdout)
        try:
            yield conn, process
        finally:
            await conn.close()
            await _end(process)
    finally:
        # Kills the agent if its end was cut short (the server stopping cancels this), and
        # closes the pipes whatever still holds their other ends.
        transport.close()
        if transport.get_returncode() is None:
            # Reaped while the loop still runs: a process the loop never saw exit is later
            # reported by the garbage collector as still running.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), GRACE_S)


async def _end(process: asyncio.subprocess.Process) -> None:
    """Close the agent's input, then terminate and at last kill it if it does not exit."""
    assert process.stdin is not None
    with contextlib.suppress(OSError, RuntimeError):
        process.stdin.close()
        await process.stdin.wait_closed()
    try:
        await asyncio.wait_for(process.wait(), GRACE_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), GRACE_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            # The wait ends with the agent's output too, which a child of the agent may hold
            # open: the transport, closed after this, lets go of it.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), GRACE_S)
