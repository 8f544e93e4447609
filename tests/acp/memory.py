"""`tether acp`'s agent in the test's own process, spoken to over in-memory byte streams.

The agent is built as `tether acp ARGS` builds it (the same parser, `tether.cli.acp.agent_for`)
and served as stdio serves it (`tether.acp.server.serve`: tether's JSON-RPC line transport and
the SDK's connection); only the bytes travel through two `asyncio.StreamReader`s instead of a
process's pipes. The client is a real one speaking JSON-RPC over those bytes: `AgentWire`, the
same raw line client as over pipes (`InMemoryAgents.start`), or the SDK's own
`ClientSideConnection` (`InMemoryAgents.connect`, as `acp.spawn_agent_process` gives one).

What a process has and this has not stays over real pipes (`tests.acp.wire.AgentProcess`):
stdio's file descriptors, an exit status, its own working directory and signals, stderr as a
file, two agents with different environments at once, and a pipe's back-pressure (here a write
never waits for the reader).

The environment a process would get (`TETHER_HOME`, a key, an endpoint) is set for as long as
the test's in-process agents run, and put back when the last one closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from acp import Client
from acp.client.connection import ClientSideConnection

from tests.acp.wire import LINE_LIMIT, TIMEOUT, AgentWire
from tether.acp.server import serve
from tether.acp.transport import LINE_LIMIT as AGENT_LINE_LIMIT
from tether.cli import build_parser
from tether.cli.acp import agent_for

__all__ = ["AgentInMemory", "InMemoryAgents"]


class _Into:
    """The agent's output: each write is fed to the client's reader (a `Sink`)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self.closed = False

    async def write(self, data: bytes) -> None:
        # After the end, writes are dropped, as a closed pipe's transport drops them.
        if not self.closed:
            self._reader.feed_data(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._reader.feed_eof()


class _Feed(asyncio.Transport):
    """The write end of the agent's input for the SDK's `StreamWriter`: bytes go in at once."""

    def __init__(self, agent: AgentInMemory) -> None:
        super().__init__()
        self._agent = agent

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._agent.feed(bytes(data))

    def is_closing(self) -> bool:
        return self._agent.input_ended


class _Log(logging.Handler):
    """What the agent logs, formatted as `tether` formats its stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("tether: %(levelname)s: %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class AgentInMemory(AgentWire):
    """One agent served in this process; its client end."""

    def __init__(
        self,
        served: asyncio.Task[None],
        to_agent: asyncio.StreamReader,
        output: _Into,
        from_agent: asyncio.StreamReader,
        *,
        log: _Log,
        on_closed: Callable[[], None],
    ) -> None:
        super().__init__()
        self._served = served
        self._to_agent = to_agent
        self._output = output
        self._from_agent = from_agent
        self._log = log
        self._on_closed = on_closed
        self.input_ended = False
        self.closed = False

    @property
    def stderr(self) -> str:
        """What the agent logged so far (its log records, as its stderr would show them)."""
        return "".join(line + "\n" for line in self._log.lines)

    @property
    def output(self) -> asyncio.StreamReader:
        """The agent's output, for a client that reads it itself."""
        return self._from_agent

    def feed(self, data: bytes) -> None:
        """Put bytes on the agent's input."""
        if self.input_ended:
            raise BrokenPipeError("the agent's input is closed")
        self._to_agent.feed_data(data)

    async def write_raw(self, data: bytes) -> None:
        """Write bytes exactly as given."""
        self.feed(data)
        await asyncio.sleep(0)  # the agent reads as a pipe's reader would: when it can

    async def read_line(self) -> bytes:
        """The agent's next line."""
        return await self._from_agent.readline()

    async def close(self, timeout: float = TIMEOUT) -> int:
        """End the agent's input, wait until it released every session; 0, or its error."""
        if not self.input_ended:
            self.input_ended = True
            self._to_agent.feed_eof()
        try:
            await asyncio.wait_for(asyncio.shield(self._served), timeout)
        except TimeoutError:
            self._served.cancel()
            raise AssertionError(f"the agent did not stop; log:\n{self.stderr}") from None
        finally:
            self._output.close()
            self.keep_rest(await self._from_agent.read())
            self.closed = True
            self._on_closed()
        self._served.result()  # its failure, with its own traceback
        return 0


class InMemoryAgents:
    """Starts a test's in-process agents, each with the environment its process would have."""

    def __init__(self) -> None:
        self._open: list[AgentInMemory] = []
        self._environment: dict[str, str] = {}
        self._patch: pytest.MonkeyPatch | None = None
        self._log = _Log()

    async def start(
        self, home: Path, *args: str, env: dict[str, str] | None = None
    ) -> AgentInMemory:
        """The agent of `tether acp ARGS` with `TETHER_HOME=home` (and `env` added)."""
        self._settle()
        environment = {**(env or {}), "TETHER_HOME": str(home)}
        if self._patch is None:
            self._enter(environment)
        elif environment != self._environment:
            raise AssertionError(
                "agents open at once in one process share its environment: "
                "start one with another environment over pipes (AgentProcess)"
            )
        home.mkdir(parents=True, exist_ok=True)
        agent = agent_for(build_parser("acp").parse_args(["acp", *args]))
        if agent is None:
            raise AssertionError(f"`tether acp {' '.join(args)}` refused its flags")
        to_agent = asyncio.StreamReader(limit=AGENT_LINE_LIMIT)
        from_agent = asyncio.StreamReader(limit=LINE_LIMIT)
        output = _Into(from_agent)
        served = asyncio.create_task(serve(agent, to_agent, output), name="tether acp in memory")
        started = AgentInMemory(
            served, to_agent, output, from_agent, log=self._log, on_closed=self._settle
        )
        self._open.append(started)
        return started

    @asynccontextmanager
    async def connect(
        self, client: Client | Any, home: Path, *args: str, env: dict[str, str] | None = None
    ) -> AsyncIterator[tuple[ClientSideConnection, AgentInMemory]]:
        """The SDK's client connection to the agent of `tether acp ARGS`, serving `client`."""
        agent = await self.start(home, *args, env=env)
        loop = asyncio.get_running_loop()
        writer = asyncio.StreamWriter(_Feed(agent), asyncio.streams.FlowControlMixin(), None, loop)
        connection = ClientSideConnection(client, writer, agent.output)
        try:
            yield connection, agent
        finally:
            await connection.close()
            await agent.close()

    async def close_all(self) -> None:
        """Close the agents a test left open, and put the environment back."""
        try:
            for agent in list(self._open):
                if not agent.closed:
                    await agent.close()
        finally:
            self._open.clear()
            self._settle()

    def _enter(self, environment: dict[str, str]) -> None:
        self._patch = pytest.MonkeyPatch()
        for name, value in environment.items():
            self._patch.setenv(name, value)
        self._environment = environment
        logging.getLogger().addHandler(self._log)

    def _settle(self) -> None:
        """Once every agent is closed, the environment (and the log) is the test's again."""
        self._open = [agent for agent in self._open if not agent.closed]
        if self._open or self._patch is None:
            return
        self._patch.undo()
        self._patch = None
        self._environment = {}
        logging.getLogger().removeHandler(self._log)
