"""Shared by the ACP tests: a scripted agent started (in process, or over real pipes), a session
opened, a prompt's params, and the updates and errors of its replies."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from tests.acp.wire import AgentProcess, AgentWire, Message
from tests.cli.support import scripted_model

__all__ = [
    "Starter",
    "error_of",
    "opened_session",
    "prompt_params",
    "script_spec",
    "session_updates",
    "started_agent",
    "updates_of",
]


def script_spec(tmp: Path, *turns: dict[str, Any]) -> str:
    """A `--model` spec for a script of `turns`, written under `tmp`."""
    return scripted_model(tmp / "script.json", *turns)


class Starter(Protocol):
    """What starts an agent: `InMemoryAgents` (in process) or `AgentProcess` (over pipes)."""

    async def start(self, home: Path, *args: str, env: dict[str, str] | None = None) -> AgentWire:
        """`tether acp ARGS` with `TETHER_HOME=home` (and `env` added)."""
        ...


async def started_agent(
    starter: Starter | type[AgentProcess], tmp: Path, model: str, mode: str = "ask"
) -> AgentWire:
    """`tether acp` on `model` in `mode`, initialized."""
    agent = await starter.start(tmp / "home", "--model", model, "--mode", mode)
    await agent.initialize()
    return agent


async def opened_session(agent: AgentWire, cwd: Path, **extra: Any) -> str:
    """A new session in `cwd` (made if need be), its commands' advert read; its id."""
    cwd.mkdir(exist_ok=True)
    reply, _ = await agent.request("session/new", {"cwd": str(cwd), "mcpServers": [], **extra})
    # The session's commands come right after the answer that makes it known.
    advert = await agent.read()
    assert advert["params"]["update"]["sessionUpdate"] == "available_commands_update", advert
    return str(reply["result"]["sessionId"])


def prompt_params(session_id: str, text: str) -> Message:
    """`session/prompt`'s params: `text` for `session_id`."""
    return {"sessionId": session_id, "prompt": [{"type": "text", "text": text}]}


def error_of(reply: Message) -> Message:
    """The error of a JSON-RPC reply (which must be one)."""
    assert "error" in reply, reply
    error: Message = reply["error"]
    return error


def session_updates(notes: list[Message]) -> list[Message]:
    """The update of every `session/update` among `notes`, in order."""
    return [n["params"]["update"] for n in notes if n.get("method") == "session/update"]


def updates_of(notes: list[Message], kind: str) -> list[Message]:
    """The `session/update`s of `kind` among `notes`."""
    return [u for u in session_updates(notes) if u["sessionUpdate"] == kind]
