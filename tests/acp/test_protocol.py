"""`tether acp`: bad input, errors, cancel, busy sessions, permissions, listing.

In process over in-memory streams (the `agents` fixture), but for what only a process has:
bad bytes on a real pipe, files and /dev/null as stdio, the exit while a command runs, and
another process refused a session the agent holds."""

from __future__ import annotations

import asyncio
import base64
import json
import os
from pathlib import Path

from acp import RequestError

from tests.acp.memory import InMemoryAgents
from tests.acp.support import (
    error_of,
    opened_session,
    prompt_params,
    script_spec,
    started_agent,
    updates_of,
)
from tests.acp.wire import AgentProcess, Message, tether_command
from tether.acp.errors import is_session_locked

PNG = base64.b64encode(bytes.fromhex("89504e470d0a1a0a0000000d49484452")).decode()


async def test_bad_lines_get_json_rpc_errors_and_the_agent_keeps_serving(tmp_path: Path) -> None:
    agent = await AgentProcess.start(tmp_path / "home", "--model", script_spec(tmp_path))
    try:
        await agent.write_raw(b"this is not json\n")
        assert error_of(await agent.read())["code"] == -32700
        await agent.write_raw(b'{"jsonrpc": "2.0", "id": 1, "method": \n')  # cut short
        assert error_of(await agent.read())["code"] == -32700
        await agent.write_raw(b"\xff\xfe\x00garbage\n")
        assert error_of(await agent.read())["code"] == -32700
        await agent.write_raw(b"[1, 2, 3]\n")
        batch = await agent.read()
        assert (batch["id"], error_of(batch)["code"]) == (None, -32600)
        await agent.write_raw(b'{"jsonrpc": "2.0", "id": 5, "method": 42}\n')
        bad_method = await agent.read()
        assert (bad_method["id"], error_of(bad_method)["code"]) == (5, -32600)
        await agent.write_raw(b"\n   \n")  # blank lines are not messages
        await agent.notify("no/such/notification", {})  # notifications get no answer

        reply, _ = await agent.request("no/such/method", {})
        assert error_of(reply)["code"] == -32601
        reply, _ = await agent.request("session/new", {"cwd": 42})
        assert error_of(reply)["code"] == -32602
        reply, _ = await agent.request("session/new", {"cwd": "relative/dir", "mcpServers": []})
        assert error_of(reply) == {
            "code": -32602,
            "message": "cwd must be an absolute path: relative/dir",
            "data": {"cwd": "relative/dir"},
        }
        missing = tmp_path / "missing"
        reply, _ = await agent.request("session/new", {"cwd": str(missing), "mcpServers": []})
        assert error_of(reply)["message"] == f"cwd is not a directory: {missing}"

        result = await agent.initialize()
        assert result["protocolVersion"] == 1
        assert result["agentCapabilities"]["loadSession"] is True
        assert result["agentInfo"]["name"] == "tether"
    finally:
        assert await agent.close() == 0
    assert all("jsonrpc" in m for m in agent.received)


