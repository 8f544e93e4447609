"""`tether web`: binds loopback, prints the URL with its token, and serves until stopped."""

from __future__ import annotations

import shlex
import signal
import socket
import sys
import threading
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TextIO

import uvicorn

from tether.session.log.store import data_dir
from tether.tools.web import ALLOW_PRIVATE_FLAG
from tether.web.app import DEFAULT_MAX_AGENTS, WebConfig, create_app
from tether.web.door import Door
from tether.web.follow import FollowedBudget
from tether.web.token import web_token

__all__ = [
    "Listening",
    "WebOptions",
    "bind",
    "default_agent_command",
    "listening",
    "parse_agent_command",
    "serve",
]

SHUTDOWN_GRACE_S = 3
"""How long open pages (and their agents) get to close when the server stops."""


def default_agent_command(
    *,
    model: str | None = None,
    base_url: str | None = None,
    mode: str | None = None,
    thinking: str | None = None,
    context_window: int | None = None,
    compact_at: float | None = None,
    allow_private_fetch: bool = False,
) -> list[str]:
    """`tether acp` run by this same Python, so the venv and the version match."""
    command = [sys.executable, "-m", "tether", "acp"]
    for flag, value in (
        ("--model", model),
        ("--base-url", base_url),
        ("--mode", mode),
        ("--thinking", thinking),
        ("--context-window", context_window),
        ("--compact-at", compact_at),
    ):
        if value is not None:
            command += [flag, str(value)]
    if allow_private_fetch:
        command.append(ALLOW_PRIVATE_FLAG)
    return command


def parse_agent_command(text: str) -> list[str]:
    """Split `--agent "CMD ARGS"` the way a POSIX shell would; an empty command is an error."""
    words = shlex.split(text)
    if not words:
        raise ValueError("--agent needs a command, e.g. --agent 'tether acp'")
    return words


@dataclass(frozen=True)
class WebOptions:
    """Everything `tether web` is told on its command line."""

    host: str = "127.0.0.1"
    port: int = 0
    agent: tuple[str, ...] = ()
    cwd: Path = Path()
    open_browser: bool = True
    max_agents: int = DEFAULT_MAX_AGENTS
    new_token: bool = False
    """Replace the stored token (pages holding the old one are shut out)."""
    budget: FollowedBudget = field(default_factory=FollowedBudget)
    """`--context-window` and `--compact-at`, for sessions shown read-only from their logs."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket; port 0 picks a free one, known before the URL is printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Named TCP, so asyncio turns Nagle off on every connection accepted (it checks the
    # protocol): otherwise a response's body waits on the ACK of its headers, 40 ms a file.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


@dataclass(frozen=True)
class Listening:
    """A server bound and built but not yet serving: its URL (with the token) and its parts."""

    url: str
    config: WebConfig
    server: uvicorn.Server
    sock: socket.socket


def listening(options: WebOptions) -> Listening:
    """Bind, read (or make) the token and build the app and its uvicorn server, as `serve`
    runs them; the caller serves on `sock` and closes it."""
    sock = bind(options.host, options.port)
    port = sock.getsockname()[1]
    try:
        token = web_token(data_dir(), rotate=options.new_token)
    except BaseException:
        sock.close()
        raise
    url_host = f"[{options.host}]" if ":" in options.host else options.host
    config = WebConfig(
        agent=options.agent or tuple(default_agent_command()),
        cwd=options.cwd.resolve(),
        door=Door(token=token, host=options.host, port=port),
        max_agents=options.max_agents,
        budget=options.budget,
    )
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config),
            log_level="warning",
            ws="websockets-sansio",
            lifespan="off",
            timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
        )
    )
    return Listening(f"http://{url_host}:{port}/?token={token}", config, server, sock)


def serve(options: WebOptions, out: TextIO = sys.stdout) -> None:
    """Serve until interrupted (call it on the main thread); the URL (with its token) is the
    first line on `out`."""
    ready = listening(options)
    config = ready.config
    with _stopped_by_signals(ready.server):
        print(ready.url, file=out, flush=True)
        print(
            f"tether web: serving {config.cwd} with `{shlex.join(config.agent)}` (Ctrl+C to stop)",
            file=sys.stderr,
            flush=True,
        )
        if options.open_browser:
            # A browser launcher can block for a while; the server should not wait for it.
            threading.Thread(target=webbrowser.open, args=(ready.url,), daemon=True).start()
        try:
            ready.server.run(sockets=[ready.sock])
        finally:
            ready.sock.close()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _stopped_by_signals(server: uvicorn.Server) -> Iterator[None]:
    """Ctrl+C (or SIGTERM) stops the server from the moment its URL is printed.

    uvicorn installs its handlers only once its loop runs. Until then a Ctrl+C was Python's
    own (or, for a process started with SIGINT ignored, as a shell's background job is,
    nothing at all): one pressed right after the URL showed was lost and the server ran on.
    A signal caught here marks the server to stop, and it stops as soon as it has started.
    Once it has, each signal caught is raised again under the handler the process had, as
    uvicorn does: a SIGTERM still ends the process by that signal.
    """
    caught: list[int] = []

    def stop(sig: int, frame: FrameType | None) -> None:
        if sig not in caught:
            caught.append(sig)
        server.handle_exit(sig, frame)

    previous = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    for signum in caught:
        signal.raise_signal(signum)
