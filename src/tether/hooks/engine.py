"""Running an event's hooks: those the settings configure for it, all at once.

The session's settings are asked for at every event (a person may trust the workspace
mid-session, which brings its hooks in), and only the hooks trusted settings grant are
there: a workspace's own files (`.tether/settings*.json`, `.claude/settings*.json`) configure
hooks only once it is trusted. As in Claude Code, a settings file edited during a session
changes its hooks from the next session on.

Where a hook runs: in the session's sandbox (the one its `bash` commands get), so that what
it runs — a script in the workspace that a sandboxed command could have written — can do no
more than such a command. A hook with `"sandbox": false`, and every hook of a session without
a sandbox (`--sandbox off`, or one that cannot start here), runs with the person's rights
instead, behind the guard (`tether.hooks.guard`): what it reads is compared with what the
person last saw, and a change since a tool call ran is asked about (`approve`), or the hook
does not run.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from tether.hooks.config import ConfiguredHook, configured_hooks
from tether.hooks.guard import HookGuard
from tether.hooks.outcome import interpret
from tether.hooks.payload import SessionFacts, hook_input
from tether.hooks.process import Finished, run_command
from tether.hooks.record import HookRun
from tether.sandbox.bwrap import find_bwrap
from tether.sandbox.created import created_and_defused
from tether.sandbox.policy import Confinement, SandboxPolicy, confinement
from tether.settings import Settings
from tether.settings.schema import CommandHook, HookEvent
from tether.tools.workspace import Workspace

__all__ = ["Approve", "Hooks"]

log = logging.getLogger(__name__)

Approve = Callable[[ConfiguredHook, list[str], "str | None"], Awaitable["str | None"]]
"""Asks a person whether an unsandboxed hook whose files changed may run: given the hook,
what changed and the call it is about; `None` when it may, else why it does not run."""


def _no_sandbox() -> SandboxPolicy | None:
    return None


class Hooks:
    """The hooks of one session: what its settings configure, run in its workspace."""

    def __init__(
        self,
        settings: Callable[[], Settings | None],
        facts: Callable[[], SessionFacts],
        *,
        sandbox: Callable[[], SandboxPolicy | None] = _no_sandbox,
        workspace: Workspace | None = None,
        guard: HookGuard | None = None,
        approve: Approve | None = None,
        before: Callable[[], object] | None = None,
    ) -> None:
        self._settings = settings
        self._facts = facts
        self._before = before
        """Runs (in a thread) before an event's hooks: bringing the transcript up to date."""
        self._sandbox = sandbox
        self._workspace = workspace
        self.guard = guard or HookGuard()
        """What the unsandboxed hooks read, as the person last saw it."""
        self._approve = approve
        self.watch()

    def configured(self, event: HookEvent, subject: str | None = None) -> list[ConfiguredHook]:
        """The hooks that would run for `event` about `subject` (a tool name, a source)."""
        settings = self._settings()
        if settings is None:
            return []
        return configured_hooks(settings.hooks, event, subject)

    def watch(self) -> None:
        """Fingerprint what every configured command reads (when the settings are loaded)."""
        settings = self._settings()
        if settings is None or not settings.hooks:
            return
        facts = self._facts()
        env = self._environment(facts)
        for entry in settings.hooks:
            for hook in entry.group.hooks:
                if isinstance(hook, CommandHook):
                    self.guard.watch(hook.command, facts.cwd, env)

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
        if self._before is not None:
            await asyncio.to_thread(self._before)
        facts = self._facts()
        data = hook_input(facts, event, fields)
        env = self._environment(facts)
        for hook in hooks:
            self.guard.watch(hook.command, facts.cwd, env)
        return list(
            await asyncio.gather(
                *(self._one(hook, facts, data, env, tool_call_id) for hook in hooks)
            )
        )

    async def _one(
        self,
        hook: ConfiguredHook,
        facts: SessionFacts,
        data: dict[str, Any],
        env: dict[str, str],
        tool_call_id: str | None,
    ) -> HookRun:
        confine = await self._confinement(hook, facts, env)
        if confine is not None:
            confine, data = _transcripts_inside(confine, data)
        stdin = json.dumps(data).encode()
        if confine is not None:
            finished = await run_command(
                hook.command,
                stdin=stdin,
                cwd=facts.cwd,
                env=env,
                timeout=hook.timeout,
                confine=confine,
            )
            run = interpret(hook, finished, tool_call_id)
            return await self._after_sandbox(run, confine)
        async with self.guard.lock(hook.command):
            now, changed = await asyncio.to_thread(self.guard.check, hook.command, facts.cwd, env)
            if changed:
                refusal = await self._asked(hook, changed, tool_call_id)
                if refusal is not None:
                    unran = Finished(None, b"", b"", 0, 0, 0, error=refusal)
                    return interpret(hook, unran, tool_call_id)
                self.guard.accept(hook.command, now)
            finished = await run_command(
                hook.command, stdin=stdin, cwd=facts.cwd, env=env, timeout=hook.timeout
            )
            await asyncio.to_thread(self.guard.ran, hook.command, facts.cwd, env, now)
        return interpret(hook, finished, tool_call_id)

    async def _asked(
        self, hook: ConfiguredHook, changed: list[str], tool_call_id: str | None
    ) -> str | None:
        """`None` when a person lets the hook run on what changed; else why it did not run."""
        if self._approve is not None:
            return await self._approve(hook, changed, tool_call_id)
        return not_run(changed, "there is no one to ask in this session")

    async def _confinement(
        self, hook: ConfiguredHook, facts: SessionFacts, env: Mapping[str, str]
    ) -> Confinement | None:
        """The sandbox `hook` runs in; `None` when it runs with the person's rights."""
        policy = self._sandbox()
        if not hook.sandboxed or policy is None or not policy.sandboxed:
            return None
        bwrap = find_bwrap()
        if not bwrap.works or bwrap.path is None:
            _notice_once(bwrap.problem or "bwrap was not found")
            return None
        workspace = self._workspace or Workspace.at(facts.cwd)
        return await asyncio.to_thread(confinement, bwrap, policy, workspace.roots, env)

    async def _after_sandbox(self, run: HookRun, confine: Confinement) -> HookRun:
        """What the sandboxed run created that is protected, disarmed as a command's is."""
        workspace = self._workspace
        roots = workspace.roots if workspace is not None else ()
        created, defused = await asyncio.to_thread(created_and_defused, confine, roots)
        if not created:
            return run
        said = f"protected paths appeared while it ran: {', '.join(created)}"
        if defused:
            said += f"; disarmed: {'; '.join(d.describe() for d in defused)}"
        note = f"{run.note}; {said}" if run.note else said
        return dataclasses.replace(run, note=note)

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


