"""A client of `tether acp` speaking raw JSON-RPC lines, as an editor would: the client's end
(`AgentWire`) and its form over a real subprocess's pipes (`AgentProcess`). The form over
in-memory streams, with the agent in the test's own process, is `tests.acp.memory`."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

TIMEOUT = 30.0
"""Seconds to wait for one message before the test fails (bounds every read loop)."""

LINE_LIMIT = 64 * 1024 * 1024
"""The longest line read from the agent (a big result is one long line)."""

Message = dict[str, Any]


def tether_command() -> list[str]:
    """The installed `tether` console script next to this interpreter."""
    script = Path(sys.executable).with_name("tether")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tether"]


class AgentWire:
    """The client's end of one agent: raw lines in, parsed messages out, everything it wrote kept.

    How a line travels (a process's pipes, in-memory streams) is the subclass's part.
    """

    def __init__(self) -> None:
        self.received: list[Message] = []
        """Every message the agent wrote, in order."""
        self.sizes: list[int] = []
        """The size in bytes of each line in `received`, newline included."""
        self._next_id = 1

    @property
    def stderr(self) -> str:
        """What the agent logged so far."""
        raise NotImplementedError

    async def write_raw(self, data: bytes) -> None:
        """Write bytes exactly as given."""
        raise NotImplementedError

    async def read_line(self) -> bytes:
        """The agent's next line, newline included; `b""` once it closed its output."""
        raise NotImplementedError

    async def close(self, timeout: float = TIMEOUT) -> int:
        """End the agent's input, keep whatever it still writes; its exit status."""
        raise NotImplementedError

    async def send(self, message: Message) -> None:
        """Write one message as one line."""
        await self.write_raw(json.dumps(message).encode() + b"\n")

    async def read(self, timeout: float = TIMEOUT) -> Message:
        """The next message the agent wrote."""
        try:
            line = await asyncio.wait_for(self.read_line(), timeout)
        except TimeoutError:
            raise AssertionError(f"no message within {timeout}s; stderr:\n{self.stderr}") from None
        if not line:
            raise AssertionError(f"the agent closed stdout; stderr:\n{self.stderr}")
        message: Message = json.loads(line)
        self.received.append(message)
        self.sizes.append(len(line))
        return message

    async def notify(self, method: str, params: Message) -> None:
        """Send a notification."""
        await self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def start_request(self, method: str, params: Message) -> int:
        """Send a request without waiting; its id."""
        request_id = self._next_id
        self._next_id += 1
        await self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id

    async def response(
        self,
        request_id: int,
        on_request: Callable[[Message], Message | None] | None = None,
    ) -> tuple[Message, list[Message]]:
        """Read until the answer to `request_id`; agent requests are answered by `on_request`.

        Returns the answer and the notifications read meanwhile.
        """
        notes: list[Message] = []
        for _ in range(100_000):
            message = await self.read()
            if message.get("id") == request_id and "method" not in message:
                return message, notes
            if "method" in message and "id" in message:
                if on_request is None:
                    raise AssertionError(f"unexpected request from the agent: {message}")
                result = on_request(message)
                await self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif "method" in message:
                notes.append(message)
            else:
                raise AssertionError(f"unexpected message: {message}")
        raise AssertionError("too many messages")

    async def request(
        self,
        method: str,
        params: Message,
        on_request: Callable[[Message], Message | None] | None = None,
    ) -> tuple[Message, list[Message]]:
        """Send a request and read until its answer."""
        return await self.response(await self.start_request(method, params), on_request)

    async def initialize(self) -> Message:
        """The `initialize` handshake; the agent's result."""
        answer, _ = await self.request(
            "initialize",
            {
                "protocolVersion": 1,
                "clientCapabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        )
        return answer["result"]  # type: ignore[no-any-return]

    def keep_rest(self, rest: bytes) -> None:
        """Keep the lines the agent wrote after the client's last read."""
        for line in rest.split(b"\n"):
            if line:
                self.received.append(json.loads(line))
                self.sizes.append(len(line) + 1)


class AgentProcess(AgentWire):
    """One `tether acp` process over real pipes."""

    def __init__(self, process: asyncio.subprocess.Process, stderr: Path) -> None:
        super().__init__()
        self.process = process
        self.stderr_path = stderr

    @classmethod
    async def start(
        cls,
        home: Path,
        *args: str,
        cwd: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> AgentProcess:
        """Start `tether acp ARGS` with `TETHER_HOME=home` (and `env` added)."""
        home.mkdir(parents=True, exist_ok=True)
        stderr = home / "agent.stderr"
        env = {**os.environ, **(env or {}), "TETHER_HOME": str(home)}
        with stderr.open("ab") as err:
            process = await asyncio.create_subprocess_exec(
                *tether_command(),
                "acp",
                *args,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=err,
                env=env,
                cwd=cwd,
                limit=LINE_LIMIT,
            )
        return cls(process, stderr)

    @property
    def stderr(self) -> str:
        """What the agent logged so far."""
        return self.stderr_path.read_text(errors="replace")

    async def write_raw(self, data: bytes) -> None:
        """Write bytes exactly as given."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        await self.process.stdin.drain()

    async def read_line(self) -> bytes:
        """The next line of the agent's stdout."""
        assert self.process.stdout is not None
        return await self.process.stdout.readline()

    async def close(self, timeout: float = TIMEOUT) -> int:
        """Close stdin, keep whatever the agent still writes, and wait for it to exit."""
        assert self.process.stdin is not None and self.process.stdout is not None
        if not self.process.stdin.is_closing():
            self.process.stdin.close()
        try:
            rest = await asyncio.wait_for(self.process.stdout.read(), timeout)
            status = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            raise AssertionError(f"the agent did not exit; stderr:\n{self.stderr}") from None
        self.keep_rest(rest)
        return status
