"""Skills in a session: only names and descriptions reach the model until it loads one with
`skill`, which brings the body and the folder; the card is a read card of `SKILL.md`, replayed
as it was shown, also where the skill is gone since."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.session.helpers import Recorder, Sessions, call, script, text
from tests.skills.support import skill
from tether.content import TextContent
from tether.models.messages import ToolResultMessage
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionConfig
from tether.tools.defaults import default_tools
from tether.views import ReadResultView

BODIES = {
    "deploy": "Run `make deploy` from the repository root.",
    "review": "Check the tests first, then the names.",
    "notes": "Group the pull requests by label.",
    "pdf": "Run scripts/fill.py with the form and the values.",
}


@pytest.fixture
def everywhere(home: Path, ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A skill in each of the four places; Claude Code's user directory in a fake home."""
    fake_home = tmp_path / "fake-home"
    monkeypatch.setenv("HOME", str(fake_home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    skill(ws / ".tether/skills", "deploy", "Deploys the project", BODIES["deploy"])
    skill(ws / ".claude/skills", "review", "Reviews a change", BODIES["review"])
    skill(home / "skills", "notes", "Writes release notes", BODIES["notes"])
    pdf = skill(
        fake_home / ".claude/skills",
        "pdf",
        "Fills in PDF forms",
        BODIES["pdf"],
        **{"allowed-tools": "Read, Bash(python3:*)"},
    )
    (pdf.parent / "scripts").mkdir()
    (pdf.parent / "scripts/fill.py").write_text("print('filled')\n")
    return pdf


def texts(message: object) -> list[str]:
    return [b.text for b in getattr(message, "content", ()) if isinstance(b, TextContent)]


async def test_only_descriptions_until_the_model_loads_a_skill(
    home: Path, ws: Path, sessions: Sessions, everywhere: Path
) -> None:
    model = script(
        {"toolCalls": [call("s1", "skill", {"name": "pdf"})]},
        {"toolCalls": [call("s2", "skill", {"name": "nothere"})]},
        {"text": "Filled."},
    )
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, SessionConfig(model=model, tools=tools, mode="auto"))
    live = Recorder()
    assert await session.prompt(text("fill the form"), live) == "end_turn"

    first = model.requests[0]
    assert "skill" in [spec.name for spec in first.tools]
    for line in (
        "- deploy: Deploys the project",
        "- notes: Writes release notes",
        "- pdf: Fills in PDF forms",
        "- review: Reviews a change",
    ):
        assert line in first.system
    for body in BODIES.values():
        assert body not in first.system
        assert all(body not in t for m in first.messages for t in texts(m))

    # After the call, the model has the body and the folder, and nothing of the others.
    [loaded] = [m for m in model.requests[1].messages if isinstance(m, ToolResultMessage)]
    [said] = texts(loaded)
    assert f"Base directory for this skill: {everywhere.parent}" in said
    assert BODIES["pdf"] in said and BODIES["deploy"] not in said
    assert "It expects these tools: Read, Bash(python3:*)" in said
    [unknown] = [m for m in model.requests[2].messages if isinstance(m, ToolResultMessage)][-1:]
    assert unknown.is_error
    assert texts(unknown) == [
        "Unknown skill: 'nothere'. Available skills: deploy, notes, pdf, review"
    ]

    # People see a read card of SKILL.md.
    done = live.finished()
    card = done["s1"].view
    assert isinstance(card, ReadResultView)
    assert (card.title, card.path, card.lang, card.offset) == (
        "Skill pdf",
        str(everywhere),
        "markdown",
        1,
    )
    assert card.total_lines == 6 and card.lines[-1].text == BODIES["pdf"]
    assert card.content is not None and card.content.endswith("(End of file - total 6 lines)")
    assert done["s2"].status == "failed"
    assert session.replay() == live.without_progress()

    # Loaded where there are no skills any more, the session still shows the card it showed.
    session_id = session.id
    session.close()
    shutil.rmtree(everywhere.parent.parent)
    for place in (ws / ".tether/skills", ws / ".claude/skills", home / "skills"):
        shutil.rmtree(place)
    again = sessions.load(session_id, SessionConfig(model=script(), tools=tools, mode="auto"))
    assert "skill" not in [tool.name for tool in again.tools.offered()]
    assert again.replay() == live.without_progress()


async def test_no_skills_no_tool(
    ws: Path, sessions: Sessions, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    model = script({"text": "Hi."})
    tools = default_tools(SandboxPolicy("off"))
    session = sessions.create(ws, SessionConfig(model=model, tools=tools, mode="auto"))
    assert await session.prompt(text("hi"), Recorder()) == "end_turn"
    assert "skill" not in [spec.name for spec in model.requests[0].tools]
    assert "# Skills" not in model.requests[0].system
