"""Real hook commands run for each event: what every exit code and JSON answer decides, a hook
that hangs, one that prints 10 MB, and which matchers pick which hooks."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.hooks.scripts import bash_hook, group, python_hook, user_hooks
from tests.processes import processes_with, unique_marker
from tether.hooks import LOGGED_CHARS, HookRun, Hooks, SessionFacts, matches
from tether.settings import Settings, load_settings
from tether.settings.schema import HOOK_EVENTS, HookEvent


def run(settings: Settings, ws: Path, event: HookEvent, subject: str | None = None) -> HookRun:
    """Run `event`'s one configured hook with a small input; its run."""
    hooks = Hooks(lambda: settings, lambda: SessionFacts("s1", ws / "log.jsonl", ws, "ask"))
    fields: dict[str, Any] = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    [ran] = asyncio.run(hooks.run(event, fields, subject=subject, tool_call_id="c1"))
    return ran


def one(home: Path, ws: Path, event: HookEvent, command: str, **extra: Any) -> Settings:
    return user_hooks(home, ws, {event: [group(command, **extra)]})


BLOCKED: dict[HookEvent, tuple[str | None, bool]] = {
    # What exit 2 decides for each event, and whether the model is given stderr.
    "PreToolUse": ("deny", False),
    "PermissionRequest": ("deny", False),
    "PostToolUse": ("block", True),
    "PostToolUseFailure": ("block", True),
    "SubagentStart": (None, False),
    "UserPromptSubmit": ("block", False),
    "Stop": ("block", True),
    "SubagentStop": ("block", True),
    "PreCompact": ("block", False),
    "SessionStart": (None, False),
    "SessionEnd": (None, False),
    "Notification": (None, False),
}


@pytest.mark.parametrize("event", HOOK_EVENTS)
def test_exit_codes_of_every_event(
    event: HookEvent, ws: Path, isolated_environment: Path, tmp_path: Path
) -> None:
    home = isolated_environment
    body = 'cat > /dev/null; echo "out:$1"; echo "err:$1" >&2; exit "$1"\n'
    script = bash_hook(tmp_path, "exits", body)
    # Exit 0: success; plain stdout is context only for a prompt and a session's start.
    ok = run(one(home, ws, event, f"{script} 0"), ws, event)
    assert (ok.exit_code, ok.decision, ok.failed, ok.stdout) == (0, None, False, "out:0\n")
    if event in ("UserPromptSubmit", "SessionStart"):
        assert ok.context is not None and "out:0" in ok.context
    else:
        assert ok.context is None
    # Exit 2: blocking, with stderr as the reason.
    blocked = run(one(home, ws, event, f"{script} 2"), ws, event)
    decision, told = BLOCKED[event]
    assert (blocked.exit_code, blocked.decision, blocked.failed) == (2, decision, False)
    assert blocked.reason == "err:2"
    assert (blocked.context is not None and "err:2" in blocked.context) == told
    # Any other exit: a non-blocking error that decides nothing.
    failed = run(one(home, ws, event, f"{script} 1"), ws, event)
    assert (failed.exit_code, failed.decision, failed.failed) == (1, None, True)
    assert failed.context is None and failed.stderr == "err:1\n"


