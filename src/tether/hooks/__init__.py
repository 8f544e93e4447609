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

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
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

# Each name loads its module on first use: a log's events name a hook's decision
# (`tether.hooks.record`), and reading a log must not load the engine that runs hooks.
__getattr__ = lazy_names(
    __name__,
    {
        "DEFAULT_TIMEOUT": "tether.hooks.config",
        "ConfiguredHook": "tether.hooks.config",
        "matches": "tether.hooks.config",
        "Hooks": "tether.hooks.engine",
        "CONTEXT_CHARS": "tether.hooks.outcome",
        "LOGGED_CHARS": "tether.hooks.outcome",
        "PERMISSION_MODES": "tether.hooks.payload",
        "SessionFacts": "tether.hooks.payload",
        "tool_fields": "tether.hooks.payload",
        "tool_response": "tether.hooks.payload",
        "HookDecision": "tether.hooks.record",
        "HookRun": "tether.hooks.record",
    },
)
