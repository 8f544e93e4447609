"""`web_search` in a session: offered only with a backend, the same cards live and replayed
(also by a process with no backend), and a cancel that stops a search."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.session.helpers import Recorder, Sessions, call, script, text
from tests.tools.web.search_api import Hit, Reply, env_for, ok_reply, serve_api
from tether.session import ToolCallFinished, ToolCallStarted
from tether.session.log.store import SessionStore
from tether.session.replay import replay
from tether.tools.defaults import default_tools
from tether.tools.web import choose_backend
from tether.views import GenericCallView, GenericResultView, WebSearchHit, WebSearchResultView


async def test_search_cards_are_the_same_live_and_replayed(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    with serve_api() as api:
        api.answer(
            ok_reply("brave", [Hit("Changelog", "https://www.python-httpx.org/changelog/", "1.0")]),
            Reply(401, {"error": {"detail": "The provided subscription token is invalid."}}),
        )
        # One search per step: the server answers in the order requests arrive.
        model = script(
            {"toolCalls": [call("ok", "web_search", {"query": "httpx 1.0", "max_results": 3})]},
            {
                "toolCalls": [
                    call("bad", "web_search", {"query": "again"}),
                    call("invalid", "web_search", {"query": "x", "max_results": 50}),
                ]
            },
            {"text": "Found it."},
        )
        tools = default_tools(web_search=choose_backend(env_for("brave", api)))
        session = sessions.new(ws, model, tools)
        recorder = Recorder()
        assert await session.prompt(text("What changed in httpx 1.0?"), recorder) == "end_turn"
    assert "web_search" in [t.name for t in model.requests[0].tools]
    live = recorder.without_progress()
    assert session.replay() == live
    stored = SessionStore(home).read(session.id)
    # A process without any backend still shows the stored searches with their cards.
    assert replay(stored.events, default_tools(), stored.header.cwd) == live

    started = {u.tool_call_id: u.view for u in live if isinstance(u, ToolCallStarted)}
    done = {u.tool_call_id: u for u in live if isinstance(u, ToolCallFinished)}
    assert started["ok"] == GenericCallView(
        title='Search the web for "httpx 1.0"',
        kind="fetch",
        raw_input={"query": "httpx 1.0", "max_results": 3},
    )
    assert done["ok"].view == WebSearchResultView(
        query="httpx 1.0",
        results=(
            WebSearchHit(
                title="Changelog", url="https://www.python-httpx.org/changelog/", snippet="1.0"
            ),
        ),
        truncated=False,
        provider="brave",
    )
    assert done["bad"].status == "failed"
    assert done["bad"].view == GenericResultView(
        content=(
            "Brave Search refused the key in BRAVE_API_KEY (HTTP 401: The provided "
            "subscription token is invalid.); check the key"
        )
    )
    assert done["invalid"].status == "failed"
    assert "max_results" in done["invalid"].result.text()


async def test_without_a_backend_the_model_is_not_offered_the_tool(
    ws: Path, sessions: Sessions
) -> None:
    model = script({"toolCalls": [call("c1", "web_search", {"query": "httpx"})]}, {"text": "ok"})
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    assert await session.prompt(text("search"), recorder) == "end_turn"
    offered = [t.name for t in model.requests[0].tools]
    assert "web_search" not in offered and "web_fetch" in offered
    [finished] = [u for u in recorder.updates if isinstance(u, ToolCallFinished)]
    assert finished.status == "failed"
    assert finished.result.text() == (
        "web_search is not available: no search backend is configured: set BRAVE_API_KEY "
        "(Brave Search), EXA_API_KEY (Exa), TAVILY_API_KEY (Tavily) or SEARXNG_URL (a SearXNG "
        "instance), or webSearch.provider in the settings"
    )
    # The rules still warn about web content: web_fetch is offered.
    assert "<web_content> tags comes from the web" in model.requests[0].system


async def test_cancelling_the_prompt_stops_a_search(ws: Path, sessions: Sessions) -> None:
    with serve_api() as api:
        api.answer(Reply(200, {"results": []}, hold=True))
        model = script({"toolCalls": [call("s", "web_search", {"query": "slow"})]})
        tools = default_tools(web_search=choose_backend(env_for("exa", api)))
        session = sessions.new(ws, model, tools)
        recorder = Recorder()
        task = asyncio.create_task(session.prompt(text("search"), recorder))
        assert await asyncio.to_thread(api.held.wait, 10)
        session.cancel()
        # The search never answers by itself: ending at all means the cancel stopped it.
        assert await asyncio.wait_for(task, 10) == "cancelled"
    finished = [u for u in recorder.updates if isinstance(u, ToolCallFinished)]
    assert [u.status for u in finished] == ["failed"]
