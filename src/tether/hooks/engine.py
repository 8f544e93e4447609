"""Running an event's hooks: those the settings configure for it, all at once.

The session's settings are asked for at every event (a person may trust the workspace
mid-session, which brings its hooks in), and only the hooks trusted settings grant are
there: a workspace's own files (`.tether/settings*.json`, `.claude/settings*.json`) configure
hooks only once it is trusted. As in Claude Code, a settings file edited during a session
changes its hooks from the next session on.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from tether.hooks.config import ConfiguredHook, configured_hooks
from tether.hooks.outcome import interpret
from tether.hooks.payload import SessionFacts, hook_input
from tether.hooks.process import run_command
from tether.hooks.record import HookRun
from tether.settings import Settings
from tether.settings.schema import HookEvent

__all__ = ["Hooks"]


class Hooks:
    """The hooks of one session: what its settings configure, run in its workspace."""

    def __init__(
        self,
        settings: Callable[[], Settings | None],
        facts: Callable[[], SessionFacts],
    ) -> None:
        self._settings = settings
        self._facts = facts

    def configured(self, event: HookEvent, subject: str | None = None) -> list[ConfiguredHook]:
        """The hooks that would run for `event` about `subject` (a tool name, a source)."""
        settings = self._settings()
        if settings is None:
            return []
        return configured_hooks(settings.hooks, event, subject)

    async def run(
        self,
        event: HookEvent,
        fields: Mapping[str, Any],
        *,
        subject: str | None = None,
        tool_call_id: str | None = None,
    ) -> list[HookRun]:
        """Run `event`'s hooks together, each with the event's input on stdin; their runs in
        the order they are configured. Cancelling the caller kills every one of them."""
        hooks = self.configured(event, subject)
        if not hooks:
            return []
        facts = self._facts()
        stdin = json.dumps(hook_input(facts, event, fields)).encode()
        env = self._environment(facts)
        finished = await asyncio.gather(
            *(
                run_command(hook.command, stdin=stdin, cwd=facts.cwd, env=env, timeout=hook.timeout)
                for hook in hooks
            )
        )
        ran = zip(hooks, finished, strict=True)
        return [interpret(hook, done, tool_call_id) for hook, done in ran]

    def _environment(self, facts: SessionFacts) -> dict[str, str]:
        settings = self._settings()
        env = dict(os.environ)
        if settings is not None:
            env.update({name: entry.value for name, entry in settings.env.items()})
        # Claude Code's variable, so its hook commands (`"$CLAUDE_PROJECT_DIR"/.claude/...`) run.
        env["CLAUDE_PROJECT_DIR"] = str(facts.cwd)
        env["TETHER_PROJECT_DIR"] = str(facts.cwd)
        env["TETHER_SESSION_ID"] = facts.session_id
        return env