async def test_nesting_too_deep_to_decode_is_a_parse_error_not_a_crash(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    agent = await agents.start(tmp_path / "home", "--model", script_spec(tmp_path))
    try:
        for line in (b"[" * 1000, b'{"a":' * 100_000, b"[" * 2_000_000):
            await agent.write_raw(line + b"\n")
            reply = await agent.read()
            assert (reply["id"], error_of(reply)["code"]) == (None, -32700)
            assert "nested too deeply" in error_of(reply)["data"]["details"]
        # Decodable but deep: nested values inside a request's params.
        for depth in (200, 900):
            params = "[" * depth + "]" * depth
            await agent.write_raw(
                f'{{"jsonrpc":"2.0","id":{depth},"method":"session/new","params":{params}}}\n'.encode()
            )
            reply = await agent.read()
            assert reply["id"] == depth
            assert error_of(reply)["code"] in (-32600, -32602, -32700)
        result = await agent.initialize()
        assert result["protocolVersion"] == 1
    finally:
        assert await agent.close() == 0
    assert all("jsonrpc" in m for m in agent.received)


async def test_unknown_sessions_modes_and_prompt_blocks_are_clear_errors(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    agent = await started_agent(agents, tmp_path, script_spec(tmp_path, {"text": "ok"}))
    try:
        reply, _ = await agent.request("session/prompt", prompt_params("nope", "hi"))
        error = error_of(reply)
        assert error["code"] == -32002
        assert error["message"].startswith("Session not open: nope")
        reply, _ = await agent.request(
            "session/load", {"sessionId": "nope", "cwd": str(tmp_path), "mcpServers": []}
        )
        assert error_of(reply) == {
            "code": -32002,
            "message": "Session not found: nope",
            "data": {"sessionId": "nope"},
        }

        session_id = await opened_session(agent, tmp_path / "ws")
        reply, _ = await agent.request(
            "session/set_mode", {"sessionId": session_id, "modeId": "yolo"}
        )
        error = error_of(reply)
        assert error["code"] == -32602
        assert error["message"] == "Unknown mode 'yolo': use one of ask, accept-edits, auto, plan"
        reply, _ = await agent.request(
            "session/set_mode", {"sessionId": session_id, "modeId": "auto"}
        )
        assert reply["result"] == {}

        audio = {"type": "audio", "data": PNG, "mimeType": "audio/wav"}
        reply, _ = await agent.request(
            "session/prompt", {"sessionId": session_id, "prompt": [audio]}
        )
        assert error_of(reply)["message"] == "Prompt block 0: audio prompts are not supported"
        reply, _ = await agent.request("session/prompt", {"sessionId": session_id, "prompt": []})
        assert error_of(reply)["message"] == "The prompt is empty"

        # Nothing was lost: the session still answers.
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "hello"))
        assert reply["result"] == {"stopReason": "end_turn"}
        assert [u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")] == ["ok"]
    finally:
        assert await agent.close() == 0


async def test_cancel_stops_the_command_and_a_second_prompt_is_refused(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": "sleep 30"}}]},
        {"text": "after"},
    )
    agent = await started_agent(agents, tmp_path, model, mode="auto")
    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        first = await agent.start_request("session/prompt", prompt_params(session_id, "wait"))
        started = await agent.read()
        assert started["params"]["update"]["sessionUpdate"] == "session_info_update"
        started = await agent.read()
        assert started["params"]["update"]["sessionUpdate"] == "tool_call"

        busy, _ = await agent.request("session/prompt", prompt_params(session_id, "again"))
        error = error_of(busy)
        assert error["code"] == -32600
        assert error["message"] == f"Session {session_id} is already running a prompt"

        await agent.notify("session/cancel", {"sessionId": session_id})
        # `sleep 30` would end by itself later than this: the cancel stopped it.
        reply, notes = await asyncio.wait_for(agent.response(first), 15)
        assert reply["result"] == {"stopReason": "cancelled"}
        [final] = updates_of(notes, "tool_call_update")
        # A cancelled command failed; it stays a terminal card, stopped by the signal it was sent.
        assert final["status"] == "failed"
        view = final["_meta"]["tether"]["view"]
        assert view == {"card": "terminal", "title": "sleep 30", "output": "", "signal": "SIGTERM"}

        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "go on"))
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0


