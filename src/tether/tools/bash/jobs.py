"""Background commands: a session's jobs, each a command that runs on after its call returns.

A job runs as any command does (`run_command`: the session's sandbox, its own process group,
output merged and bounded), in a task of its own, so cancelling a turn leaves it running; only
`kill_shell`, the end of the session or of the process stops it. Each keeps two bounded views
of its output: all of it (head and tail, as a command's card) and what the model has not read
yet (`bash_output` takes that and starts over).

Whoever made the jobs may watch them (`on_change`): it hears of a job whose output changed,
at most once per `REPORT_SECONDS`, and once when it ends, so its card can stay live after
the call that started it returned.
"""

from __future__ import annotations

import asyncio
import atexit
import re
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tether.errors import ToolError
from tether.sandbox.policy import Confinement
from tether.tools.bash.group import ProcessGroup, signal_name
from tether.tools.bash.output import (
    MODEL_HEAD_CHARS,
    MODEL_TAIL_CHARS,
    Clipped,
    HeadTail,
    OutputCapture,
)
from tether.tools.bash.process import Finished, run_command

__all__ = ["JOB_LIMIT_SECONDS", "MAX_JOBS", "REPORT_SECONDS", "Job", "JobRead", "Jobs"]

MAX_JOBS = 8
"""Background commands one session may have running at once."""
JOB_LIMIT_SECONDS = 24 * 3600.0
"""How long a background command may run before it is stopped as a timed-out command is."""
REPORT_SECONDS = 1.0
"""The shortest time between two reports of a running job's new output."""


_LIVE: weakref.WeakSet[Jobs] = weakref.WeakSet()
"""Every session's jobs that ever ran one, for the last look when the process exits."""


def _kill_all_at_exit() -> None:
    # Sandboxed commands die with tether (bwrap's --die-with-parent); an unsandboxed one would
    # not, if its session was never closed.
    for jobs in list(_LIVE):
        jobs.close_now()


@dataclass
class Job:
    """One background command: `shell-N`, what it runs, and its output so far."""

    id: str
    command: str
    tool_call_id: str
    """The call that started it: its card is the job's."""
    capture: OutputCapture
    unread: HeadTail
    stop: asyncio.Event
    started: float = field(default_factory=time.monotonic)
    task: asyncio.Task[Finished] | None = None
    group: ProcessGroup | None = None
    watch: asyncio.Task[None] | None = None
    shown: int = 0
    """The version of the output people saw last (in the call's card, then in reports)."""

    @property
    def running(self) -> bool:
        """Whether the command is still running."""
        return self.task is not None and not self.task.done()

    def finished(self) -> Finished | None:
        """How it ended, once it has (`None` while it runs, or if it could not start)."""
        task = self.task
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()

    def status(self) -> str:
        """`running`, `exit code N`, `killed by SIGTERM`..."""
        if self.running:
            return "running"
        ended = self.finished()
        if ended is None:
            return "failed to run"
        if ended.signal is not None:
            return f"killed by {signal_name(ended.signal)}"
        return f"exit code {ended.exit_code}"


@dataclass(frozen=True)
class JobRead:
    """What `bash_output` returns: the output since the last read, and how the job stands."""

    job: Job
    output: Clipped
    """The new output (stripped), head and tail kept, the total counted."""
    shown: str
    """The new output as the model gets it (only the matching lines, with a filter)."""


