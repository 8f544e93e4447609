"""Fixtures for the web client: a real `tether web` process on loopback."""

from __future__ import annotations

import asyncio
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

import pytest
from playwright.sync_api import Browser

from tests.web.browser import chromium

FAKE_AGENT = Path(__file__).with_name("fake_agent.py")
TETHER = [sys.executable, "-c", "from tether.cli import main; raise SystemExit(main())"]
START_TIMEOUT_S = 20


@dataclass(frozen=True)
class WebServer:
    """A running `tether web`: its URL (with the token) and pieces of it."""

    url: str
    process: subprocess.Popen[str]

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
    home = {"TETHER_HOME": str(cwd.parent / "tether-home")}
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
        yield WebServer(url=lines[0].strip(), process=process)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def fake_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` running the test agent with tether views (one server per test module)."""
    root = tmp_path_factory.mktemp("web")
    workspace = root / "ws"
    workspace.mkdir()
    with running_web(fake_agent_command(root / "store"), workspace) as server:
        yield server


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[tuple[Browser, asyncio.AbstractEventLoop]]:
    """One headless Chromium for the whole run, and the event loop Playwright drives it on.

    Starting Playwright's driver and a browser costs seconds on a busy machine; each test
    opens its own context (cookies, storage, viewport), so tests share only the process.
    """
    with chromium() as launched:
        loop = asyncio.get_running_loop()  # Playwright's, marked running between its calls
        try:
            yield launched, loop
        finally:
            asyncio._set_running_loop(loop)  # as Playwright expects it, to close


@pytest.fixture(scope="module")
def browser(shared_chromium: tuple[Browser, asyncio.AbstractEventLoop]) -> Iterator[Browser]:
    """The shared Chromium, lent to one test module.

    Playwright's sync API leaves its event loop marked running on this thread between calls
    (`playwright/_impl/_greenlets.py`); a later module's asyncio test could then start no
    loop of its own. So the mark is put back for a module that uses the browser and taken
    off when it ends.
    """
    launched, loop = shared_chromium
    asyncio._set_running_loop(loop)
    try:
        yield launched
    finally:
        asyncio._set_running_loop(None)
