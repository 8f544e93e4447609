"""The web tests' own agents (`fake_agent.py`, `config_agent.py`), which write ACP's JSON lines
themselves: what the ACP SDK's real client reads from one, over real pipes, and what they cost
to start."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from acp import PROTOCOL_VERSION, RequestError, spawn_agent_process, text_block
from acp.schema import (
    AgentMessageChunk,
    AllowedOutcome,
    DeniedOutcome,
    RequestPermissionResponse,
    ToolCallProgress,
    ToolCallStart,
    UserMessageChunk,
)

from tests.web.served import FAKE_AGENT


class Answering:
    """A client that keeps every update and answers each permission question from a list."""

    def __init__(self, *answers: str | None) -> None:
        self.answers = list(answers)
        self.updates: list[Any] = []
        self.asked: list[Any] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        """Keep the update (the SDK has checked it against ACP's schema)."""
        self.updates.append(update)

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        """The next answer: an option's id, or `None` for a cancelled question."""
        self.asked.append(tool_call)
        chosen = self.answers.pop(0)
        if chosen is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=chosen)
        )

    def statuses(self, call_id: str) -> list[str | None]:
        """The statuses one tool call went through."""
        return [
            u.status
            for u in self.updates
            if isinstance(u, ToolCallStart | ToolCallProgress) and u.tool_call_id == call_id
        ]


async def test_the_sdk_client_reads_the_scenario_questions_cancels_and_replays(
    tmp_path: Path,
) -> None:
    client = Answering("allow-once", "reject-once", None)
    store = tmp_path / "store"
    async with spawn_agent_process(
        client, sys.executable, str(FAKE_AGENT), "--store", str(store)
    ) as (conn, _process):
        init = await conn.initialize(protocol_version=PROTOCOL_VERSION)
        assert init.agent_capabilities is not None and init.agent_capabilities.load_session
        assert init.auth_methods in (None, [])
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        sid = session.session_id
        assert session.modes is not None and session.modes.current_mode_id == "ask"

        for _ in range(3):  # allowed, rejected, question cancelled
            reply = await conn.prompt(session_id=sid, prompt=[text_block("go <b>")])
            assert reply.stop_reason == "end_turn"
        assert client.statuses("edit-1") == ["pending", "completed"] + ["pending", "failed"] * 2
        assert client.statuses("bash-1")[:3] == ["pending", "in_progress", "failed"]
        [question, *_] = client.asked
        assert question.field_meta["tether"]["view"]["card"] == "diff"

        # A prompt ending in "wait" runs until the client cancels it.
        waiting = asyncio.ensure_future(conn.prompt(session_id=sid, prompt=[text_block("wait")]))
        await asyncio.sleep(0.2)
        await conn.cancel(session_id=sid)
        assert (await asyncio.wait_for(waiting, 10)).stop_reason == "cancelled"

        listed = await conn.list_sessions()
        assert [(s.session_id, s.title) for s in listed.sessions] == [(sid, "go <b>")]
        before = len(client.updates)
        loaded = await conn.load_session(cwd=str(tmp_path), session_id=sid, mcp_servers=[])
        assert loaded.modes is not None
        replayed = client.updates[before:]
        assert isinstance(replayed[0], UserMessageChunk)
        texts = [u.content.text for u in replayed if isinstance(u, AgentMessageChunk)]
        assert "".join(texts[:2]) == "Reading the file first."

        # What it does not offer is refused as the SDK refuses it.
        try:
            await conn.fork_session(cwd=str(tmp_path), session_id=sid)
        except RequestError as exc:
            assert exc.code == -32601
        else:
            raise AssertionError("session/fork was answered")


async def test_without_views_it_asks_as_opencode_does_and_sends_no_tether_meta(
    tmp_path: Path,
) -> None:
    client = Answering("allow-once")
    store = tmp_path / "store"
    async with spawn_agent_process(
        client, sys.executable, str(FAKE_AGENT), "--store", str(store), "--no-views"
    ) as (conn, _process):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    [question] = client.asked
    assert question.raw_input["filepath"] == "/work/demo/calc.py"
    assert question.raw_input["diff"].startswith("--- calc.py\n+++ calc.py\n")
    calls = [u for u in client.updates if isinstance(u, ToolCallStart | ToolCallProgress)]
    assert calls and all(u.field_meta is None for u in calls)


@pytest.mark.parametrize("agent", [FAKE_AGENT, FAKE_AGENT.with_name("config_agent.py")])
def test_they_start_without_importing_the_acp_sdk_or_pydantic(agent: Path, tmp_path: Path) -> None:
    """Each browser tab starts one: the SDK's schema alone cost it about half a second of CPU."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", str(agent), "--store", str(tmp_path)],
        input="",  # a pipe closed at once, as a page that went away leaves it
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "asyncio" in imported  # the report is there
    heavy = {name for name in imported if name.split(".")[0] in ("acp", "pydantic")}
    assert heavy == set(), sorted(heavy)
