"""Skills over real pipes: a skill left out is said when the session opens, and `/skills`
lists them all as the agent's message, without asking the model."""

from __future__ import annotations

from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, updates_of
from tests.skills.support import skill


async def test_skills_are_listed_and_bad_ones_said(tmp_path: Path, agents: InMemoryAgents) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    skill(workspace / ".claude/skills", "release-notes", "Writes release notes")
    skill(home / "skills", "pdf", "Fills in PDF forms", **{"allowed-tools": "Read"})
    broken = workspace / ".tether/skills/broken/SKILL.md"
    broken.parent.mkdir(parents=True)
    broken.write_text("---\nname: broken\n---\nNo description.\n")
    model = script_spec(tmp_path, {"text": "never asked"})
    agent = await agents.start(home, "--model", model)
    await agent.initialize()
    try:
        reply, opened = await agent.request(
            "session/new", {"cwd": str(workspace), "mcpServers": []}
        )
        session_id = reply["result"]["sessionId"]
        reply, listed = await agent.request("session/prompt", prompt_params(session_id, "/skills"))
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    notes = opened + listed
    [commands] = updates_of(notes, "available_commands_update")
    assert "skills" in [c["name"] for c in commands["availableCommands"]]
    said = [u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")]
    assert said[0] == (
        f"Warning: skill left out: {broken}: no description (the front matter needs "
        "`description:`)\n"
    )
    # What tether does not use of a skill's file is said in the list, naming file and key.
    granted = f"{home}/skills/pdf/SKILL.md:4: `allowed-tools` is shown and grants nothing"
    assert said[1] == (
        "```text\nSkills (2): the model loads one with the `skill` tool.\n\n"
        f"  pdf  ({home}/skills/pdf/SKILL.md)\n    Fills in PDF forms\n    allowed-tools: Read\n\n"
        "  release-notes  (.claude/skills/release-notes/SKILL.md)\n    Writes release notes\n\n"
        f"Not supported:\n  {granted}: tether's permission rules decide\n\n"
        f"Left out:\n  {broken}: no description (the front matter needs `description:`)\n```\n"
    )
    assert not (home / "sessions").exists() or all(
        "never asked" not in p.read_text() for p in (home / "sessions").glob("*.jsonl")
    )
