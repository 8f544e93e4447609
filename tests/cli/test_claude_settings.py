"""A Claude Code project at the command line: its deny rules stop a run in auto mode, trusted
or not; each of its files is said at start; `tether permissions` lists its rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import flat, piped, scripted_model

# A project's `.claude/settings.json` with comments and a trailing comma, as Claude Code reads.
SETTINGS = """{
  // keep secrets out of the model's context
  "permissions": {
    "deny": ["Read(./.env*)", "Read(/secrets/**)"],
    "allow": ["Bash(git * main)"],
  },
  "statusLine": {"type": "command", "command": "echo hi"}
}
"""


def claude_project(ws: Path) -> None:
    (ws / ".claude").mkdir()
    (ws / ".claude/settings.json").write_text(SETTINGS)
    (ws / ".env.production").write_text("API_KEY=the-secret\n")
    (ws / "secrets").mkdir()
    (ws / "secrets/key.pem").write_text("the-key\n")


def reads(path: Path, *files: str) -> str:
    calls = [
        {"id": f"c{n}", "name": "read", "arguments": {"path": name}} for n, name in enumerate(files)
    ]
    return scripted_model(path, {"toolCalls": calls}, {"text": "done"})


def test_deny_rules_of_claude_settings_stop_reads_in_auto_mode(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    claude_project(ws)
    model = reads(tmp_path / "s.json", ".env.production", "secrets/key.pem")
    for trusted in (False, True):
        run = tether_in_process(
            home, "run", "go", "--model", model, "--cwd", str(ws), "--mode", "auto"
        )
        assert run.returncode in (0, 1), run.stderr
        shown = flat(run.stdout)
        assert (
            f"Permission to read {ws / '.env.production'} is denied by the deny rule "
            f"read(./.env*) in {ws}/.claude/settings.json"
        ) in shown
        assert (
            f"Permission to read {ws / 'secrets/key.pem'} is denied by the deny rule "
            f"read(/secrets/**) in {ws}/.claude/settings.json"
        ) in shown
        assert "the-secret" not in run.stdout and "the-key" not in run.stdout
        said = run.stderr
        assert (
            f"tether: Claude Code settings {ws}/.claude/settings.json: read 1 allow rule, "
            "2 deny rules"
        ) in said
        assert (
            f"tether: warning: {ws}/.claude/settings.json: statusLine: not supported: "
            "tether's terminal has no status line command (ignored)"
        ) in said
        assert ("waits for trust" in said) is not trusted
        if not trusted:
            trusting = tether_in_process(home, "permissions", "trust", cwd=ws)
            assert trusting.returncode == 0, trusting.stderr


def test_permissions_lists_claude_rules_with_their_files(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    claude_project(ws)
    listed = tether_in_process(home, "permissions", "--json", cwd=ws)
    assert listed.returncode == 0, listed.stderr
    report = json.loads(listed.stdout)
    source = {"scope": "claude", "path": f"{ws}/.claude/settings.json"}
    assert [(r["kind"], r["text"], r["source"]) for r in report["rules"]] == [
        ("deny", "Read(./.env*)", source),
        ("deny", "Read(/secrets/**)", source),
    ]
    assert report["withheld"] == ["allow bash(git * main) (.claude/settings.json)"]
    text = tether_in_process(home, "permissions", cwd=ws)
    assert text.returncode == 0, text.stderr
    assert re.search(r"read\(/secrets/\*\*\)\s+claude\s+" + re.escape(str(ws)), text.stdout)
    assert f"settings.json  (/ is the project root, {ws})" in text.stdout
    paths = {r["text"]: r["paths"] for r in report["rules"]}
    assert paths == {
        "Read(./.env*)": {"from": str(ws), "anyDepth": False},
        "Read(/secrets/**)": {"from": str(ws / "secrets"), "anyDepth": False},
    }
    assert "Claude Code's files:" in text.stdout
    checked = tether_in_process(home, "permissions", "check", "read(secrets/key.pem)", cwd=ws)
    assert "denied" in checked.stdout


def test_a_trusted_wildcard_rule_allows_what_claude_code_would(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    claude_project(ws)
    assert tether_in_process(home, "permissions", "trust", cwd=ws).returncode == 0
    for command, outcome in (
        ("git push origin main", "allowed"),
        ("git checkout main", "allowed"),
        ("git push origin dev", "asks"),
        ("git main", "asks"),
    ):
        checked = tether_in_process(home, "permissions", "check", f"bash({command})", cwd=ws)
        assert checked.returncode == 0, checked.stderr
        assert f"): {outcome} in ask mode" in checked.stdout, (command, checked.stdout)


def test_mcpjson_approvals_of_claude_settings(tmp_path: Path, ws: Path) -> None:
    import sys

    from tests.mcp.support import SAMPLE

    home = tmp_path / "home"
    server = {"command": "${SAMPLE_PYTHON:-" + sys.executable + "}", "args": [str(SAMPLE)]}
    (ws / ".mcp.json").write_text(json.dumps({"mcpServers": {"sample": server}}))
    (ws / ".claude").mkdir()
    local = ws / ".claude/settings.local.json"
    local.write_text(json.dumps({"enabledMcpjsonServers": ["sample"]}))
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "a", "name": "mcp__sample__add", "arguments": {"a": 4, "b": 5}}]},
        {"text": "done"},
    )
    # Untrusted: the approval waits for trust, and a headless run cannot ask.
    untrusted = tether_in_process(home, "run", "add", "--model", model, "--cwd", str(ws))
    assert "Unknown tool: mcp__sample__add" in untrusted.stdout
    assert "enabledMcpjsonServers sample (.claude/settings.local.json)" in untrusted.stderr
    assert tether_in_process(home, "permissions", "trust", cwd=ws).returncode == 0
    trusted = tether_in_process(home, "run", "add", "--model", model, "--cwd", str(ws))
    assert trusted.returncode == 0, trusted.stderr
    assert "Unknown tool" not in trusted.stdout and "9" in trusted.stdout
    said = " ".join(trusted.stderr.split())
    assert f"(sample) approved by enabledMcpjsonServers in {local}" in said
    # The approval is kept like a person's: a changed server asks again.
    (ws / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"sample": {**server, "args": [str(SAMPLE), "stdio"]}}})
    )
    changed = tether_in_process(home, "run", "add", "--model", model, "--cwd", str(ws))
    assert "Unknown tool: mcp__sample__add" in changed.stdout
    assert "(changed since they were approved)" in " ".join(changed.stderr.split())
    # disabledMcpjsonServers keeps it stopped, trusted or not, even when named.
    (ws / ".claude/settings.json").write_text(json.dumps({"disabledMcpjsonServers": ["sample"]}))
    named = tether_in_process(
        home, "run", "add", "--model", model, "--cwd", str(ws), "--approve-mcp", "sample"
    )
    assert "Unknown tool: mcp__sample__add" in named.stdout
    said = " ".join(named.stderr.split())
    assert f"MCP server sample of {ws}/.mcp.json was not started: disabledMcpjsonServers in" in said


def test_task_and_skill_deny_rules_stop_the_calls(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    skill = ws / ".claude/skills/deploy/SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: deploy\ndescription: Ship it.\n---\nRun the deploy.\n")
    (ws / ".claude/settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Skill(deploy)", "Task(Explore)"]}})
    )
    task = {"description": "look", "prompt": "look around", "agent": "explore"}
    model = scripted_model(
        tmp_path / "s.json",
        {
            "toolCalls": [
                {"id": "s", "name": "skill", "arguments": {"name": "deploy"}},
                {"id": "t", "name": "task", "arguments": task},
            ]
        },
        {"text": "done"},
    )
    run = tether_in_process(home, "run", "go", "--model", model, "--cwd", str(ws), "--mode", "auto")
    shown = flat(run.stdout)
    settings = f"{ws}/.claude/settings.json"
    assert (
        "Permission to load the skill deploy is denied by the deny rule skill(deploy) in "
        f"{settings}"
    ) in shown
    assert (
        "Permission to start the agent explore is denied by the deny rule task(Explore) in "
        f"{settings}"
    ) in shown
    assert "Run the deploy." not in run.stdout


def test_the_interactive_terminal_says_each_claude_file_and_keeps_its_deny(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    claude_project(ws)
    model = reads(tmp_path / "s.json", ".env.production")
    done = piped(home, "/mode auto\nread it\n", "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    both = done.stdout + done.stderr
    assert f"tether: Claude Code settings {ws}/.claude/settings.json: read 1 allow rule" in both
    assert "statusLine: not supported" in both
    assert (
        f"Permission to read {ws / '.env.production'} is denied by the deny rule read(./.env*)"
    ) in flat(done.stdout)
    assert "the-secret" not in done.stdout
