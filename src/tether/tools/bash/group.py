"""A command's process group: signalling all of it, and knowing when none of it is left."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    # Loaded with a command stopped or a signal named, not with the cards a replay shows
    # (`signal` makes an enumeration of every signal as it loads).
    import signal

__all__ = [
    "KILL_GRACE_SECONDS",
    "KILL_WAIT_SECONDS",
    "Member",
    "ProcessGroup",
    "Stat",
    "Stop",
    "member_at",
    "read_stat",
    "signal_name",
]

KILL_GRACE_SECONDS = 2.0
"""How long a group has between SIGTERM and SIGKILL."""
KILL_WAIT_SECONDS = 2.0
"""How long a stop waits after SIGKILL for the kernel to finish with the group: a killed
process still runs until it has left the kernel, and a result that says nothing was left
behind must be true when it is read. What is still there after this is named instead."""

Stop = Literal["timeout", "cancelled", "processes"]
"""Why tether stopped a command: its timeout, a cancel, or too many processes at once."""

_POLL_SECONDS = 0.02
_PROC = Path("/proc")
_NO_SIGNAL = 0
"""Signal 0 checks that a process exists without disturbing it."""
_PF_EXITING = 0x4
"""The flag `/proc/PID/stat` shows for a process the kernel is ending."""
_COMMAND_SHOWN = 200
"""How much of a process's command line a result names."""


@dataclass(frozen=True)
class Member:
    """A running process of a group: its pid and its command line, as a result names it."""

    pid: int
    command: str
    exiting: bool = False
    """In the kernel's exit path: it runs no more code of its own and is about to be gone."""

    def describe(self) -> str:
        """`1234 sleep 1004`."""
        return f"{self.pid} {self.command}"


def signal_name(number: int) -> str:
    """The conventional name of a signal (`SIGKILL`), or `SIG<n>` for one Python does not name."""
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


class ProcessGroup:
    """The group a command runs in (its leader was started in a new session, so pgid == pid)."""

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid

    def send(self, sig: signal.Signals | int) -> bool:
        """Signal every process in the group; `False` when none is left."""
        try:
            os.killpg(self.pgid, sig)
        except ProcessLookupError:
            return False
        return True

    def alive(self) -> bool:
        """Whether any process of the group is still running (zombies do not count)."""
        if _PROC.is_dir():
            return bool(self.members())
        try:
            os.killpg(self.pgid, 0)
        except ProcessLookupError:
            return False
        return True

    def members(self) -> list[Member]:
        """The live processes of the group, oldest pid first (empty where there is no /proc)."""
        # `killpg(pgid, 0)` also succeeds for zombies nobody has reaped yet, which would make
        # every stop wait for the full grace period; /proc tells live processes from zombies.
        found: list[Member] = []
        if not _PROC.is_dir() or not self.send(_NO_SIGNAL):
            return found  # the cheap check first: most commands leave no group behind
        for entry in _PROC.iterdir():
            if not entry.name.isdigit():
                continue
            stat = read_stat(entry)
            if stat is not None and stat.pgid == self.pgid and stat.running:
                found.append(member_at(entry, stat))
        return sorted(found, key=lambda m: m.pid)

    async def stop(self, grace: float = KILL_GRACE_SECONDS) -> signal.Signals | None:
        """SIGTERM the group, then SIGKILL whatever is left after `grace` seconds.

        After a SIGKILL it waits, at most `KILL_WAIT_SECONDS`, until the group is gone.
        Returns the last signal sent, or `None` when the group was already gone.
        """
        import signal

        if not self.send(signal.SIGTERM):
            return None
        if await self.gone_within(grace) or not self.send(signal.SIGKILL):
            return signal.SIGTERM
        await self.gone_within(KILL_WAIT_SECONDS)
        return signal.SIGKILL

    async def gone_within(self, seconds: float) -> bool:
        """Wait until no process of the group runs, for at most `seconds`; whether none does."""
        import asyncio  # loaded with a command run, not with the cards a replay shows

        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while self.alive():
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(_POLL_SECONDS)
        return True

    def survivors(self) -> list[Member]:
        """What still runs code of the command once it was stopped (not those exiting)."""
        return [m for m in self.members() if not m.exiting]

    def kill_now(self) -> None:
        """SIGKILL the group at once (the last resort when there is no time to wait)."""
        import signal

        self.send(signal.SIGKILL)


@dataclass(frozen=True)
class Stat:
    """What `/proc/PID/stat` says of a process that matters here."""

    name: str
    state: str
    ppid: int
    pgid: int
    flags: int = 0

    @property
    def exiting(self) -> bool:
        """The kernel has begun ending it (`PF_EXITING`): a killed process can take a while
        to be gone (a namespace's last process tears the namespace down), running no code."""
        return bool(self.flags & _PF_EXITING)

    @property
    def running(self) -> bool:
        """Not a zombie (dead, waiting to be reaped) nor gone."""
        return self.state not in ("Z", "X")


def read_stat(entry: Path) -> Stat | None:
    """The stat of the process `entry` (a `/proc/PID` directory); `None` once it is gone."""
    try:
        stat = (entry / "stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces; fields follow the last ')'.
    fields = stat[stat.rfind(")") + 2 :].split()
    if len(fields) < 7:
        return None
    name = stat[stat.find("(") + 1 : stat.rfind(")")]
    return Stat(name, fields[0], int(fields[1]), int(fields[2]), int(fields[6]))


def member_at(entry: Path, stat: Stat) -> Member:
    """The process `entry` (a `/proc/PID` directory) as a result names it."""
    return Member(int(entry.name), _command_line(entry, stat.name), stat.exiting)


def _command_line(entry: Path, name: str) -> str:
    """The process's arguments joined by spaces, else its name from `stat`, shortened."""
    try:
        raw = (entry / "cmdline").read_bytes()
    except OSError:
        raw = b""
    command = " ".join(part.decode(errors="replace") for part in raw.split(b"\0") if part)
    if not command:
        command = name
    if len(command) > _COMMAND_SHOWN:
        command = command[:_COMMAND_SHOWN] + "..."
    return command