async def test_a_model_failure_is_an_error_and_the_session_goes_on(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    model = script_spec(
        tmp_path, {"text": "partial", "error": "upstream overloaded"}, {"text": "back"}
    )
    agent = await started_agent(agents, tmp_path, model)
    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        reply, _ = await agent.request("session/prompt", prompt_params(session_id, "try"))
        assert error_of(reply) == {
            "code": -32603,
            "message": "The model failed: upstream overloaded",
            "data": {"sessionId": session_id, "details": "upstream overloaded"},
        }
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "again"))
        assert reply["result"] == {"stopReason": "end_turn"}
        assert [u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")] == ["back"]
    finally:
        assert await agent.close() == 0
    log = (tmp_path / "home" / "sessions" / f"{session_id}.jsonl").read_text()
    assert '"stopReason":"error","error":"upstream overloaded"' in log


async def test_permission_request_and_a_cancelled_answer_rejects(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    command = {"command": "echo hi > out.txt"}
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": command}]},
        {"text": "done"},
    )
    agent = await started_agent(agents, tmp_path, model)
    asked: list[Message] = []

    def cancel(message: Message) -> Message:
        asked.append(message)
        return {"outcome": {"outcome": "cancelled"}}

    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "x"), cancel)
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    [request] = asked
    assert request["method"] == "session/request_permission"
    assert request["params"] == {
        "sessionId": session_id,
        "toolCall": {
            "toolCallId": "c1",
            "kind": "execute",
            "status": "pending",
            "title": "echo hi > out.txt",
            "content": [
                {
                    "type": "content",
                    "content": {"type": "text", "text": "```console\n$ echo hi > out.txt\n```"},
                },
                {
                    "type": "content",
                    "content": {"type": "text", "text": "sandbox: workspace-write, no network"},
                },
            ],
            "rawInput": command,
            "_meta": {
                "tether": {
                    "view": {
                        "card": "terminal",
                        "title": "echo hi > out.txt",
                        "cwd": str(tmp_path / "ws"),
                        "sandbox": "sandbox: workspace-write, no network",
                    },
                    "reason": "commands need approval unless the mode is auto",
                }
            },
        },
        "options": [
            {"optionId": "allow_once", "name": "Allow", "kind": "allow_once"},
            {
                "optionId": "allow_always",
                "name": "Always allow",
                "kind": "allow_always",
                "_meta": {
                    "tether": {
                        "label": "Always allow the command `echo hi > out.txt` for this session"
                    }
                },
            },
            {
                "optionId": "allow_project",
                "name": "Always allow bash(echo hi) for this project",
                "kind": "allow_always",
            },
            {"optionId": "reject_once", "name": "Reject", "kind": "reject_once"},
        ],
        "_meta": {"tether": {"reason": "commands need approval unless the mode is auto"}},
    }
    # The request came after the tool call it is about.
    kinds = [m.get("method") or "answer" for m in agent.received]
    assert kinds.index("session/request_permission") > kinds.index("session/update")
    [final] = updates_of(notes, "tool_call_update")
    assert final["status"] == "failed"
    assert "was rejected" in final["content"][0]["content"]["text"]
    assert not (tmp_path / "ws" / "out.txt").exists()


