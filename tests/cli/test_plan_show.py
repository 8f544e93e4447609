"""`tether show` prints a session's plan: the plan the model handed over with
`exit_plan_mode`, and what the person decided."""

from __future__ import annotations

from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.policy.support import Asker
from tests.session.helpers import Recorder, Sessions, call, script, text
from tether.policy import RejectWithMessage
from tether.tools.defaults import default_tools

PLAN = "## Plan\n\n1. Rename `helo` to `hello` in greet.py.\n2. Run the tests."


async def test_show_prints_the_plan_and_the_decisions(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = script(
        {"toolCalls": [call("p1", "exit_plan_mode", {"plan": PLAN})]},
        {"toolCalls": [call("p2", "ExitPlanMode", {"plan": PLAN + "\n3. Update the docs."})]},
        {"text": "On it."},
    )
    person = Asker(RejectWithMessage("Update the docs too."), "allow_once")
    with Sessions(home) as sessions:
        session = sessions.new(ws, model, default_tools(), mode="plan", asker=person)
        assert await session.prompt(text("plan the rename"), Recorder()) == "end_turn"
        session_id = session.id
    shown = tether_in_process(home, "show", session_id)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    # Each plan as it was handed over, then what the person decided of it, in order; the
    # plan's Markdown rendered, not its source.
    sent_back = out.index("Plan sent back · keep planning")
    approved = out.index("Plan approved · accept edits")
    assert out.index(" 1 Rename helo to hello in greet.py.") < sent_back < approved
    assert sent_back < out.index("Feedback: Update the docs too.") < approved
    assert sent_back < out.index(" 3 Update the docs.") < approved
    assert "## Plan" not in out and "**Feedback:**" not in out and "`helo`" not in out