class Jobs:
    """The background commands of one session."""

    def __init__(self, on_change: Callable[[Job], bool] | None = None) -> None:
        self._jobs: dict[str, Job] = {}
        self._count = 0
        self._foreground: dict[str, asyncio.Event] = {}
        """The commands running in the foreground now, by call id: each one's request to move
        to the background (a person's Ctrl+B)."""
        self._on_change = on_change
        """Told of a job that changed; `False` when it could not take the report yet (the
        job's call has not finished), to be told again."""

    def running(self) -> list[Job]:
        """The jobs still running, oldest first."""
        return [job for job in self._jobs.values() if job.running]

    def all(self) -> list[Job]:
        """Every job of the session, oldest first."""
        return list(self._jobs.values())

    def foreground(self, tool_call_id: str) -> asyncio.Event:
        """Note a command running in the foreground; the event is set to move it to the
        background (it is forgotten with `settled`)."""
        event = self._foreground[tool_call_id] = asyncio.Event()
        return event

    def settled(self, tool_call_id: str) -> None:
        """The foreground command of `tool_call_id` ended, or became a job."""
        self._foreground.pop(tool_call_id, None)

    def in_foreground(self) -> bool:
        """Whether a command runs in the foreground now (one Ctrl+B could move)."""
        return bool(self._foreground)

    def to_background(self) -> int:
        """Ask every command running in the foreground to move to the background; how many
        were asked (none when none runs, or `MAX_JOBS` run already)."""
        if len(self.running()) >= MAX_JOBS:
            return 0
        for event in self._foreground.values():
            event.set()
        return len(self._foreground)

    def adopt(
        self,
        command: str,
        tool_call_id: str,
        task: asyncio.Task[Finished],
        *,
        capture: OutputCapture,
        stop: asyncio.Event,
        group: ProcessGroup | None,
    ) -> Job | None:
        """Make a command that runs now the next `shell-N` (moved to the background while it
        ran); `None` when `MAX_JOBS` run already (it stays in the foreground)."""
        if len(self.running()) >= MAX_JOBS:
            return None
        self._count += 1
        unread = HeadTail(MODEL_HEAD_CHARS, MODEL_TAIL_CHARS)
        capture.listen(unread.feed)
        job = Job(
            id=f"shell-{self._count}",
            command=command,
            tool_call_id=tool_call_id,
            capture=capture,
            unread=unread,
            stop=stop,
            task=task,
            group=group,
        )
        job.shown = capture.version
        self._register(job)
        return job

    def _register(self, job: Job) -> None:
        """Keep `job`, watch it, and stop it when the process exits."""
        if not _LIVE:
            atexit.unregister(_kill_all_at_exit)
            atexit.register(_kill_all_at_exit)
        _LIVE.add(self)
        self._jobs[job.id] = job
        if self._on_change is not None:
            job.watch = asyncio.create_task(self._watch(job), name=f"tether {job.id} watch")

    async def start(
        self,
        command: str,
        cwd: Path,
        *,
        confine: Confinement | None,
        env: Mapping[str, str] | None,
        tool_call_id: str = "",
    ) -> Job:
        """Start `command` as the next `shell-N`; refused past `MAX_JOBS` running."""
        if len(self.running()) >= MAX_JOBS:
            names = ", ".join(job.id for job in self.running())
            raise ToolError(
                f"{MAX_JOBS} background commands are running already ({names}): stop one with "
                "kill_shell first"
            )
        self._count += 1
        unread = HeadTail(MODEL_HEAD_CHARS, MODEL_TAIL_CHARS)
        job = Job(
            id=f"shell-{self._count}",
            command=command,
            tool_call_id=tool_call_id,
            capture=OutputCapture(listener=unread.feed),
            unread=unread,
            stop=asyncio.Event(),
        )
        started = asyncio.get_running_loop().create_future()

        def on_start(group: ProcessGroup) -> None:
            job.group = group
            if not started.done():
                started.set_result(None)

        job.task = asyncio.create_task(
            run_command(
                command,
                cwd,
                timeout=JOB_LIMIT_SECONDS,
                cancelled=job.stop,
                capture=job.capture,
                confine=confine,
                env=env,
                on_start=on_start,
            ),
            name=f"tether {job.id}",
        )
        # It is a job once it runs; a shell that cannot start is the call's error.
        await asyncio.wait({started, job.task}, return_when=asyncio.FIRST_COMPLETED)
        if not started.done():
            error = job.task.exception()
            raise ToolError(f"Cannot run the command: {error}")
        self._register(job)
        return job

    async def _watch(self, job: Job) -> None:
        """Report the job's new output at most once per `REPORT_SECONDS`, and its end."""
        assert self._on_change is not None and job.task is not None
        # What the call's own result shows is not news: the first report is of what follows.
        tries = 50
        while True:
            ended = job.task.done()
            version = job.capture.version
            if (version != job.shown or ended) and self._on_change(job):
                job.shown = version
                if ended:
                    return
            if ended:
                tries -= 1
                if not tries:  # its call never finished (it failed): no card to keep live
                    return
                await asyncio.sleep(REPORT_SECONDS / 10)  # its call is still finishing
            else:
                await asyncio.wait({job.task}, timeout=REPORT_SECONDS)

    def get(self, job_id: str) -> Job:
        """The job called `job_id`; a `ToolError` listing the jobs when there is none."""
        job = self._jobs.get(job_id.strip())
        if job is None:
            known = ", ".join(self._jobs) or "none"
            raise ToolError(f"No background command {job_id!r} (this session's: {known})")
        return job

    def read(self, job_id: str, pattern: str | None = None) -> JobRead:
        """The output of `job_id` since the last read (its lines matching `pattern` only)."""
        job = self.get(job_id)
        matcher = None
        if pattern is not None:
            try:
                matcher = re.compile(pattern)
            except re.error as exc:
                raise ToolError(f"Invalid filter {pattern!r}: {exc}") from None
        output = job.unread.snapshot()
        job.unread = HeadTail(MODEL_HEAD_CHARS, MODEL_TAIL_CHARS)
        job.capture.listen(job.unread.feed)
        text = output.text()
        if matcher is not None:
            text = "\n".join(line for line in text.splitlines() if matcher.search(line))
        return JobRead(job, output, text)

    async def kill(self, job_id: str) -> Job:
        """Stop `job_id`'s whole group (SIGTERM, then SIGKILL) and wait for it to end."""
        job = self.get(job_id)
        if job.running and job.task is not None:
            job.stop.set()
            await asyncio.wait({job.task})
        return job

    async def aclose(self) -> None:
        """Stop every job still running and wait for each to end."""
        running = self.running()
        for job in running:
            job.stop.set()
        tasks = {job.task for job in running if job.task is not None}
        if tasks:
            await asyncio.wait(tasks)
        # The last report of each job (how it ended) comes before the session closes.
        watches = {job.watch for job in self._jobs.values() if job.watch is not None}
        if watches:
            await asyncio.wait(watches, timeout=2 * REPORT_SECONDS)
        for watch in watches:
            watch.cancel()

    def close_now(self) -> None:
        """Kill every job at once (SIGKILL), where there is no time to wait."""
        for job in self.running():
            job.stop.set()
            if job.group is not None:
                job.group.kill_now()
        for job in self._jobs.values():
            if job.watch is not None:
                job.watch.cancel()