_TRANSCRIPTS = ("transcript_path", "agent_transcript_path", "tether_log_path")
_INSIDE = "/tmp/tether-transcripts"
"""Where a sandboxed hook finds the transcripts: tether's data directory is hidden from it."""


def _transcripts_inside(
    confine: Confinement, data: dict[str, Any]
) -> tuple[Confinement, dict[str, Any]]:
    """The transcripts bound read-only into the sandbox's private /tmp, and the input naming
    them there."""
    binds: list[str] = []
    data = dict(data)
    for key in _TRANSCRIPTS:
        path = data.get(key)
        if not isinstance(path, str) or not os.path.isfile(path):
            continue
        inside = f"{_INSIDE}/{key.removesuffix('_path')}-{os.path.basename(path)}"
        binds += ["--ro-bind", path, inside]
        data[key] = inside
    return dataclasses.replace(confine, argv=(*confine.argv, *binds)), data


def not_run(changed: list[str], why: str) -> str:
    """The error of an unsandboxed hook that did not run because its files changed."""
    shown = "; ".join(line for line in changed if not line.startswith("    "))
    return (
        f"not run: it runs outside the sandbox, and what it runs changed after a tool call of "
        f"this session ({shown}); {why}. Look at the change, then run it in the sandbox "
        '(remove "sandbox": false) or start a new session'
    )


_noticed: set[str] = set()


def _notice_once(problem: str) -> None:
    if problem not in _noticed:
        _noticed.add(problem)
        log.warning("the sandbox cannot start (%s); hooks run unsandboxed, guarded", problem)
