"""Stopping a process group: SIGTERM, and SIGKILL only for what outlives the grace period."""

from __future__ import annotations

import asyncio
import signal

from tests.polling import eventually
from tether.tools.bash.group import ProcessGroup


async def _started(command: str) -> tuple[asyncio.subprocess.Process, ProcessGroup]:
    """A shell running `command` (two jobs and a wait) in a process group of its own."""
    process = await asyncio.create_subprocess_exec("bash", "-c", command, start_new_session=True)
    group = ProcessGroup(process.pid)
    await eventually(lambda: len(group.members()) == 3, "the shell started both jobs")
    return process, group


async def test_a_stop_returns_as_soon_as_the_group_is_gone() -> None:
    process, group = await _started("sleep 1000 & sleep 1000 & wait")
    try:
        # An hour's grace: a stop that waited it out would miss the deadline by far.
        assert await asyncio.wait_for(group.stop(grace=3600), 30) == signal.SIGTERM
        assert group.members() == []
    finally:
        group.kill_now()
        await process.wait()


async def test_what_ignores_sigterm_gets_sigkill_after_the_grace() -> None:
    process, group = await _started("trap '' TERM; sleep 1000 & sleep 1000 & wait")
    try:
        assert await asyncio.wait_for(group.stop(grace=0.2), 30) == signal.SIGKILL
        # The stop waited for the kernel to finish with the killed processes.
        assert group.members() == []
        assert group.survivors() == []
    finally:
        group.kill_now()
        await process.wait()