ANSWERS: list[tuple[HookEvent, dict[str, Any], dict[str, Any]]] = [
    (
        "PreToolUse",
        {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}},
        {"decision": "deny", "reason": "no"},
    ),
    (
        "PreToolUse",
        {"hookSpecificOutput": {"permissionDecision": "allow"}, "systemMessage": "fine"},
        {"decision": "allow", "system_message": "fine"},
    ),
    (
        "PreToolUse",
        {"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "why"}},
        {"decision": "ask", "reason": "why"},
    ),
    ("PreToolUse", {"decision": "approve"}, {"decision": "allow"}),
    ("PreToolUse", {"decision": "block", "reason": "legacy"}, {"decision": "deny"}),
    (
        "PreToolUse",
        {"continue": False, "stopReason": "enough", "decision": "approve"},
        {"decision": "stop", "reason": "enough"},
    ),
    (
        "PermissionRequest",
        {"hookSpecificOutput": {"decision": {"behavior": "allow"}}},
        {"decision": "allow"},
    ),
    (
        "PermissionRequest",
        {"hookSpecificOutput": {"decision": {"behavior": "deny", "message": "not on main"}}},
        {"decision": "deny", "reason": "not on main"},
    ),
    (
        "PermissionRequest",
        {"hookSpecificOutput": {"decision": {"behavior": "deny", "interrupt": True}}},
        {"decision": "stop"},
    ),
    (
        "PermissionRequest",
        {"hookSpecificOutput": {"decision": {"behavior": "allow", "updatedInput": {"x": 1}}}},
        {
            "decision": "allow",
            "note": "updatedInput is not followed: the call runs as the model asked",
        },
    ),
    ("PostToolUse", {"decision": "block", "reason": "fix the lint"}, {"decision": "block"}),
    (
        "PostToolUseFailure",
        {"hookSpecificOutput": {"additionalContext": "retry with --verbose"}},
        {"decision": None},
    ),
    ("SubagentStart", {"hookSpecificOutput": {"additionalContext": "use pnpm"}}, {}),
    (
        "PostToolUse",
        {"hookSpecificOutput": {"additionalContext": "formatted"}},
        {"decision": None},
    ),
    ("UserPromptSubmit", {"decision": "block", "reason": "secret"}, {"decision": "block"}),
    (
        "UserPromptSubmit",
        {"hookSpecificOutput": {"additionalContext": "sprint 12"}, "suppressOutput": True},
        {"decision": None, "stdout": None},
    ),
    ("Stop", {"decision": "block", "reason": "run the tests"}, {"decision": "block"}),
    ("Stop", {"continue": False, "decision": "block"}, {"decision": "stop"}),
    ("SessionStart", {"hookSpecificOutput": {"additionalContext": "on main"}}, {}),
    ("PreCompact", {"decision": "block", "reason": "not now"}, {"decision": "block"}),
    ("Notification", {"decision": "block"}, {"decision": None}),
]


@pytest.mark.parametrize(("event", "answer", "expected"), ANSWERS)
def test_json_answers(
    event: HookEvent,
    answer: dict[str, Any],
    expected: dict[str, Any],
    ws: Path,
    isolated_environment: Path,
) -> None:
    body = f"import sys\nsys.stdin.read()\nprint({json.dumps(json.dumps(answer))})"
    script = python_hook(ws.parent, "answer", body)
    ran = run(one(isolated_environment, ws, event, script), ws, event)
    assert ran.exit_code == 0 and not ran.failed
    for key, value in expected.items():
        assert getattr(ran, key) == value, key
    said = answer.get("reason") or answer.get("hookSpecificOutput", {}).get("additionalContext")
    if event in ("PostToolUse", "Stop", "UserPromptSubmit", "SessionStart") and said:
        # The model is told what the hook said, except why a prompt was dropped.
        dropped = expected.get("decision") == "block" and event == "UserPromptSubmit"
        assert (ran.context is not None and said in ran.context) != dropped


def test_output_that_is_not_a_valid_answer(
    ws: Path, isolated_environment: Path, tmp_path: Path
) -> None:
    home = isolated_environment
    wrong = python_hook(tmp_path, "wrong", 'print(\'{"decision": "maybe"}\')')
    ran = run(one(home, ws, "PreToolUse", wrong), ws, "PreToolUse")
    assert ran.failed and ran.decision is None
    assert ran.error is not None and ran.error.startswith("its JSON output is not valid: decision")
    # Text that merely starts like JSON is plain output.
    plain = bash_hook(tmp_path, "plain", "echo '{not json'\n")
    ran = run(one(home, ws, "UserPromptSubmit", plain), ws, "UserPromptSubmit")
    assert not ran.failed and ran.context is not None and "{not json" in ran.context


def test_a_hook_that_hangs_is_killed_with_its_group_at_its_timeout(
    ws: Path, isolated_environment: Path, tmp_path: Path
) -> None:
    marker = unique_marker("hook-hang")
    # It starts a child of its own, then hangs: both go when the timeout kills the group.
    body = f"(exec -a {marker} sleep 300) &\nexec -a {marker} sleep 300\n"
    hang = bash_hook(tmp_path, "hang", body)
    ran = run(one(isolated_environment, ws, "PreToolUse", hang, timeout=0.5), ws, "PreToolUse")
    assert ran.exit_code is None and ran.failed and ran.decision is None
    assert ran.error == "timed out after 0.5 s; its process group was killed"
    assert processes_with(marker) == []


