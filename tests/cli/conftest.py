"""Fixtures for command-line tests: a file in the workspace to read and edit, the terminals a
test opens, and an Anthropic endpoint on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.tui import Tui
from tests.models.sse_server import Received, Reply, SSEServer, served_in_thread, sse_reply


@pytest.fixture
def hello(ws: Path) -> Path:
    """`hello.py` in the workspace, one line that prints hello."""
    path = ws / "hello.py"
    path.write_text('print("hello")\n')
    return path


@pytest.fixture
def tuis() -> Iterator[list[Tui]]:
    """Every terminal a test opens is gone after it, whatever happened."""
    opened: list[Tui] = []
    yield opened
    for tui in opened:
        tui.kill()


@pytest.fixture
def anthropic() -> Iterator[SSEServer]:
    """An Anthropic messages endpoint on loopback: every request gets the same short answer."""

    def answer(_request: Received) -> Reply:
        return sse_reply("anthropic_text.sse")

    def prepare(server: SSEServer) -> None:
        server.answer = answer

    with served_in_thread(prepare) as server:
        yield server
