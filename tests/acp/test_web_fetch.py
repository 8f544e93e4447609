"""`web_fetch` over ACP: a real `tether acp` fetches from a loopback server the test runs."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import updates_of
from tests.acp.wire import Message
from tests.tools.web.server import reply, serve

PAGE = b"<html><head><title>Guide</title></head><body><nav>menu</nav><h1>Guide</h1><p>Hi.</p>"


def _script(tmp: Path, urls: list[str]) -> str:
    calls = [
        {"id": f"f{i}", "name": "web_fetch", "arguments": {"url": u}} for i, u in enumerate(urls)
    ]
    path = tmp / "script.json"
    path.write_text(json.dumps({"turns": [{"toolCalls": [c]} for c in calls] + [{"text": "ok"}]}))
    return f"script:{path}"


async def test_the_web_card_and_the_fetch_kind_reach_the_client(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    with serve() as server:
        server.routes["/guide"] = lambda h: reply(h, 200, PAGE)
        urls = [server.url("/guide"), server.url("/guide?again")]
        model = _script(tmp_path, urls)
        agent = await agents.start(
            tmp_path / "home", "--model", model, "--mode", "ask", "--allow-private-fetch"
        )
        asked: list[Message] = []

        def allow_always(message: Message) -> Message:
            asked.append(message)
            return {"outcome": {"outcome": "selected", "optionId": "allow_always"}}

        try:
            await agent.initialize()
            (tmp_path / "ws").mkdir()
            answer, _ = await agent.request(
                "session/new", {"cwd": str(tmp_path / "ws"), "mcpServers": []}
            )
            session_id = answer["result"]["sessionId"]
            prompt = {"sessionId": session_id, "prompt": [{"type": "text", "text": "read"}]}
            done, notes = await agent.request("session/prompt", prompt, allow_always)
            assert done["result"] == {"stopReason": "end_turn"}
            loaded, replayed = await agent.request(
                "session/load",
                {"sessionId": session_id, "cwd": str(tmp_path / "ws"), "mcpServers": []},
            )
            assert "result" in loaded
        finally:
            assert await agent.close() == 0
    # One question for the host; "always" covered the second fetch.
    [request] = asked
    asked_call = request["params"]["toolCall"]
    assert (asked_call["toolCallId"], asked_call["kind"], asked_call["title"]) == (
        "f0",
        "fetch",
        f"Fetch {urls[0]}",
    )
    [first, _] = updates_of(notes, "tool_call")
    assert first["kind"] == "fetch" and first["title"] == f"Fetch {urls[0]}"
    assert first["_meta"]["tether"]["view"] == {
        "card": "generic",
        "title": f"Fetch {urls[0]}",
        "kind": "fetch",
        "rawInput": {"url": urls[0]},
    }
    final = updates_of(notes, "tool_call_update")[0]
    assert final["status"] == "completed"
    assert final["content"] == [
        {"type": "content", "content": {"type": "text", "text": "# Guide\n\nHi."}}
    ]
    assert final["_meta"]["tether"]["view"] == {
        "card": "web",
        "kind": "fetch",
        "url": urls[0],
        "statusCode": 200,
        "truncated": False,
        "title": f"Fetch {urls[0]}",  # over ACP a call keeps its one title
        "contentType": "text/html; charset=utf-8",
        "bytes": len(PAGE),
        "content": "# Guide\n\nHi.",
    }
    live = updates_of(notes, "tool_call") + updates_of(notes, "tool_call_update")
    again = updates_of(replayed, "tool_call") + updates_of(replayed, "tool_call_update")
    assert again == live


async def test_without_the_flag_a_loopback_fetch_is_refused(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    with serve() as server:
        server.routes["/"] = lambda h: reply(h, 200, b"secret", "text/plain")
        model = _script(tmp_path, [server.url("/", host="localhost")])
        agent = await agents.start(tmp_path / "home", "--model", model, "--mode", "auto")
        try:
            await agent.initialize()
            (tmp_path / "ws").mkdir()
            answer, _ = await agent.request(
                "session/new", {"cwd": str(tmp_path / "ws"), "mcpServers": []}
            )
            prompt = {
                "sessionId": answer["result"]["sessionId"],
                "prompt": [{"type": "text", "text": "read"}],
            }
            _, notes = await agent.request("session/prompt", prompt)
        finally:
            assert await agent.close() == 0
        assert server.paths == []
    [final] = updates_of(notes, "tool_call_update")
    assert final["status"] == "failed"
    text = final["content"][0]["content"]["text"]
    assert text.startswith("Refusing to fetch from localhost: it is a loopback name; ")
    assert text.endswith("pass --allow-private-fetch to allow private addresses")
