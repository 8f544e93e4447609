"""A background command's card over ACP: it keeps changing after its call returned, between
prompts too, and `session/load` sends the same updates again."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import session_updates
from tests.acp.wire import Message
from tests.polling import until_file

COMMAND = f"echo one; {until_file('go')}; echo two; exit 4"
"""It ends once the test lets it (a file appears): after the prompt, with no request open."""


async def test_the_jobs_card_is_updated_after_the_call_and_replayed(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    script = tmp_path / "script.json"
    call = {"id": "j", "name": "bash", "arguments": {"command": COMMAND, "run_in_background": True}}
    script.write_text(json.dumps({"turns": [{"toolCalls": [call]}, {"text": "Started."}]}))
    workspace = tmp_path / "ws"
    workspace.mkdir()
    agent = await agents.start(
        tmp_path / "home", "--model", f"script:{script}", "--mode", "auto", "--sandbox", "off"
    )
    try:
        await agent.initialize()
        answer, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = answer["result"]["sessionId"]
        prompt = {"sessionId": session_id, "prompt": [{"type": "text", "text": "go"}]}
        done, during = await agent.request("session/prompt", prompt)
        assert done["result"] == {"stopReason": "end_turn"}
        (workspace / "go").touch()
        # After the prompt ended, with no request open: the job's card as it changes.
        after: list[Message] = []
        while not any(_job(n).get("ended") for n in after):
            after.append(await agent.read())
        loaded, replayed = await agent.request(
            "session/load", {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        )
        assert "result" in loaded
    finally:
        assert await agent.close() == 0
    finished = [u for u in session_updates(during) if u["sessionUpdate"] == "tool_call_update"][-1]
    assert finished["status"] == "completed"
    # The call's own result says the job it left running, so a client can show it running.
    assert finished["_meta"]["tether"]["job"] == {"id": "shell-1", "ended": False}
    live = [_update(n) for n in after]
    assert [u["sessionUpdate"] for u in live] == ["tool_call_update"] * len(live)
    last = live[-1]
    # No status: the call finished when the job started; the card is what changes.
    assert "status" not in last and last["toolCallId"] == "j"
    assert last["_meta"]["tether"]["job"] == {"id": "shell-1", "ended": True}
    view = last["_meta"]["tether"]["view"]
    assert (view["card"], view["output"], view["exitCode"]) == ("terminal", "one\ntwo\n", 4)
    assert view["notes"] == ["ran in the background as shell-1"]
    assert "two" in last["content"][0]["content"]["text"]
    # `session/load` replays the call and every change of its card, in order.
    again = [u for u in session_updates(replayed) if u.get("toolCallId") == "j"]
    assert again[-len(live) :] == live


def _update(note: Message) -> Message:
    assert note.get("method") == "session/update", note
    update: Message = note["params"]["update"]
    return update


def _job(note: Message) -> Message:
    meta = note.get("params", {}).get("update", {}).get("_meta", {})
    job: Message = meta.get("tether", {}).get("job", {})
    return job
