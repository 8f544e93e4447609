"""Fixtures for the fetch tests: a real loopback server and a context to run the tool in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tools.web.server import PageServer, serve
from tether.tools import ToolContext, ToolResult, Workspace, invoke
from tether.tools.card_context import CardContext
from tether.tools.web import WebFetchArgs, WebFetchTool
from tether.views import WebFetchResultView


@pytest.fixture
def server() -> Iterator[PageServer]:
    """An HTTP server on 127.0.0.1 with no routes yet."""
    with serve() as running:
        yield running


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    """A context that allows everything (the policy has its own tests)."""
    return ToolContext(workspace=Workspace.at(tmp_path))


async def fetch(
    ctx: ToolContext, url: str, tool: WebFetchTool | None = None
) -> tuple[ToolResult, WebFetchResultView | None]:
    """Run `web_fetch` on `url` (private addresses allowed); the result and its card."""
    tool = tool or WebFetchTool(allow_private=True)
    args = WebFetchArgs(url=url)
    result = await invoke(tool, args, ctx)
    return result, tool.present_result(args, result, CardContext())
