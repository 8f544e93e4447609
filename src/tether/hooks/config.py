"""Which hooks run for an event: the settings' matcher groups, their matchers applied.

A matcher is read as Claude Code reads it: made only of letters, digits, `_`, `-` and `|`, it
is a list of exact names (`Edit|Write`); with any other character it is a regular expression
searched for anywhere in the name (`mcp__.*__delete`, `^Notebook`). It is tried on the subject:
for `PreToolUse`, `PermissionRequest`, `PostToolUse` and `PostToolUseFailure` the tool's name
as the model sees it (`bash`, `edit`, `mcp__git__log`) and its Claude Code name (`Bash`,
`Edit`), so `Edit|Write` and `edit|write` both match an `edit` call; for `SubagentStart` and
`SubagentStop` the agent's name (`explore`, `reviewer`); for `SessionStart` its source
(`startup`, `resume`, `clear`, `compact`), for `PreCompact` its trigger (`manual`, `auto`),
for `Notification` its type (`permission_prompt`), for `SessionEnd` its reason. An absent or
empty matcher, or `*`, matches everything; events without a subject (`UserPromptSubmit`,
`Stop`) ignore it. A command configured twice for one event runs once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from tether.settings.schema import CommandHook, HookEvent
from tether.settings.values import HookEntry
from tether.tools.claude_names import CLAUDE_TOOL_NAMES

__all__ = [
    "DEFAULT_TIMEOUT",
    "ConfiguredHook",
    "configured_hooks",
    "matches",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds a hook may run when its `timeout` does not say; then its process group is killed."""

_SUBJECTLESS: frozenset[HookEvent] = frozenset({"UserPromptSubmit", "Stop"})
_TOOL_EVENTS: frozenset[HookEvent] = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"}
)
_PLAIN = re.compile(r"[A-Za-z0-9_| -]+")
"""A matcher of names only: compared exactly, name by name (as Claude Code does)."""


@dataclass(frozen=True)
class ConfiguredHook:
    """One command to run for an event: what it runs, for how long, and where it was set."""

    event: HookEvent
    command: str
    timeout: float
    source: str
    """The settings file that configured it."""
    matcher: str | None = None
    sandboxed: bool = True
    """Whether it runs in the session's sandbox (`"sandbox": false` opts out)."""


def configured_hooks(
    entries: Iterable[HookEntry], event: HookEvent, subject: str | None = None
) -> list[ConfiguredHook]:
    """The command hooks of `event` whose matcher covers `subject`, each command once."""
    found: dict[str, ConfiguredHook] = {}
    for entry in entries:
        if entry.event != event or not matches(entry.group.matcher, event, subject):
            continue
        for hook in entry.group.hooks:
            # `prompt` hooks are reported when the settings are read; only commands run.
            if isinstance(hook, CommandHook) and hook.command not in found:
                found[hook.command] = ConfiguredHook(
                    event=event,
                    command=hook.command,
                    timeout=hook.timeout or DEFAULT_TIMEOUT,
                    source=str(entry.source),
                    matcher=entry.group.matcher,
                    sandboxed=hook.sandbox is not False,
                )
    return list(found.values())


def matches(matcher: str | None, event: HookEvent, subject: str | None) -> bool:
    """Whether a group's `matcher` covers `subject` for `event`."""
    if event in _SUBJECTLESS or matcher is None or matcher.strip() in ("", "*"):
        return True
    if subject is None:
        return False
    names = [subject]
    if event in _TOOL_EVENTS:
        names.extend(claude for claude, ours in CLAUDE_TOOL_NAMES.items() if ours == subject)
    if _PLAIN.fullmatch(matcher):
        listed = {name.strip() for name in matcher.split("|")}
        return any(name in listed for name in names)
    pattern = _compiled(matcher)
    if pattern is None:
        return False
    return any(pattern.search(name) for name in names)


@functools.lru_cache(maxsize=256)
def _compiled(matcher: str) -> re.Pattern[str] | None:
    # The settings reader reports a matcher that does not compile; here it matches nothing.
    try:
        return re.compile(matcher)
    except re.error:
        return None
