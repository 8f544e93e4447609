"""Hooks: the user's commands run at a session's events, in Claude Code's format.

    hooks = Hooks(lambda: settings, lambda: SessionFacts(session_id, log_path, cwd, mode))
    runs = await hooks.run("PreToolUse", tool_fields("bash", '{"command": "ls"}', "c1", cwd),
                           subject="bash", tool_call_id="c1")
    runs[0].decision  # "deny", "allow", "ask", "block", "stop" or None

Configured under `hooks` in the settings files (and Claude Code's `.claude/settings.json`);
what each exit code and JSON answer means is in `tether.hooks.outcome`. A hook runs in the
session's sandbox, or with `"sandbox": false` behind the guard of `tether.hooks.guard`
(`tether.hooks.engine`). The session decides what a decision does and logs every run as a
`hook/run` event.
"""

from tether.hooks.config import DEFAULT_TIMEOUT, ConfiguredHook, matches
from tether.hooks.engine import Hooks
from tether.hooks.outcome import CONTEXT_CHARS, LOGGED_CHARS
from tether.hooks.payload import PERMISSION_MODES, SessionFacts, tool_fields, tool_response
from tether.hooks.record import HookDecision, HookRun

__all__ = [
    "CONTEXT_CHARS",
    "DEFAULT_TIMEOUT",
    "LOGGED_CHARS",
    "PERMISSION_MODES",
    "ConfiguredHook",
    "HookDecision",
    "HookRun",
    "Hooks",
    "SessionFacts",
    "matches",
    "tool_fields",
    "tool_response",
]