async def test_prompt_blocks_are_stored_and_replayed_on_load(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    model = script_spec(tmp_path, {"text": "seen"})
    agent = await started_agent(agents, tmp_path, model)
    prompt = [
        {"type": "text", "text": "look at these"},
        {"type": "image", "data": PNG, "mimeType": "image/png"},
        {"type": "resource_link", "name": "main.py", "uri": "file:///w/main.py"},
        {
            "type": "resource",
            "resource": {"uri": "file:///w/notes.md", "text": "a note", "mimeType": "text/md"},
        },
    ]
    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        reply, notes = await agent.request(
            "session/prompt", {"sessionId": session_id, "prompt": prompt}
        )
        assert reply["result"] == {"stopReason": "end_turn"}
        assert not updates_of(notes, "user_message_chunk")  # a live client has its own prompt
    finally:
        assert await agent.close() == 0

    again = await started_agent(agents, tmp_path, model)
    try:
        reply, notes = await again.request(
            "session/load",
            {"sessionId": session_id, "cwd": str(tmp_path / "ws"), "mcpServers": []},
        )
        assert reply["result"]["modes"]["currentModeId"] == "ask"
    finally:
        assert await again.close() == 0
    # The blocks as the person sent them, not the text the model saw.
    assert [u["content"] for u in updates_of(notes, "user_message_chunk")] == prompt
    assert updates_of(notes, "session_info_update") == [
        {"sessionUpdate": "session_info_update", "title": "look at these"},
        {
            "sessionUpdate": "session_info_update",
            "_meta": {"tether": {"turnEnd": {"stopReason": "end_turn"}}},
        },
    ]


async def test_sessions_are_listed_from_the_store_and_locked_while_open(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    model = script_spec(tmp_path)
    agent = await started_agent(agents, tmp_path, model)
    try:
        first = await opened_session(agent, tmp_path / "one")
        await agent.request("session/prompt", prompt_params(first, "first title"))
        second = await opened_session(agent, tmp_path / "two")
        reply, _ = await agent.request("session/list", {})
        listed = reply["result"]["sessions"]
        assert [s["sessionId"] for s in listed] == [second, first]
        assert listed[1]["cwd"] == str((tmp_path / "one").resolve())
        assert listed[1]["title"] == "first title"
        assert listed[1]["updatedAt"].endswith("Z") or "+" in listed[1]["updatedAt"]
        assert "title" not in listed[0]
        reply, _ = await agent.request("session/list", {"cwd": str(tmp_path / "two")})
        assert [s["sessionId"] for s in reply["result"]["sessions"]] == [second]
        reply, _ = await agent.request("session/list", {"cursor": "nonsense"})
        assert error_of(reply)["code"] == -32602

        # Another process cannot take a session this one holds (a real process: the lock is
        # the operating system's, between processes).
        other = await started_agent(AgentProcess, tmp_path, model)
        try:
            reply, _ = await other.request(
                "session/load",
                {"sessionId": first, "cwd": str(tmp_path / "one"), "mcpServers": []},
            )
            error = error_of(reply)
            assert error["code"] == -32603
            assert first in error["message"]
            assert "already open" in error["message"]
            assert error["data"] == {"sessionId": first, "reason": "sessionLocked"}
            assert is_session_locked(RequestError(error["code"], error["message"], error["data"]))
        finally:
            assert await other.close() == 0
    finally:
        assert await agent.close() == 0


async def test_malformed_cursors_and_paths_are_invalid_params(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    agent = await started_agent(agents, tmp_path, script_spec(tmp_path))
    try:
        for cursor in ("²", "١٢", "9" * 5000, "-1", "", " 1"):
            reply, _ = await agent.request("session/list", {"cursor": cursor})
            assert error_of(reply)["code"] == -32602, cursor
        nul = str(tmp_path) + "\x00x"
        reply, _ = await agent.request("session/list", {"cwd": nul})
        assert error_of(reply)["code"] == -32602
        for method in ("session/new", "session/load"):
            params = {"cwd": nul, "sessionId": "abc", "mcpServers": []}
            reply, _ = await agent.request(method, params)
            assert error_of(reply)["code"] == -32602, method
            params = {"cwd": str(tmp_path), "sessionId": "abc", "mcpServers": []}
            reply, _ = await agent.request(method, {**params, "additionalDirectories": [nul]})
            assert error_of(reply)["code"] == -32602, method
        reply, _ = await agent.request("session/list", {"cursor": "0"})
        assert reply["result"]["sessions"] == []
    finally:
        assert await agent.close() == 0


async def test_set_mode_applies_to_the_next_decision(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    write = {"path": "a.txt", "content": "x\n"}
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "c1", "name": "write", "arguments": write}]},
        {"text": "written"},
    )
    agent = await started_agent(agents, tmp_path, model)  # starts in ask
    try:
        session_id = await opened_session(agent, tmp_path / "ws")
        reply, _ = await agent.request(
            "session/set_mode", {"sessionId": session_id, "modeId": "accept-edits"}
        )
        assert reply["result"] == {}
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "write"))
        assert reply["result"] == {"stopReason": "end_turn"}  # no permission request came
        [final] = updates_of(notes, "tool_call_update")
        assert final["status"] == "completed"
    finally:
        assert await agent.close() == 0
    assert (tmp_path / "ws" / "a.txt").read_text() == "x\n"


