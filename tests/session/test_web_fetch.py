"""`web_fetch` in a session: the same cards live and replayed, and cancel mid-download."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.session.helpers import Recorder, Sessions, call, script, text
from tests.tools.web.server import endless, reply, serve
from tether.session import ToolCallFinished, ToolCallStarted
from tether.session.replay import replay
from tether.session.store import SessionStore
from tether.tools.defaults import default_tools
from tether.views import GenericCallView, WebFetchResultView


async def test_fetch_cards_are_the_same_live_and_replayed(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    with serve() as server:
        server.routes["/doc"] = lambda h: reply(h, 200, b"<title>Doc</title><h1>Doc</h1>")
        server.routes["/moved"] = lambda h: reply(
            h, 301, b"", headers={"Location": server.url("/doc", host="localhost")}
        )
        model = script(
            {
                "toolCalls": [
                    call("ok", "web_fetch", {"url": server.url("/doc")}),
                    call("missing", "web_fetch", {"url": server.url("/gone")}),
                    call("moved", "web_fetch", {"url": server.url("/moved")}),
                    call("bad", "web_fetch", {"url": "ftp://x/"}),
                ]
            },
            {"text": "Read it."},
        )
        tools = default_tools(allow_private_fetch=True)
        session = sessions.new(ws, model, tools)
        recorder = Recorder()
        assert await session.prompt(text("Read the doc"), recorder) == "end_turn"
    live = recorder.without_progress()
    assert session.replay() == live
    stored = SessionStore(home).read(session.id)
    assert replay(stored.events, default_tools(), stored.header.cwd) == live

    started = {u.tool_call_id: u.view for u in live if isinstance(u, ToolCallStarted)}
    done = {u.tool_call_id: u for u in live if isinstance(u, ToolCallFinished)}
    assert started["ok"] == GenericCallView(
        title=f"Fetch {server.url('/doc')}", kind="fetch", raw_input={"url": server.url("/doc")}
    )
    ok = done["ok"].view
    assert isinstance(ok, WebFetchResultView)
    assert (ok.status_code, ok.title, ok.content) == (200, "Doc", "# Doc")
    missing = done["missing"]
    assert missing.status == "failed" and isinstance(missing.view, WebFetchResultView)
    assert missing.view.status_code == 404
    moved = done["moved"].view
    assert isinstance(moved, WebFetchResultView)
    assert moved.redirect == server.url("/doc", host="localhost")
    assert done["bad"].status == "failed" and not isinstance(done["bad"].view, WebFetchResultView)


async def test_cancelling_the_prompt_stops_a_download(ws: Path, sessions: Sessions) -> None:
    with serve() as server:
        server.routes["/endless"] = endless(server)
        model = script({"toolCalls": [call("dl", "web_fetch", {"url": server.url("/endless")})]})
        session = sessions.new(ws, model, default_tools(allow_private_fetch=True))
        recorder = Recorder()
        task = asyncio.create_task(session.prompt(text("download"), recorder))
        assert await asyncio.to_thread(server.started.wait, 10)
        session.cancel()
        # The download never ends by itself: ending at all means the cancel stopped it.
        assert await asyncio.wait_for(task, 10) == "cancelled"
        assert await asyncio.to_thread(server.closed.wait, 10)
    finished = [u for u in recorder.updates if isinstance(u, ToolCallFinished)]
    assert [u.status for u in finished] == ["failed"]
