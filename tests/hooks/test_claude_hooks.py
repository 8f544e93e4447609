"""Claude Code's hook settings read as Claude Code writes them: the events tether runs, and a
warning naming the file and key of each event or key it does not follow."""

from __future__ import annotations

import json
from pathlib import Path

from tether.settings import load_settings
from tether.settings.schema import HOOK_EVENTS


def test_claude_code_s_events_and_keys(ws: Path, tmp_path: Path) -> None:
    (ws / ".claude").mkdir()
    command = {"type": "command", "command": "./log.sh"}
    (ws / ".claude/settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "SubagentStart": [
                        {
                            "matcher": "explore",
                            "hooks": [{**command, "statusMessage": "Tracking...", "async": True}],
                        }
                    ],
                    "PostToolUseFailure": [{"matcher": "Bash", "hooks": [command]}],
                    "PermissionRequest": [{"hooks": [command]}],
                    "PostToolBatch": [{"hooks": [command]}],
                    "Bogus": [{"hooks": [command]}],
                }
            }
        )
    )
    home = tmp_path / "home"
    home.mkdir()
    settings = load_settings(ws, home, trusted=True)
    assert {"SubagentStart", "PostToolUseFailure", "PermissionRequest"} <= set(HOOK_EVENTS)
    assert [entry.event for entry in settings.hooks] == [
        "SubagentStart",
        "PostToolUseFailure",
        "PermissionRequest",
    ]
    problems = {(p.key, p.message) for p in settings.problems}
    where = "hooks.SubagentStart[0].hooks[0]"
    assert (f"{where}.statusMessage", "not shown: tether names the hook in its notice instead") in (
        problems
    )
    assert (f"{where}.async", "not followed: the hook runs before the session goes on") in problems
    assert ("hooks.PostToolBatch", "Claude Code's PostToolBatch event is not run by tether") in (
        problems
    )
    assert any(key == "hooks.Bogus" and "unknown hook event" in m for key, m in problems)
    assert all(str(p.source).endswith(".claude/settings.json") for p in settings.problems)