async def test_closing_stdin_mid_prompt_ends_the_turn_in_the_log(tmp_path: Path) -> None:
    model = script_spec(
        tmp_path,
        {
            "toolCalls": [
                {"id": "c1", "name": "bash", "arguments": {"command": "echo started; sleep 30"}}
            ]
        },
    )
    agent = await started_agent(AgentProcess, tmp_path, model, mode="auto")
    session_id = await opened_session(agent, tmp_path / "ws")
    await agent.start_request("session/prompt", prompt_params(session_id, "wait"))
    for _ in range(100):  # until the command's first output: it is running
        update = (await agent.read()).get("params", {}).get("update", {})
        if update.get("status") == "in_progress" and "started" in json.dumps(update):
            break
    else:
        raise AssertionError("the command never reported its output")
    # Closing stdin ends the agent while `sleep 30` still runs (each wait is cut at 10 s).
    assert await agent.close(timeout=10) == 0
    events = [
        json.loads(line)
        for line in (tmp_path / "home" / "sessions" / f"{session_id}.jsonl")
        .read_text()
        .splitlines()
    ]
    assert events[-1]["type"] == "turn/end"
    assert events[-1]["stopReason"] == "cancelled"
    assert events[-2]["type"] == "tool/result" and events[-2]["isError"] is True


async def test_files_and_dev_null_work_as_stdin_and_stdout(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text(
        json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}
        )
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    command = [*tether_command(), "acp", "--model", script_spec(tmp_path)]
    with requests.open("rb") as stdin, out.open("wb") as stdout:
        process = await asyncio.create_subprocess_exec(
            *command, stdin=stdin, stdout=stdout, stderr=asyncio.subprocess.DEVNULL, env=env
        )
        assert await asyncio.wait_for(process.wait(), 30) == 0
    [answer] = [json.loads(line) for line in out.read_text().splitlines()]
    assert answer["result"]["agentInfo"]["name"] == "tether"

    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        env=env,
    )
    assert await asyncio.wait_for(process.wait(), 30) == 0


async def test_an_error_echoing_a_lone_surrogate_is_still_answered(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    agent = await agents.start(tmp_path / "home", "--model", script_spec(tmp_path))
    try:
        # Valid JSON whose string escapes half a surrogate pair, which UTF-8 cannot carry.
        await agent.write_raw(
            b'{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":'
            b'{"sessionId":"a\\ud800","prompt":[{"type":"text","text":"x"}]}}\n'
        )
        reply = await agent.read()
        assert reply["id"] == 7
        assert error_of(reply)["message"].startswith("Session not open: a\ud800")
        reply, _ = await agent.request("session/list", {})
        assert reply["result"] == {"sessions": []}
    finally:
        assert await agent.close() == 0


async def test_a_loaded_session_asks_under_its_own_id(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    write = {"path": "notes.md", "content": "kept\n"}
    model = script_spec(
        tmp_path,
        {"toolCalls": [{"id": "w1", "name": "write", "arguments": write}]},
        {"text": "done"},
    )
    first = await started_agent(agents, tmp_path, model)
    try:
        session_id = await opened_session(first, tmp_path / "ws")
    finally:
        assert await first.close() == 0
    asked: list[Message] = []

    def allow(message: Message) -> Message:
        asked.append(message)
        return {"outcome": {"outcome": "selected", "optionId": "allow_once"}}

    again = await started_agent(agents, tmp_path, model)
    try:
        params = {"sessionId": session_id, "cwd": str(tmp_path / "ws"), "mcpServers": []}
        reply, _ = await again.request("session/load", params)
        assert "result" in reply, reply
        reply, _ = await again.request("session/prompt", prompt_params(session_id, "x"), allow)
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await again.close() == 0
    [request] = asked
    assert request["params"]["sessionId"] == session_id
    tool_call = request["params"]["toolCall"]
    # The card the loaded session announced for the call, repeated with the question.
    assert (tool_call["toolCallId"], tool_call["kind"], tool_call["status"]) == (
        "w1",
        "edit",
        "pending",
    )
    assert tool_call["rawInput"] == write
    assert tool_call["_meta"]["tether"]["reason"] == "edits need approval in ask mode"
    assert (tmp_path / "ws" / "notes.md").read_text() == "kept\n"
