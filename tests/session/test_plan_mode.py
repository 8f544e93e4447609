"""Plan mode in a session: nothing changes until the person approves the plan, which the
model hands over with `exit_plan_mode`; the plan is in the log and replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.policy.support import Asker
from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.policy import (
    PlanApproval,
    RejectWithMessage,
)
from tether.sandbox.bwrap import find_bwrap
from tether.session import ToolCallStarted
from tether.session.log.store import SessionStore
from tether.session.replay import replay
from tether.tools.defaults import default_tools
from tether.views import GenericCallView, GenericResultView, TerminalCallView

PLAN = "## Plan\n\n1. Change `return 1` to `return 2` in `a.py`.\n2. Run the tests."


async def test_an_edit_is_refused_until_the_plan_is_approved_in_accept_edits(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    (ws / "a.py").write_text("def f():\n    return 1\n")
    edit = {"path": "a.py", "old_string": "return 1", "new_string": "return 2"}
    model = script(
        {"toolCalls": [call("r", "read", {"path": "a.py"}), call("e1", "edit", edit)]},
        {"toolCalls": [call("p", "ExitPlanMode", {"plan": PLAN})]},
        {"toolCalls": [call("e2", "edit", edit)]},
        {"text": "Done."},
    )
    person = Asker("allow_once")
    session = sessions.new(ws, model, default_tools(), mode="plan", asker=person)
    recorder = Recorder()
    assert await session.prompt(text("Make f return 2"), recorder) == "end_turn"

    done = recorder.finished()
    assert done["e1"].result.is_error
    assert done["e1"].result.text().startswith("Plan mode is on: ")
    assert "exit_plan_mode" in done["e1"].result.text()
    # The person saw the plan, and chose among the modes to work in, or more planning.
    [question] = person.requests
    assert question.subject == PlanApproval(plan=PLAN, tool_call_id="p")
    assert [o.name for o in question.options] == [
        "Yes, and accept edits",
        "Yes, and run in auto mode",
        "No, keep planning",
    ]
    assert session.gate.mode == "accept-edits"
    assert done["p"].result.text().startswith("The user approved your plan.")
    assert not done["e2"].result.is_error
    assert (ws / "a.py").read_text() == "def f():\n    return 2\n"

    started = {u.tool_call_id: u.view for u in recorder.updates if isinstance(u, ToolCallStarted)}
    # The plan is Markdown, and its cards say so: every surface renders it.
    assert started["p"] == GenericCallView(title="Plan", kind="other", content=PLAN, markdown=True)
    assert done["p"].view == GenericResultView(
        title="Plan approved · accept edits", content=PLAN, markdown=True
    )
    # The log keeps tether's name and the plan; the cards replay as they were shown.
    calls = [e for e in log_lines(session, home) if e["type"] == "tool/call"]
    assert [e["name"] for e in calls] == ["read", "edit", "exit_plan_mode", "edit"]
    live = recorder.without_progress()
    assert session.replay() == live
    stored = SessionStore(home).read(session.id)
    assert replay(stored.events, default_tools(), stored.header.cwd) == live
    # The system prompt spoke of plan mode while it was on, and not after.
    systems = [request.system for request in model.requests]
    assert "# Plan mode" in systems[0] and "Permission mode: plan (planning" in systems[0]
    assert "# Plan mode" not in systems[-1]
    assert "Permission mode: accept-edits" in systems[-1]
    # `exit_plan_mode` is offered while planning, and no longer once the plan is approved.
    offered = [[tool.name for tool in request.tools] for request in model.requests]
    assert "exit_plan_mode" in offered[0] and "exit_plan_mode" in offered[1]
    assert "exit_plan_mode" not in offered[-1]


async def test_keep_planning_sends_the_persons_words_back(ws: Path, sessions: Sessions) -> None:
    model = script(
        {"toolCalls": [call("p1", "exit_plan_mode", {"plan": PLAN})]},
        {"toolCalls": [call("p2", "exit_plan_mode", {"plan": PLAN + "\n3. Update the docs."})]},
        {"text": "Working."},
    )
    person = Asker(RejectWithMessage("Also update the docs."), "allow_always")
    session = sessions.new(ws, model, default_tools(), mode="plan", asker=person)
    recorder = Recorder()
    assert await session.prompt(text("plan it"), recorder) == "end_turn"
    done = recorder.finished()
    assert not done["p1"].result.is_error
    assert done["p1"].result.text() == (
        "The user did not approve the plan: plan mode stays on. Keep planning, then call "
        "exit_plan_mode with the revised plan. They say:\nAlso update the docs."
    )
    assert done["p1"].view == GenericResultView(
        title="Plan sent back · keep planning",
        content=f"{PLAN}\n\n---\n\n**Feedback:** Also update the docs.",
        markdown=True,
    )
    assert done["p2"].view is not None and done["p2"].view.title == "Plan approved · auto"
    assert session.gate.mode == "auto"
    assert session.replay() == recorder.without_progress()


async def test_without_a_person_or_plan_mode_the_tool_is_refused(
    ws: Path, sessions: Sessions
) -> None:
    model = script({"toolCalls": [call("p", "exit_plan_mode", {"plan": PLAN})]}, {"text": "ok"})
    headless = sessions.new(ws, model, default_tools(), mode="plan")
    recorder = Recorder()
    await headless.prompt(text("plan"), recorder)
    assert (
        recorder.finished()["p"]
        .result.text()
        .startswith("Plan mode is on, and there is no one here to approve a plan")
    )
    assert headless.gate.mode == "plan"
    model = script({"toolCalls": [call("p", "exit_plan_mode", {"plan": PLAN})]}, {"text": "ok"})
    working = sessions.new(ws, model, default_tools(), mode="auto", asker=Asker())
    recorder = Recorder()
    await working.prompt(text("plan"), recorder)
    # Outside plan mode the model is not offered the tool; a call to it anyway is refused.
    assert all("exit_plan_mode" not in [t.name for t in r.tools] for r in model.requests)
    assert recorder.finished()["p"].result.text().startswith("Plan mode is not on")


@pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")
async def test_commands_run_read_only_and_writes_are_refused(ws: Path, sessions: Sessions) -> None:
    (ws / "a.py").write_text("x = 1\n")
    model = script(
        {
            "toolCalls": [
                call("ls", "bash", {"command": "cat a.py"}),
                call("touch", "bash", {"command": "touch made"}),
                call("out", "bash", {"command": "touch made", "unsandboxed": True}),
                call("w", "write", {"path": "new.py", "content": "y = 2\n"}),
            ]
        },
        {"text": "ok"},
    )
    # Commands still ask in plan mode, as in ask mode: the person allows them.
    session = sessions.new(
        ws, model, default_tools(), mode="plan", asker=Asker("allow_once", "allow_once")
    )
    recorder = Recorder()
    await session.prompt(text("look"), recorder)
    done = recorder.finished()
    assert "x = 1" in done["ls"].result.text()
    # The card says how the command ran: in the read-only sandbox.
    started = {u.tool_call_id: u.view for u in recorder.updates if isinstance(u, ToolCallStarted)}
    assert isinstance(started["ls"], TerminalCallView)
    assert started["ls"].sandbox == "sandbox: read-only, no network"
    assert "Read-only file system" in done["touch"].result.text()
    assert (
        done["out"]
        .result.text()
        .startswith("Plan mode is on: commands run only in the read-only sandbox while planning")
    )
    assert done["w"].result.text().startswith("Plan mode is on: ")
    assert not (ws / "made").exists() and not (ws / "new.py").exists()
