"""Claude Code's memory files read as Claude Code reads them: `CLAUDE.md` and `AGENTS.md` both,
`.claude/CLAUDE.md`, `CLAUDE.local.md`, `.claude/rules/` (those with `paths` shown after the
first read of a file they match), the user's `~/.claude/rules/`; the system prompt's rule
names the files read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.files import write
from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tether.tools.defaults import default_tools
from tether.tools.fs.read import ReadTool


async def test_every_memory_file_of_the_project_is_read_once(ws: Path, sessions: Sessions) -> None:
    # CLAUDE.md imports AGENTS.md, as Claude Code's documentation suggests: it is read once.
    write(ws / "AGENTS.md", "Agents: run make check.\n")
    write(ws / "CLAUDE.md", "Claude: see @AGENTS.md and use tabs.\n")
    write(ws / ".claude" / "CLAUDE.md", "Dot-claude: keep commits small.\n")
    write(ws / ".claude" / "rules" / "testing.md", "Rule: every fix gets a test.\n")
    write(ws / ".claude" / "rules" / "style" / "naming.md", "Rule: snake_case names.\n")
    write(ws / "CLAUDE.local.md", "Local: my sandbox URL is http://localhost:3000.\n")
    model = script({"text": "ok"})
    session = sessions.new(ws, model, default_tools())
    await session.prompt(text("hi"), Recorder())
    system = model.requests[0].system
    order = [
        "Agents: run make check.",
        "Claude: see @AGENTS.md and use tabs.",
        "Dot-claude: keep commits small.",
        "Rule: snake_case names.",
        "Rule: every fix gets a test.",
        "Local: my sandbox URL",
    ]
    at = [system.index(t) for t in order]
    assert at == sorted(at)
    assert all(system.count(t) == 1 for t in order)
    # The rule about instruction files names the kinds actually read.
    assert (
        "AGENTS.md, CLAUDE.md, .claude/CLAUDE.md, .claude/rules/*.md and CLAUDE.local.md files "
        "hold instructions" in system
    )
    assert "CLAUDE.local.md (the user's own) wins over the shared files beside it" in system


async def test_only_claude_md_is_named_when_only_it_is_read(ws: Path, sessions: Sessions) -> None:
    write(ws / "CLAUDE.md", "Use tabs.\n")
    model = script({"text": "ok"})
    await sessions.new(ws, model, default_tools()).prompt(text("hi"), Recorder())
    assert "\nCLAUDE.md files hold instructions" in model.requests[0].system
    assert "AGENTS.md files hold" not in model.requests[0].system


async def test_a_rule_with_paths_is_shown_after_the_first_read_of_a_file_it_matches(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    rule = write(
        ws / ".claude" / "rules" / "api.md",
        '---\npaths:\n  - "src/api/**/*.ts"\n---\nAPI handlers validate their input.\n',
    )
    write(ws / "src" / "api" / "users.ts", "export {}\n")
    write(ws / "src" / "api" / "v2" / "orders.ts", "export {}\n")
    write(ws / "src" / "ui.ts", "export {}\n")
    model = script(
        {"toolCalls": [call("r1", "read", {"path": "src/ui.ts"})]},
        {"toolCalls": [call("r2", "read", {"path": "src/api/users.ts"})]},
        {"toolCalls": [call("r3", "read", {"path": "src/api/v2/orders.ts"})]},
        {"text": "done"},
    )
    session = sessions.new(ws, model, [ReadTool()])
    await session.prompt(text("look"), Recorder())
    assert "API handlers validate" not in model.requests[0].system
    results = {e["toolCallId"]: e for e in log_lines(session, home) if e["type"] == "tool/result"}
    assert "reminder" not in results["r1"]
    assert results["r2"]["reminder"] == (
        "<system-reminder>\n"
        f"Instructions from {rule} (they apply to files matching src/api/**/*.ts under {ws}):\n"
        "API handlers validate their input.\n"
        "</system-reminder>"
    )
    assert "reminder" not in results["r3"]  # once


async def test_the_users_claude_rules_under_home(
    ws: Path, tmp_path: Path, sessions: Sessions, monkeypatch: pytest.MonkeyPatch
) -> None:
    person = tmp_path / "person"
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("HOME", str(person))
    write(person / ".claude" / "CLAUDE.md", "Mine: answer briefly.\n")
    write(person / ".claude" / "rules" / "git.md", "Mine: sign commits.\n")
    model = script({"text": "ok"})
    await sessions.new(ws, model, default_tools()).prompt(text("hi"), Recorder())
    system = model.requests[0].system
    assert system.index("Mine: answer briefly.") < system.index("Mine: sign commits.")
    assert "CLAUDE.md and .claude/rules/*.md files hold instructions" in system


async def test_a_subdirectory_claude_md_beside_agents_md_is_attached_with_it(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    write(ws / "pkg" / "AGENTS.md", "pkg agents\n")
    write(ws / "pkg" / ".claude" / "CLAUDE.md", "pkg dot-claude\n")
    write(ws / "pkg" / "CLAUDE.local.md", "pkg local\n")
    write(ws / "pkg" / "a.py", "a = 1\n")
    model = script({"toolCalls": [call("r1", "read", {"path": "pkg/a.py"})]}, {"text": "done"})
    session = sessions.new(ws, model, [ReadTool()])
    await session.prompt(text("look"), Recorder())
    [result] = [e for e in log_lines(session, home) if e["type"] == "tool/result"]
    reminder = result["reminder"]
    pkg = ws / "pkg"
    assert (
        reminder.index("pkg agents")
        < reminder.index("pkg dot-claude")
        < reminder.index("pkg local")
    )
    assert f"Instructions from {pkg}/.claude/CLAUDE.md (they apply to files under {pkg})" in (
        reminder
    )
