"""Fixtures for the web client: `tether web` on loopback (in this process or a real one) and
one headless Chromium per worker."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.browser import chromium
from tests.web.in_process import served_environment
from tests.web.served import WebServer, fake_agent_command, running_web


@pytest.fixture(scope="module", autouse=True)
def agents_write_bytecode() -> Iterator[None]:
    """The `tether` processes a module's servers and pages start may write bytecode, as for a
    person who has run tether before (`tests.cli.support.writing_bytecode`): where
    `PYTHONDONTWRITEBYTECODE` is set (CI, this machine) each real agent a page started
    compiled its dataclasses' code again (about 0.15 s of a 0.8 s start) instead of reading
    the table the first one wrote. Module-scoped and autouse, so it is in place before the
    module's servers start, and put back when the module ends."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        yield


@pytest.fixture(autouse=True)
def served_environment_kept(isolated_environment: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server serving in this process keeps its own environment for the tests beside it
    (its agents', its data directory), as a process of its own would have kept it."""
    for name, value in served_environment().items():
        monkeypatch.setenv(name, value)


@pytest.fixture(scope="module")
def fake_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A `tether web` process running the test agent with tether views (one per test module)."""
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
