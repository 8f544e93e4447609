"""A command inside bwrap: the shell that outlives it to stop what it left, and the teardown.

bwrap's own init (PID 1 of the sandbox) ends when its first child does, and the kernel then
kills everything else in the PID namespace: nothing started inside, not even with `setsid`
or `nohup`, survives the call. The first child is `_STOPPER`, which runs the command and then
stops whatever the command left running the way an unsandboxed call does (SIGTERM, SIGKILL
after the grace period), naming each process on a pipe so that the result can say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Sequence
from pathlib import Path

from tether.tools.bash.group import (
    KILL_GRACE_SECONDS,
    KILL_WAIT_SECONDS,
    Member,
    ProcessGroup,
    member_at,
    read_stat,
)

__all__ = ["SandboxGroup", "read_leftovers", "stopper_argv"]

_POLL = 0.02
_STOPPER = f"""\
report=$2
# The command keeps stderr; the stopper's own notes ("Killed") are not the command's output.
exec {{err}}>&2 2>/dev/null
# The limits bind the command, not the stopper, which must still be able to stop it.
(
    (( $# > 2 )) && ulimit "${{@:3}}"
    exec bash -c "$1" 2>&"$err" {{err}}>&- {{report}}>&-
)
status=$?
stopped=()
for dir in /proc/[0-9]*; do
    pid=${{dir#/proc/}}
    [[ $pid == 1 || $pid == $$ ]] && continue
    args=()
    # A process reads as an empty command line while it execs, and once it is a zombie:
    # the first soon has one again, so it is asked again before the process is skipped.
    for (( try = 0; try < 50; try++ )); do
        mapfile -d '' -t args 2>/dev/null < "$dir/cmdline"
        (( ${{#args[@]}} )) && break
        stat=
        read -r stat 2>/dev/null < "$dir/stat"
        [[ ${{stat##*) }} == [ZX]* || -z $stat ]] && break
        sleep {_POLL}
    done
    (( ${{#args[@]}} )) || continue
    kill -TERM "$pid" 2>/dev/null || continue
    stopped+=("$pid")
    printf '%s %s\\n' "$pid" "${{args[*]}}" >&"$report"
done
for (( i = 0; ${{#stopped[@]}} && i < {round(KILL_GRACE_SECONDS / _POLL)}; i++ )); do
    alive=()
    for pid in "${{stopped[@]}}"; do
        line=
        read -r -d '' line 2>/dev/null < "/proc/$pid/cmdline"
        [[ -n $line ]] && alive+=("$pid")
    done
    stopped=("${{alive[@]}}")
    (( ${{#stopped[@]}} )) && sleep {_POLL}
done
(( ${{#stopped[@]}} )) && kill -KILL "${{stopped[@]}}" 2>/dev/null
exit "$status"
"""
_REPORT_LIMIT = 64 * 1024


def stopper_argv(command: str, report_fd: int, limits: Sequence[str] = ()) -> list[str]:
    """What bwrap runs: the stopper, which runs `command` under the `ulimit` options `limits`
    and names leftovers on `report_fd`."""
    return ["bash", "-c", _STOPPER, "tether-sandbox", command, str(report_fd), *limits]


def read_leftovers(fd: int) -> tuple[Member, ...]:
    """The processes the stopper named, from the read end of its pipe (closed here)."""
    os.set_blocking(fd, False)
    data = b""
    try:
        while len(data) < _REPORT_LIMIT:
            chunk = os.read(fd, _REPORT_LIMIT)
            if not chunk:
                break
            data += chunk
    except BlockingIOError:
        pass
    finally:
        os.close(fd)
    members = []
    for line in data.decode(errors="replace").splitlines():
        pid, _, command = line.partition(" ")
        if pid.isdigit():
            members.append(Member(int(pid), command[:200]))
    return tuple(members)


class SandboxGroup(ProcessGroup):
    """The group of the outer bwrap; stopping it ends the sandbox and all that runs in it."""

    def __init__(self, pgid: int) -> None:
        super().__init__(pgid)
        self._namespaces: set[str] = set()
        """The PID namespaces of the sandbox, once a stop has looked them up."""

    async def stop(self, grace: float = KILL_GRACE_SECONDS) -> signal.Signals | None:
        """Signal bwrap, then wait until the sandbox's init, and so everything inside, is gone."""
        inits = self._children()
        sent = await super().stop(grace)
        # The outer bwrap dies at once; its init follows (it dies with its parent), and the
        # kernel kills the rest of the namespace before the init is gone.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace + 1
        while (running := [pid for pid in inits if _running(pid)]) and loop.time() < deadline:
            for pid in running:
                if self._left_behind(pid):
                    # Stopped in the moment after bwrap made its init and before the init asked
                    # to die with it: the kill it would have had, given now, not after the wait.
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(_POLL)
        killed = False
        for pid in inits:
            if _running(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    killed = True
        await self._settle()
        return signal.SIGKILL if killed else sent

    async def kill(self) -> None:
        """SIGKILL the sandbox at once (no grace: what it runs is out of bounds) and wait,
        at most `KILL_WAIT_SECONDS`, until the kernel has finished with everything in it."""
        self.kill_now()
        await self._settle()

    async def _settle(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + KILL_WAIT_SECONDS
        while self._inside() and loop.time() < deadline:
            await asyncio.sleep(_POLL)

    def survivors(self) -> list[Member]:
        """What still runs code of the outer group, and of the sandbox's namespace."""
        return [m for m in self.members() + self._inside() if not m.exiting]

    async def passes(self, limit: int, interval: float = 0.1) -> int:
        """Return, with the count, once more than `limit` processes run in the sandbox."""
        while True:
            if not self._namespaces:
                self._children()
            count = len(self._inside())
            if count > limit:
                return count
            await asyncio.sleep(interval)

    def kill_now(self) -> None:
        """SIGKILL bwrap and its init at once."""
        inits = self._children()
        super().kill_now()
        for pid in inits:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def _left_behind(self, pid: int) -> bool:
        """Whether the init `pid` runs on, not dying, though the outer bwrap is gone."""
        stat = read_stat(Path(f"/proc/{pid}"))
        return stat is not None and stat.running and not stat.exiting and stat.ppid != self.pgid

    def _children(self) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and (stat := read_stat(entry)) and stat.ppid == self.pgid:
                found.append(int(entry.name))
                if namespace := _pid_namespace(entry):
                    self._namespaces.add(namespace)
        # A child in tether's own namespace would make every process of the machine "inside".
        self._namespaces.discard(_pid_namespace(Path("/proc/self")) or "")
        return found

    def _inside(self) -> list[Member]:
        """The live processes of the sandbox's namespaces (its init included)."""
        found: list[Member] = []
        if not self._namespaces:
            return found
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or _pid_namespace(entry) not in self._namespaces:
                continue
            if (stat := read_stat(entry)) is not None and stat.running:
                found.append(member_at(entry, stat))
        return sorted(found, key=lambda m: m.pid)


def _pid_namespace(entry: Path) -> str | None:
    """Which PID namespace the process `entry` is in (`pid:[4026532]`); `None` once it is gone."""
    try:
        return os.readlink(entry / "ns" / "pid")
    except OSError:
        return None


def _running(pid: int) -> bool:
    stat = read_stat(Path(f"/proc/{pid}"))
    return stat is not None and stat.running
