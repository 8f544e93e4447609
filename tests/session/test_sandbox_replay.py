"""A command's card says how it ran, live and on replay, whatever the replaying process uses."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionStore, ToolCallStarted
from tether.session.log.eventlog import read_log
from tether.session.replay import replay
from tether.tools.bash.tool import BashTool
from tether.tools.defaults import default_tools
from tether.views import TerminalCallView


def _labels(updates: list[object]) -> list[str | None]:
    return [
        u.view.sandbox
        for u in updates
        if isinstance(u, ToolCallStarted) and isinstance(u.view, TerminalCallView)
    ]


@pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")
async def test_the_stored_card_keeps_how_the_command_ran(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = script(
        {
            "toolCalls": [
                call("a", "bash", {"command": "true"}),
                call("b", "bash", {"command": "true", "unsandboxed": True}),
            ]
        },
        {"text": "done"},
    )
    off = BashTool(sandbox=SandboxPolicy("off"))
    session = sessions.new(ws, model, [off])
    recorder = Recorder()
    assert await asyncio.wait_for(session.prompt(text("go"), recorder), 30) == "end_turn"
    session_id = session.id
    assert _labels(recorder.updates) == ["unsandboxed", "unsandboxed"]
    # Replayed by a process whose bash is sandboxed (the default): still as it ran.
    events = read_log(SessionStore(home).path(session_id)).events
    replayed = replay(events, default_tools(), str(ws.resolve()))
    assert _labels(replayed) == ["unsandboxed", "unsandboxed"]
    # And the other way round.
    model = script({"toolCalls": [call("c", "bash", {"command": "true"})]}, {"text": "ok"})
    session = sessions.new(ws, model, default_tools(SandboxPolicy(allow_network=True)))
    recorder = Recorder()
    await asyncio.wait_for(session.prompt(text("go"), recorder), 30)
    session_id = session.id
    label = "sandbox: workspace-write, network"
    assert _labels(recorder.updates) == [label]
    events = read_log(SessionStore(home).path(session_id)).events
    off_tools = default_tools(SandboxPolicy("off"))
    assert _labels(replay(events, off_tools, str(ws.resolve()))) == [label]
