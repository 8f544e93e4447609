"""Stopping a sandbox: its init goes with the outer bwrap, however early the stop comes."""

from __future__ import annotations

import asyncio
import signal
import time

from tests.polling import eventually
from tests.processes import processes_with
from tether.tools.bash.confined import SandboxGroup


async def test_an_init_left_running_by_its_bwrap_is_killed_at_once() -> None:
    """A stop in the moment after bwrap made its init and before the init asked to die with
    it (`--die-with-parent`) leaves the init running when bwrap dies: it is killed then, as
    the parent's death would have killed it, not after the grace period and a second more."""
    marker = f"tether-init-{time.monotonic_ns()}"
    # The outer bwrap: a group leader whose child is in a session of its own, ignores SIGTERM
    # (as a PID namespace's init does) and has no parent-death signal.
    init = f"trap '' TERM; exec -a {marker} sleep 300"
    outer = await asyncio.create_subprocess_exec(
        "bash", "-c", f'setsid bash -c "{init}" & wait', start_new_session=True
    )
    group = SandboxGroup(outer.pid)
    try:
        await eventually(lambda: processes_with(marker), "the init running")
        # A grace far longer than a stop takes on a loaded machine: that it was not waited
        # out is then plain from the time alone (a 2 s grace left a loaded stop 0.5 s).
        grace = 10.0
        started = time.monotonic()
        assert await asyncio.wait_for(group.stop(grace=grace), 30) == signal.SIGTERM
        assert time.monotonic() - started < grace  # the grace (and a second) were not waited
        await eventually(lambda: not processes_with(marker), "the init gone")
    finally:
        group.kill_now()
        await outer.wait()
