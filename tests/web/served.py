"""A `tether web` the tests talk to: its URL and token, and the real process that serves it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

FAKE_AGENT = Path(__file__).with_name("fake_agent.py")
TETHER = [sys.executable, "-c", "from tether.cli import main; raise SystemExit(main())"]
START_TIMEOUT_S = 20


@dataclass(frozen=True)
class WebServer:
    """A running `tether web`: its URL (with the token) and pieces of it."""

    url: str

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT`."""
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def token(self) -> str:
        """The token the server printed."""
        match = re.search(r"token=([^&]+)", self.url)
        assert match is not None
        return match.group(1)

    @property
    def ws_url(self) -> str:
        """The page's WebSocket URL with the token."""
        return f"ws://{urlsplit(self.url).netloc}/ws?token={self.token}"


def fake_agent_command(store: Path, *, views: bool = True, auth: bool = False) -> str:
    """The `--agent` value that runs the test agent (with `auth`, it asks for an API key)."""
    words = [sys.executable, str(FAKE_AGENT), "--store", str(store)]
    if not views:
        words.append("--no-views")
    if auth:
        words.append("--auth")
    return " ".join(words)


def home_beside(cwd: Path) -> Path:
    """The data directory a server gets unless told: `tether-home` beside its workspace.

    Refused beside a test's own `tmp_path`, in the folder pytest numbers: there one home would
    be shared by every later test of the process, and read by pytest's numbering."""
    if cwd.parent.name.startswith(("popen-gw", "pytest-")):
        raise ValueError(f"serve a workspace inside the test's folder (the `ws` fixture): {cwd}")
    return cwd.parent / "tether-home"


@contextmanager
def running_web(
    agent: str | None, cwd: Path, env: dict[str, str] | None = None, extra: Sequence[str] = ()
) -> Iterator[WebServer]:
    """Start `tether web --no-open` and wait (bounded) for the URL it prints.

    Its data directory (where the token is kept) is beside `cwd` unless `env` names one.
    With `agent` `None` the server runs its default agent, `tether acp` given its flags.
    """
    port = next((a.split("=", 1)[1] for a in extra if a.startswith("--port=")), "0")
    extra = [a for a in extra if not a.startswith("--port=")]
    env = env or {}
    home = {} if "TETHER_HOME" in env else {"TETHER_HOME": str(home_beside(cwd))}
    chosen = ["--agent", agent] if agent is not None else []
    process = subprocess.Popen(
        [*TETHER, "web", "--no-open", "--port", port, "--cwd", str(cwd), *chosen, *extra],
        stdout=subprocess.PIPE,
        stderr=None,
        text=True,
        env={**os.environ, **home, **(env or {})},
    )
    lines: list[str] = []
    reader = threading.Thread(
        target=lambda: lines.append(process.stdout.readline() if process.stdout else ""),
        daemon=True,
    )
    reader.start()
    reader.join(START_TIMEOUT_S)
    try:
        if not lines or not lines[0].startswith("http://"):
            raise RuntimeError(f"tether web printed no URL: {lines!r}")
        yield WebServer(url=lines[0].strip())
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
