"""`web_fetch` in a session: the same cards live and replayed, and cancel mid-download."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tests.session.helpers import Recorder, Sessions, call, log_lines, script, text
from tests.tools.web.server import endless, reply, serve
from tether.models.script import ScriptModel
from tether.session import ToolCallFinished, ToolCallStarted
from tether.session.log.store import SessionStore
from tether.session.replay import replay
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


async def test_a_prompt_is_answered_from_the_page_and_the_card_keeps_the_page(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    page = (
        b"<title>Release notes</title><h1>Release notes</h1><p>Version 2.3 adds --frobnicate.</p>"
    )
    with serve() as server:
        server.routes["/notes"] = lambda h: reply(h, 200, page)
        url = server.url("/notes")
        question = "Which flag does 2.3 add?"
        answer = {"turns": [{"text": "It adds `--frobnicate`."}]}
        model = ScriptModel.from_json(
            json.dumps(
                {
                    "turns": [
                        {
                            "toolCalls": [
                                call("claude", "WebFetch", {"url": url, "prompt": question})
                            ]
                        },
                        {
                            "toolCalls": [
                                call("ours", "web_fetch", {"url": url, "prompt": question})
                            ]
                        },
                        {"toolCalls": [call("whole", "web_fetch", {"url": url})]},
                        {"text": "It is --frobnicate."},
                    ],
                    # A script answers each question with the script its call id is given.
                    "tasks": {"claude": answer, "ours": answer},
                }
            )
        )
        session = sessions.new(ws, model, default_tools(allow_private_fetch=True))
        recorder = Recorder()
        assert await session.prompt(text("What does 2.3 add?"), recorder) == "end_turn"
    live = recorder.without_progress()
    assert session.replay() == live
    done = {u.tool_call_id: u for u in live if isinstance(u, ToolCallFinished)}
    assert done["claude"].result == done["ours"].result
    assert done["claude"].result.text() == (
        f"URL: {url} | Status: 200 OK | Content-Type: text/html; charset=utf-8\n"
        "Title: Release notes\n"
        "Question: Which flag does 2.3 add?\n"
        "The answer, read from the page by a model:\n"
        "<web_content>\nIt adds `--frobnicate`.\n</web_content>"
    )
    # The card keeps the page the answer was read from, as a fetch without a prompt shows it.
    card, whole = done["ours"].view, done["whole"].view
    assert isinstance(card, WebFetchResultView) and isinstance(whole, WebFetchResultView)
    assert card.content == whole.content
    assert card.content is not None and "Version 2.3 adds --frobnicate." in card.content
    started = {u.tool_call_id: u.view for u in live if isinstance(u, ToolCallStarted)}
    assert (
        started["claude"]
        == started["ours"]
        == GenericCallView(
            title=f"Fetch {url}: {question}",
            kind="fetch",
            raw_input={"url": url, "prompt": question},
        )
    )
    logged = [e for e in log_lines(session, home) if e["type"] == "tool/call"]
    assert [e["name"] for e in logged] == ["web_fetch", "web_fetch", "web_fetch"]
