"""Work a test kills with SIGKILL part way through: an /undo of a stored session, a snapshot of
a workspace into the checkpoint store.

Each runs in a process of its own, forked from a server that imported tether once (the
standard library's fork server, this module preloaded): the process killed is a real one, as
one started from nothing is, but each start costs a fork instead of tether's imports (about
0.4 s of CPU, paid once per test worker instead of once per kill). The server ends with the
test worker that started it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from tether.checkpoints import open_store
from tether.models.script import ScriptModel
from tether.session import Session, SessionConfig, SessionStore
from tether.tools.defaults import default_tools

__all__ = ["finish", "snapshot", "start", "undo"]

_FORKED = multiprocessing.get_context("forkserver")
_FORKED.set_forkserver_preload([__name__])

_READY_S = 60.0


def undo(ready: Connection, environment: Mapping[str, str], home: str, session_id: str) -> None:
    """Open the session and undo its last prompt, as `/undo` does; says `ready` once open."""
    _as_started(environment)
    store = SessionStore(Path(home))
    config = SessionConfig(model=ScriptModel.from_json('{"turns": []}'), tools=default_tools())
    session = Session.load(store, session_id, config)
    ready.send("ready")

    async def restore() -> None:
        await session.rewind.restore(await session.rewind.plan_undo())

    asyncio.run(restore())
    session.close()


def snapshot(
    ready: Connection, environment: Mapping[str, str], home: str, ws: str, tree: str
) -> None:
    """Snapshot `ws` on top of `tree`; says `ready` once the store is open."""
    _as_started(environment)
    store = open_store(Path(home), Path(ws))
    ready.send("ready")
    store.snapshot(tree)


def _as_started(environment: Mapping[str, str]) -> None:
    """The test's environment, not the one the server started with (another test's)."""
    os.environ.clear()
    os.environ.update(environment)


def start(work: Callable[..., None], *args: str) -> tuple[BaseProcess, float]:
    """`work(ready, environment, *args)` in a forked process, once it is ready; the process
    and when it was ready."""
    ours, theirs = _FORKED.Pipe(duplex=False)
    process = _FORKED.Process(target=work, args=(theirs, dict(os.environ), *args), daemon=True)
    process.start()
    theirs.close()
    try:
        assert ours.poll(_READY_S), f"{work.__name__} was not ready in {_READY_S} s"
        assert ours.recv() == "ready"
    finally:
        ours.close()
    return process, time.monotonic()


def finish(process: BaseProcess) -> int:
    """The process's exit status once it has ended (minus the signal that killed it)."""
    process.join(120)
    assert process.exitcode is not None, "the process did not end in 120 s"
    return process.exitcode
