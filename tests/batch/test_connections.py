"""A batch task's session closes its model's connections when the task ends (through the gate
that limits the batch's requests): a worker runs task after task in one process, and each
would leave a pool open. In process, against a loopback server speaking OpenAI's chat
completions that counts the connections held."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.models.sse_server import Received, Reply, SSEServer, sse_reply
from tests.polling import eventually
from tether.batch.gate import ModelGate
from tether.batch.runner import BatchOptions, run_task
from tether.batch.tasks import BatchTask
from tether.session import SessionStore


def _completion(received: Received) -> Reply:
    """A chat completion, `[DONE]` and all: read to its end, its connection goes back to the
    pool, kept alive."""
    return sse_reply("openai_text.sse")


class _Places:
    """A gate of one place, as the batch's own limits its requests."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        await self._lock.acquire()

    async def release(self) -> None:
        self._lock.release()


async def test_a_tasks_model_closes_with_its_session(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "a.txt").write_text("a\n")
    gate: ModelGate = _Places()
    async with SSEServer() as server:
        server.answer = _completion
        options = BatchOptions(
            home=tmp_path / "home", model="openai:llama-4", base_url=f"{server.url}/v1"
        )
        for n in (1, 2):
            result = await run_task(
                BatchTask(id=f"t{n}", prompt="hi", cwd=str(source)),
                options,
                store=SessionStore(tmp_path / "logs"),
                workspaces=tmp_path / "work",
                stop=asyncio.Event(),
                gate=gate,
            )
            assert result.status == "done", result
            assert len(server.requests) == n
            await eventually(lambda: server.open_connections == 0, f"task {n}'s pool closed")
