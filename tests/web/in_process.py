"""`tether web` served in the test's own process: the command's flags, options and app,
served by uvicorn on loopback from a thread, to real HTTP, WebSocket and browser clients.

A `tether web` process costs about a second of CPU to start, and the browser tests start
one for nearly every test. Here that import is paid once per worker. It is for tests of what
the server does for its pages (the door, the protocol, the cards, the agents it runs per
page); what only a process shows (the URL it prints, its exit status and stderr, signals)
is tested against a real one (`tests.web.served.running_web`).

The server reads its environment while it serves (the agents' environment, the data
directory of its token, keys and logs): each test that runs beside one sees that server's
environment (`served_environment`, applied by `tests/web/conftest.py` to every test), as a
process of its own would have kept it. Two servers with different environments cannot
serve in one process at once; one of them is then a real process.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.web.served import START_TIMEOUT_S, WebServer, home_beside
from tether.cli import build_parser
from tether.cli.home_args import use_home
from tether.cli.web import options_from_args
from tether.web.server import SHUTDOWN_GRACE_S, listening

__all__ = ["served_environment", "web_in_process"]

_SERVING: list[dict[str, str]] = []
"""The environment of each server now serving in this process (all the same)."""


def served_environment() -> Mapping[str, str]:
    """What the servers serving in this process have in their environment (none: empty)."""
    return _SERVING[0] if _SERVING else {}


@contextmanager
def web_in_process(
    agent: str | None, cwd: Path, env: dict[str, str] | None = None, extra: Sequence[str] = ()
) -> Iterator[WebServer]:
    """`running_web(agent, cwd, env, extra)`, served from a thread of this process.

    Its flags go through `tether web`'s own parser and checks; its data directory (where the
    token is kept) is beside `cwd` unless `env` names one.
    """
    env = env or {}
    wanted = {**({} if "TETHER_HOME" in env else {"TETHER_HOME": str(home_beside(cwd))}), **env}
    if _SERVING and _SERVING[0] != wanted:
        raise RuntimeError(
            "a server with another environment serves in this process: run one as a process"
        )
    chosen = ["--agent", agent] if agent is not None else []
    argv = ["web", "--no-open", "--cwd", str(cwd), *chosen, *extra]
    args = build_parser("web").parse_args(argv)
    with _environment(wanted):
        use_home(args)
        ready = listening(options_from_args(args))
        _SERVING.append(wanted)
        failed: list[BaseException] = []

        def run() -> None:
            try:
                ready.server.run(sockets=[ready.sock])
            except BaseException as exc:  # re-raised in the test's thread, which must know
                failed.append(exc)

        thread = threading.Thread(target=run, name="tether-web", daemon=True)
        thread.start()
        try:
            _wait_started(ready.server, thread)
            if failed:
                raise RuntimeError("tether web did not start") from failed[0]
            yield WebServer(url=ready.url)
        finally:
            # What Ctrl+C does to `tether web`: uvicorn stops, giving its pages their grace.
            ready.server.should_exit = True
            thread.join(SHUTDOWN_GRACE_S + START_TIMEOUT_S)
            ready.sock.close()
            _SERVING.remove(wanted)
        if thread.is_alive():
            raise RuntimeError("tether web did not stop")
        if failed:
            raise RuntimeError("tether web failed while it served") from failed[0]


def _wait_started(server: object, thread: threading.Thread) -> None:
    """Until uvicorn says it serves (bounded); a thread that ended is reported by the caller."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not getattr(server, "started", False) and thread.is_alive():
        if time.monotonic() > deadline:
            raise RuntimeError(f"tether web did not start in {START_TIMEOUT_S} s")
        time.sleep(0.005)


@contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    """`values` in `os.environ` until the block ends; what was there before is put back."""
    saved = dict(os.environ)
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
