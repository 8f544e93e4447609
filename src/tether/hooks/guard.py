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

The fingerprints are kept beside the session's log (`sessions/guards/ID.json`, without the
files' text), so a session continued in a new process compares with what the person last
saw in the old one, not with what its calls left.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tether.bounded import read_bounded_json
from tether.errors import UnreadableFile
from tether.hooks.fingerprint import Fingerprint, State, changes, fingerprint, inert
from tether.hooks.reads import command_reads
from tether.tools.fs.atomic import atomic_write

log = logging.getLogger(__name__)

_FORMAT = 1
_KEPT_BYTES = 16 * 1024 * 1024

__all__ = ["HookGuard", "guard_path", "observe"]


def guard_path(log: Path) -> Path:
    """Where the fingerprints of the session whose log is `log` are kept."""
    return log.parent / "guards" / f"{log.stem}.json"


def observe(command: str, cwd: Path, env: Mapping[str, str]) -> dict[tuple[str, Path], State]:
    """The fingerprint of what `command`, run in `cwd` with `env`, reads now."""
    reads = command_reads(command, cwd, env)
    return fingerprint(reads.files, reads.folders)


class HookGuard:
    """What each unsandboxed hook command last ran, shared by a session and its agents."""

    def __init__(self, path: Path | None = None) -> None:
        self.armed = False
        """Set once a tool call ran in the session: from then on a change asks."""
        self._seen: dict[str, dict[tuple[str, Path], State]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._path = path
        """Where the fingerprints are kept between processes; `None`: not kept."""
        if path is not None:
            self._load(path)

    def lock(self, command: str) -> asyncio.Lock:
        """Held from a run's check to its end: two runs of one command (its `Notification`
        beside a call's `PreToolUse`) take turns, so neither takes the other's writes for a
        change."""
        return self._locks.setdefault(command, asyncio.Lock())

    def arm(self) -> None:
        """A tool call is about to run: what changes from now on may be its doing."""
        if not self.armed:
            self.armed = True
            self._save()

    def watch(self, command: str, cwd: Path, env: Mapping[str, str]) -> None:
        """Fingerprint `command`'s files, unless they are known already; one first met after
        a call ran is left unknown, so its first run asks."""
        if command not in self._seen and not self.armed:
            self._seen[command] = observe(command, cwd, env)
            self._save()

    def check(
        self, command: str, cwd: Path, env: Mapping[str, str]
    ) -> tuple[dict[tuple[str, Path], State], list[str]]:
        """What `command` reads now, and what in it a person must see before it runs
        (nothing: it may run)."""
        now = observe(command, cwd, env)
        before = self._seen.get(command)
        if not self.armed:
            if self._seen.get(command) != now:
                self._seen[command] = dict(now)
                self._save()
            return now, []
        if before is None:
            return now, ["its command was not configured when the session started"]
        return now, changes(before, now)

    def accept(self, command: str, now: Fingerprint) -> None:
        """A person saw `now` and let the hook run: it is what they last saw."""
        self._seen[command] = dict(now)
        self._save()

    def ran(self, command: str, cwd: Path, env: Mapping[str, str], started: Fingerprint) -> None:
        """The hook ran from `started`: take in what its run changed that is inert."""
        base = self._seen.get(command)
        if base is None:
            return
        # What changed before the run was asked about already (or the hook would not have
        # run): a change seen now is of the run's time, the hook's own most likely.
        taken = False
        for key, state in observe(command, cwd, env).items():
            what, path = key
            if what == "file" and started.get(key) != state and inert(path, state):
                base[key] = state
                taken = True
        if taken:
            self._save()

    def _save(self) -> None:
        """Keep the fingerprints for a later process (a failure only costs that)."""
        if self._path is None:
            return
        commands = {
            command: [[what, str(path), _state_data(state)] for (what, path), state in seen.items()]
            for command, seen in self._seen.items()
        }
        data = {"format": _FORMAT, "armed": self.armed, "commands": commands}
        try:
            atomic_write(
                self._path,
                json.dumps(data).encode(),
                make_parents=True,
                mode=0o600,
                replace_link=True,
            )
        except OSError as exc:
            log.warning("could not keep the hook fingerprints in %s: %s", self._path, exc)

    def _load(self, path: Path) -> None:
        try:
            data = read_bounded_json(path, limit=_KEPT_BYTES)
        except FileNotFoundError:
            return
        except UnreadableFile as exc:
            # Unknown is the safe reading: every unsandboxed hook asks before its next run.
            log.warning("%s; the unsandboxed hooks will ask before they run", exc)
            self.armed = True
            return
        try:
            self.armed = bool(data["armed"]) or data["format"] != _FORMAT
            for command, entries in data["commands"].items():
                self._seen[str(command)] = {
                    (str(what), Path(where)): _state_of(state) for what, where, state in entries
                }
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("%s is not what tether wrote; unsandboxed hooks will ask", path)
            self._seen.clear()
            self.armed = True


def _state_data(state: State) -> dict[str, Any]:
    return {
        "kind": state.kind,
        "identity": list(state.identity),
        "target": state.target,
        "entries": None
        if state.entries is None
        else [[name, kind, list(identity)] for name, kind, identity in state.entries],
    }


def _state_of(data: dict[str, Any]) -> State:
    entries = data["entries"]
    return State(
        kind=data["kind"],
        identity=tuple(int(n) for n in data["identity"]),
        target=data["target"],
        entries=None
        if entries is None
        else tuple((str(n), k, tuple(int(i) for i in ident)) for n, k, ident in entries),
    )
