"""A foreground command a person may move to the background while it runs (Ctrl+B).

The command runs as any other (its timeout, a cancel of the turn); when the person asks, it
becomes the session's next job without stopping: the same process group, the same output
capture, and from then on only `kill_shell` or the session's end stops it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from tether.sandbox.policy import Confinement, SandboxPolicy
from tether.tools.bash.group import ProcessGroup
from tether.tools.bash.jobs import JOB_LIMIT_SECONDS, Job, Jobs
from tether.tools.bash.output import OutputCapture
from tether.tools.bash.process import Finished, run_command
from tether.tools.bash.value import BashValue

__all__ = ["Ran", "moved_value", "run_detachable"]


@dataclass(frozen=True)
class Ran:
    """How a detachable command came out: it finished (`finished`), or became `job`."""

    finished: Finished | None = None
    job: Job | None = None


async def run_detachable(
    command: str,
    cwd: Path,
    *,
    jobs: Jobs,
    tool_call_id: str,
    timeout: float,
    cancelled: asyncio.Event,
    capture: OutputCapture,
    confine: Confinement | None,
    env: Mapping[str, str] | None,
) -> Ran:
    """Run `command` until it ends, times out, is cancelled, or is moved to the background."""
    stop = asyncio.Event()
    groups: list[ProcessGroup] = []
    # The run's own limit is a job's: the foreground timeout is kept here, so that a command
    # moved to the background is not stopped by it.
    run = asyncio.create_task(
        run_command(
            command,
            cwd,
            timeout=JOB_LIMIT_SECONDS,
            cancelled=stop,
            capture=capture,
            confine=confine,
            env=env,
            on_start=groups.append,
        )
    )
    detach = jobs.foreground(tool_call_id)
    asked = asyncio.ensure_future(detach.wait())
    cancel = asyncio.ensure_future(cancelled.wait())
    deadline = asyncio.get_running_loop().time() + timeout
    try:
        while True:
            left = deadline - asyncio.get_running_loop().time()
            done, _ = await asyncio.wait(
                {run, asked, cancel}, timeout=max(0.0, left), return_when=asyncio.FIRST_COMPLETED
            )
            if run in done:
                return Ran(finished=run.result())
            if asked in done and cancel not in done:
                group = next(iter(groups), None)
                job = jobs.adopt(
                    command, tool_call_id, run, capture=capture, stop=stop, group=group
                )
                if job is not None:
                    return Ran(job=job)
                detach.clear()  # too many jobs: it stays here
                asked = asyncio.ensure_future(detach.wait())
                continue
            # Cancelled or out of time: stopped as a command always is (SIGTERM, SIGKILL).
            stop.set()
            finished = await run
            if cancel not in done and finished.stopped == "cancelled":
                finished = replace(finished, stopped="timeout")
            return Ran(finished=finished)
    except asyncio.CancelledError:
        if not cancelled.is_set():
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
            raise
        # The person cancelled (the session cancels the task too, to stop it at once): the
        # command is stopped as a cancel stops it, and the call ends with what it printed.
        stop.set()
        if (task := asyncio.current_task()) is not None:
            task.uncancel()
        return Ran(finished=await run)
    finally:
        jobs.settled(tool_call_id)
        asked.cancel()
        cancel.cancel()


def moved_value(command: str, cwd: str, job: Job, sandbox: SandboxPolicy | None) -> BashValue:
    """The call's value once its command was moved to the background: the output so far, and
    the job it runs on as."""
    return BashValue(
        command=command,
        cwd=cwd,
        card=job.capture.card(),
        model=job.capture.model(),
        exit_code=None,
        signal=None,
        stopped=None,
        timeout_ms=0,
        detached=False,
        sandbox=sandbox,
        background=job.id,
        moved=True,
    )
