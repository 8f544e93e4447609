"""The guard of unsandboxed hooks: what each one's command reads, as the person last saw it.

A hook with `"sandbox": false` (or in a session without a sandbox) runs with the person's
rights. What its command line reads (`tether.hooks.reads`) is fingerprinted when the
session's settings are loaded; before each run it is looked at again, and once the session
has run a tool call (a sandboxed command, a file write, an agent's) anything that appeared
or changed there since is a question for a person — or, with no one to ask, the hook does
not run. Before any call, a change is the person's own, and becomes what they last saw.

What a hook's own run changes in a file its command names (a log it appends to) is taken
in after it, unless it is code or configuration by its look (`fingerprint.inert`); in a
watched folder such files are never a change (`fingerprint.changes`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

from tether.hooks.fingerprint import Fingerprint, State, changes, fingerprint, inert
from tether.hooks.reads import command_reads

__all__ = ["HookGuard", "observe"]


def observe(command: str, cwd: Path, env: Mapping[str, str]) -> dict[tuple[str, Path], State]:
    """The fingerprint of what `command`, run in `cwd` with `env`, reads now."""
    reads = command_reads(command, cwd, env)
    return fingerprint(reads.files, reads.folders)


class HookGuard:
    """What each unsandboxed hook command last ran, shared by a session and its agents."""

    def __init__(self) -> None:
        self.armed = False
        """Set once a tool call ran in the session: from then on a change asks."""
        self._seen: dict[str, dict[tuple[str, Path], State]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, command: str) -> asyncio.Lock:
        """Held from a run's check to its end: two runs of one command (its `Notification`
        beside a call's `PreToolUse`) take turns, so neither takes the other's writes for a
        change."""
        return self._locks.setdefault(command, asyncio.Lock())

    def arm(self) -> None:
        """A tool call is about to run: what changes from now on may be its doing."""
        self.armed = True

    def watch(self, command: str, cwd: Path, env: Mapping[str, str]) -> None:
        """Fingerprint `command`'s files, unless they are known already; one first met after
        a call ran is left unknown, so its first run asks."""
        if command not in self._seen and not self.armed:
            self._seen[command] = observe(command, cwd, env)

    def check(
        self, command: str, cwd: Path, env: Mapping[str, str]
    ) -> tuple[dict[tuple[str, Path], State], list[str]]:
        """What `command` reads now, and what in it a person must see before it runs
        (nothing: it may run)."""
        now = observe(command, cwd, env)
        before = self._seen.get(command)
        if not self.armed:
            self._seen[command] = dict(now)
            return now, []
        if before is None:
            return now, ["its command was not configured when the session started"]
        return now, changes(before, now)

    def accept(self, command: str, now: Fingerprint) -> None:
        """A person saw `now` and let the hook run: it is what they last saw."""
        self._seen[command] = dict(now)

    def ran(self, command: str, cwd: Path, env: Mapping[str, str], started: Fingerprint) -> None:
        """The hook ran from `started`: take in what its run changed that is inert."""
        base = self._seen.get(command)
        if base is None:
            return
        # What changed before the run was asked about already (or the hook would not have
        # run): a change seen now is of the run's time, the hook's own most likely.
        for key, state in observe(command, cwd, env).items():
            what, path = key
            if what == "file" and started.get(key) != state and inert(path, state):
                base[key] = state
