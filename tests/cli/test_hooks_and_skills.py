"""Hooks and skills from the command line: a PreToolUse hook refuses `rm -rf` in `tether
run`, `tether show` prints its notice again, `show --json` carries it, and the run's end runs
SessionEnd; a skill's read card and `/skills`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import flat, piped, scripted_model
from tests.hooks.scripts import GUARD, bash_hook, group, recorded, recorder
from tests.skills.support import skill


def test_a_hook_refuses_rm_rf_and_show_prints_it_again(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    guard = bash_hook(tmp_path, "guard", GUARD)
    record, inputs = recorder(tmp_path)
    (home / "settings.json").write_text(
        json.dumps(
            {"hooks": {"PreToolUse": [group(guard, matcher="Bash")], "SessionEnd": [group(record)]}}
        )
    )
    (ws / "build").mkdir()
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": "rm -rf build"}}]},
        {"text": "The build stays."},
    )
    args = ("--model", model, "--cwd", str(ws), "--sandbox", "off", "--mode", "auto")
    run = tether_in_process(home, "run", "clean up", *args)
    assert run.returncode == 0, run.stderr  # a refused call is the model's to handle
    assert (ws / "build").is_dir()
    shown = flat(run.stdout)
    assert "⚙ PreToolUse hook blocked the call: rm -rf is not allowed here (bash " in shown
    assert (
        f"The PreToolUse hook `{guard}` blocked this call: rm -rf is not allowed here failed"
    ) in shown
    assert "⚙ SessionEnd hook ran" in shown
    [ended] = recorded(inputs)
    assert (ended["hook_event_name"], ended["reason"]) == ("SessionEnd", "other")

    session_id = json.loads(tether_in_process(home, "sessions", "--json").stdout)[0]["id"]
    show = tether_in_process(home, "show", session_id)
    assert show.returncode == 0, show.stderr
    assert show.stdout == run.stdout
    updates = json.loads(tether_in_process(home, "show", session_id, "--json").stdout)["updates"]
    hooks = [u for u in updates if u["kind"] == "hook_ran"]
    assert [(h["event"], h.get("decision")) for h in hooks] == [
        ("PreToolUse", "deny"),
        ("SessionEnd", None),
    ]
    assert hooks[0]["toolCallId"] == "c1" and hooks[0]["message"] == "rm -rf is not allowed here"


def test_a_skill_s_card_and_the_skills_command(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    skill(ws / ".claude/skills", "release-notes", "Writes release notes", "Group by label.")
    broken = ws / ".tether/skills/broken/SKILL.md"
    broken.parent.mkdir(parents=True)
    broken.write_text("no front matter\n")
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "c1", "name": "skill", "arguments": {"name": "release-notes"}}]},
        {"text": "Loaded."},
    )
    run = tether_in_process(
        home, "run", "notes", "--model", model, "--cwd", str(ws), "--sandbox", "off"
    )
    assert run.returncode == 0, run.stderr
    shown = flat(run.stdout)
    assert f"> notes {ws}/.claude/skills/release-notes/SKILL.md " in shown
    numbered = "1 --- 2 name: release-notes 3 description: Writes release notes 4 --- 5 Group"
    assert f"{numbered} by label. Loaded." in shown
    assert f"skill left out: {broken}: no front matter" in flat(run.stderr)
    session_id = json.loads(tether_in_process(home, "sessions", "--json").stdout)[0]["id"]
    assert tether_in_process(home, "show", session_id).stdout == run.stdout

    listed = tether_in_process(home, "run", "/skills", "--model", model, "--cwd", str(ws))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith(
        "Skills (1): the model loads one with the `skill` tool.\n\n"
        "  release-notes  (.claude/skills/release-notes/SKILL.md)\n    Writes release notes\n"
    )
    assert f"Left out:\n  {broken}: no front matter" in listed.stdout


def test_session_start_and_end_around_a_clear(tmp_path: Path, ws: Path) -> None:
    """Lines piped to `tether`: `/clear` ends the session (`clear`) and the next one starts
    as cleared; the last one ends as the input does."""
    home = tmp_path / "home"
    home.mkdir()
    record, inputs = recorder(tmp_path)
    # The recorder writes outside the workspace: it runs outside the sandbox.
    unsandboxed = group(record, sandbox=False)
    both = {"SessionStart": [unsandboxed], "SessionEnd": [unsandboxed]}
    (home / "settings.json").write_text(json.dumps({"hooks": both}))
    model = scripted_model(tmp_path / "s.json", {"text": "One."}, {"text": "Two."})
    done = piped(home, "hello\n/clear\nagain\n", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    ran = [(i["hook_event_name"], i.get("source") or i.get("reason")) for i in recorded(inputs)]
    assert ran == [
        ("SessionStart", "startup"),
        ("SessionEnd", "clear"),
        ("SessionStart", "clear"),
        ("SessionEnd", "prompt_input_exit"),
    ]
    assert len({i["session_id"] for i in recorded(inputs)}) == 2