def test_a_hook_printing_10_mb_is_capped(
    ws: Path, isolated_environment: Path, tmp_path: Path
) -> None:
    loud = python_hook(
        tmp_path,
        "loud",
        "import sys\nsys.stdin.read()\nchunk = 'x' * 1024 * 1024\n"
        "for _ in range(10):\n    sys.stdout.write(chunk)\n    sys.stderr.write(chunk)\n",
    )
    ran = run(one(isolated_environment, ws, "UserPromptSubmit", loud), ws, "UserPromptSubmit")
    assert ran.exit_code == 0 and not ran.failed
    assert ran.stdout is not None and ran.stderr is not None
    assert len(ran.stdout) < LOGGED_CHARS + 100 and len(ran.stderr) < LOGGED_CHARS + 100
    assert ran.stdout.endswith(f"... ({10 * 1024 * 1024 - LOGGED_CHARS} more bytes)")
    # The model gets a capped part of it, never the 10 MB.
    assert ran.context is not None and len(ran.context) < 11_000


def test_a_hook_that_cannot_run_is_a_non_blocking_error(
    ws: Path, isolated_environment: Path
) -> None:
    ran = run(one(isolated_environment, ws, "Stop", "/no/such/hook"), ws, "Stop")
    assert ran.exit_code == 127 and ran.failed and ran.decision is None
    assert ran.stderr is not None and "/no/such/hook" in ran.stderr


def test_the_environment_and_the_directory_of_a_hook(
    ws: Path, isolated_environment: Path, tmp_path: Path
) -> None:
    body = 'cat >/dev/null; echo "$PWD|$CLAUDE_PROJECT_DIR|$GREETING"\n'
    where = bash_hook(tmp_path, "where", body)
    (isolated_environment / "settings.json").write_text(
        json.dumps({"env": {"GREETING": "hi"}, "hooks": {"SessionStart": [group(where)]}})
    )
    ran = run(load_settings(ws, isolated_environment), ws, "SessionStart")
    assert ran.stdout == f"{ws}|{ws}|hi\n"


@pytest.mark.parametrize(
    ("matcher", "event", "subject", "expected"),
    [
        (None, "PreToolUse", "bash", True),
        ("", "PreToolUse", "bash", True),
        ("*", "PreToolUse", "edit", True),
        ("Bash", "PreToolUse", "bash", True),
        ("bash", "PreToolUse", "bash", True),
        ("Edit|Write", "PreToolUse", "write", True),
        ("Edit|Write", "PreToolUse", "read", False),
        ("Edit", "PreToolUse", "edit", True),
        ("MultiEdit", "PreToolUse", "multi_edit", True),
        ("MultiEdit", "PreToolUse", "edit", False),
        ("Bash", "PreToolUse", "bash_output", False),
        ("mcp__git__.*", "PostToolUse", "mcp__git__log", True),
        # Names only: exact, name by name; anything else: a regular expression searched for.
        ("mcp__git", "PostToolUse", "mcp__git__log", False),
        ("mcp__.*__delete", "PreToolUse", "mcp__fs__delete_file", True),
        ("^Bash", "PreToolUse", "bash_output", True),  # its Claude Code name is BashOutput
        ("^Bash$", "PreToolUse", "bash", True),
        ("Notebook.*", "PreToolUse", "edit", False),
        ("Edit | Write", "PreToolUse", "write", True),
        ("edit-x", "PreToolUse", "edit", False),
        ("Task", "PreToolUse", "task", True),
        ("WebFetch", "PostToolUse", "web_fetch", True),
        ("startup", "SessionStart", "startup", True),
        ("startup", "SessionStart", "resume", False),
        ("manual", "PreCompact", "auto", False),
        ("Bash", "Stop", None, True),
        ("Bash", "UserPromptSubmit", None, True),
        ("[", "PreToolUse", "bash", False),
    ],
)
def test_matchers(
    matcher: str | None, event: HookEvent, subject: str | None, expected: bool
) -> None:
    assert matches(matcher, event, subject) is expected
