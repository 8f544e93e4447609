"""`web_fetch` in a session: the same cards live and replayed, and cancel mid-download."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.session.helpers import Recorder, call, new_session, script, text
from tests.tools.web.server import Handler, reply, serve
from tether.session import ToolCallFinished, ToolCallStarted
from tether.session.replay import replay
from tether.session.store import SessionStore
from tether.tools.defaults import default_tools
from tether.views import GenericCallView, WebFetchResultView


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path.resolve()


async def test_fetch_cards_are_the_same_live_and_replayed(home: Path, ws: Path) -> None:
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
        session = new_session(home, ws, model, tools, gate=None, mode="auto")
        recorder = Recorder()
        assert await session.prompt(text("Read the doc"), recorder) == "end_turn"
    live = recorder.without_progress()
    assert session.replay() == live
    stored = SessionStore(home).read(session.id)
    assert replay(stored.events, default_tools().bound(stored.header.cwd)) == live

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
    session.close()


async def test_cancelling_the_prompt_stops_a_download(home: Path, ws: Path) -> None:
    with serve() as server:

        def endless(handler: Handler) -> None:
            handler.send_response(200)
            handler.send_header("Content-Type", "text/plain")
            handler.end_headers()
            handler.wfile.write(b"x" * 65536)
            handler.wfile.flush()
            server.started.set()
            for _ in range(3000):  # bounded; ends when the client hangs up or the test ends
                if server.release.wait(0.01):
                    return
                handler.wfile.write(b"y" * 65536)
                handler.wfile.flush()

        server.routes["/endless"] = endless
        model = script({"toolCalls": [call("dl", "web_fetch", {"url": server.url("/endless")})]})
        session = new_session(home, ws, model, default_tools(allow_private_fetch=True))
        recorder = Recorder()
        task = asyncio.create_task(session.prompt(text("download"), recorder))
        assert await asyncio.to_thread(server.started.wait, 10)
        loop = asyncio.get_running_loop()
        began = loop.time()
        session.cancel()
        assert await asyncio.wait_for(task, 5) == "cancelled"
        assert loop.time() - began < 1
        assert await asyncio.to_thread(server.closed.wait, 10)
    finished = [u for u in recorder.updates if isinstance(u, ToolCallFinished)]
    assert [u.status for u in finished] == ["failed"]
    session.close()
