"""`web_fetch` through the policy gate: asked in ask and accept-edits, never in auto."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.policy.support import Asker
from tests.tools.web.conftest import fetch
from tests.tools.web.server import PageServer, reply
from tether.policy import PolicyGate, PolicyMode
from tether.tools import FetchAccess, ToolContext, Workspace


def gated(tmp_path: Path, mode: PolicyMode, asker: Asker | None) -> ToolContext:
    workspace = Workspace.at(tmp_path)
    return ToolContext(workspace=workspace, gate=PolicyGate(workspace, mode, asker))


@pytest.fixture
def page(server: PageServer) -> PageServer:
    server.routes["/a"] = lambda h: reply(h, 200, b"page a", "text/plain")
    server.routes["/b"] = lambda h: reply(h, 200, b"page b", "text/plain")
    return server


@pytest.mark.parametrize("mode", ["ask", "accept-edits"])
async def test_a_fetch_asks_and_always_allow_covers_the_host(
    page: PageServer, tmp_path: Path, mode: PolicyMode
) -> None:
    asker = Asker("allow_always", "allow_once")
    ctx = gated(tmp_path, mode, asker)
    first, _ = await fetch(ctx, page.url("/a"))
    second, _ = await fetch(ctx, page.url("/b"))  # same host: not asked again
    other, _ = await fetch(ctx, page.url("/a", host="localhost"))  # another host: asked
    assert [r.is_error for r in (first, second, other)] == [False, False, False]
    assert [r.subject for r in asker.requests] == [
        FetchAccess(url=page.url("/a"), host="127.0.0.1"),
        FetchAccess(url=page.url("/a", host="localhost"), host="localhost"),
    ]
    request = asker.requests[0]
    assert request.title == f"Fetch {page.url('/a')}"
    assert request.reason == "fetching from the web needs approval unless the mode is auto"
    assert [o.name for o in request.options] == [
        "Allow once",
        "Always allow fetching from 127.0.0.1 for this session",
        "Reject",
    ]


async def test_a_rejected_fetch_sends_nothing(page: PageServer, tmp_path: Path) -> None:
    result, card = await fetch(gated(tmp_path, "ask", Asker("reject")), page.url("/a"))
    assert result.is_error and card is None
    assert result.text() == f"Permission to fetch {page.url('/a')} was rejected"
    assert page.paths == []


async def test_auto_never_asks(page: PageServer, tmp_path: Path) -> None:
    asker = Asker()
    result, _ = await fetch(gated(tmp_path, "auto", asker), page.url("/a"))
    assert "page a" in result.text()
    assert asker.requests == []


@pytest.mark.parametrize("mode", ["ask", "accept-edits"])
async def test_headless_refuses_and_names_the_flag(
    page: PageServer, tmp_path: Path, mode: PolicyMode
) -> None:
    result, _ = await fetch(gated(tmp_path, mode, None), page.url("/a"))
    assert result.is_error
    assert result.text() == (
        f"Permission to fetch {page.url('/a')} needs approval (fetching from the web needs "
        "approval unless the mode is auto), but there is no one to ask in this session; "
        "run with --mode auto to allow it"
    )
    assert page.paths == []
