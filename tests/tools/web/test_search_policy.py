"""`web_search` through the policy gate: the query leaves the machine, so ask and
accept-edits ask (always-allow covers every search of the session), auto does not, a
headless run refuses, and settings rules naming `web_search` allow or deny it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.policy.support import Asker
from tests.tools.web.search_api import Hit, SearchApi, env_for, ok_reply, serve_api
from tether.policy import PolicyGate, PolicyMode
from tether.settings import Settings, load_settings
from tether.tools import SearchAccess, ToolContext, ToolResult, Workspace, invoke
from tether.tools.web import WebSearchArgs, WebSearchTool, choose_backend

HITS = [Hit("Docs", "https://docs.python.org/3/", "the docs")]


@pytest.fixture(scope="module")
def api() -> Iterator[SearchApi]:
    with serve_api() as running:
        yield running


async def search(
    api: SearchApi,
    ws: Path,
    mode: PolicyMode,
    asker: Asker | None,
    *queries: str,
    settings: Settings | None = None,
) -> list[ToolResult]:
    workspace = Workspace.at(ws)
    gate = PolicyGate(workspace, mode, asker, settings=settings)
    ctx = ToolContext(workspace=workspace, gate=gate)
    tool = WebSearchTool(choose_backend(env_for("tavily", api)))
    api.answer(*(ok_reply("tavily", HITS) for _ in queries))
    return [await invoke(tool, WebSearchArgs(query=q), ctx) for q in queries]


@pytest.mark.parametrize("mode", ["ask", "accept-edits"])
async def test_a_search_asks_and_always_allow_covers_the_session(
    api: SearchApi, ws: Path, mode: PolicyMode
) -> None:
    asker = Asker("allow_always")
    results = await search(api, ws, mode, asker, "httpx 1.0", "pydantic 3")
    assert [r.is_error for r in results] == [False, False]
    assert [r.subject for r in asker.requests] == [SearchAccess("httpx 1.0", "Tavily")]
    request = asker.requests[0]
    assert request.title == 'Search the web for "httpx 1.0" (Tavily)'
    assert request.reason == (
        "a web search sends the query to Tavily, which needs approval unless the mode is auto"
    )
    assert [o.name for o in request.options] == [
        "Allow once",
        "Always allow web searches for this session",
        "Reject",
    ]
    assert len(api.seen) == 2


async def test_a_rejected_search_sends_nothing(api: SearchApi, ws: Path) -> None:
    [result] = await search(api, ws, "ask", Asker("reject"), "secret project name")
    assert result.is_error
    assert result.text() == (
        'Permission to search the web for "secret project name" with Tavily was rejected'
    )
    assert api.seen == []


async def test_auto_never_asks(api: SearchApi, ws: Path) -> None:
    asker = Asker()
    [result] = await search(api, ws, "auto", asker, "httpx")
    assert not result.is_error and asker.requests == []


@pytest.mark.parametrize("mode", ["ask", "accept-edits"])
async def test_headless_refuses_and_names_the_flag(
    api: SearchApi, ws: Path, mode: PolicyMode
) -> None:
    [result] = await search(api, ws, mode, None, "httpx")
    assert result.text() == (
        'Permission to search the web for "httpx" with Tavily needs approval (a web search '
        "sends the query to Tavily, which needs approval unless the mode is auto), but there "
        "is no one to ask in this session; run with --mode auto to allow it"
    )
    assert api.seen == []


async def test_settings_rules_allow_or_deny_it(
    api: SearchApi, ws: Path, isolated_environment: Path
) -> None:
    (ws / ".tether").mkdir()
    rules = ws / ".tether" / "settings.json"
    rules.write_text(json.dumps({"permissions": {"allow": ["WebSearch"]}}))
    settings = load_settings(ws, isolated_environment, trusted=True)
    [allowed] = await search(api, ws, "ask", None, "httpx", settings=settings)
    assert not allowed.is_error
    rules.write_text(json.dumps({"permissions": {"deny": ["web_search"]}}))
    settings = load_settings(ws, isolated_environment, trusted=True)
    [denied] = await search(api, ws, "auto", None, "httpx", settings=settings)
    assert denied.text() == (
        'Permission to search the web for "httpx" with Tavily is denied by the deny rule '
        f"web_search in {rules}"
    )
    assert len(api.seen) == 0


async def test_always_allow_for_the_project_writes_the_rule(
    api: SearchApi, ws: Path, isolated_environment: Path
) -> None:
    settings = load_settings(ws, isolated_environment)
    asker = Asker("allow_project")
    await search(api, ws, "ask", asker, "httpx", settings=settings)
    local = json.loads((ws / ".tether" / "settings.local.json").read_text())
    assert local["permissions"]["allow"] == ["web_search"]
