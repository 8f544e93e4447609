"""Config options over real pipes: a model select and the mode, switched mid-session, reloaded."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import error_of, opened_session, prompt_params, updates_of


def _scripts(tmp: Path) -> tuple[Path, Path]:
    models = tmp / "models"
    models.mkdir()
    first, second = models / "first.json", models / "second.json"
    first.write_text(json.dumps({"turns": [{"text": "first model"}]}))
    second.write_text(json.dumps({"turns": [{"text": "second model"}, {"text": "second again"}]}))
    return first, second


def _options(result: dict[str, object]) -> dict[str, dict[str, object]]:
    options = result["configOptions"]
    assert isinstance(options, list)
    return {option["id"]: option for option in options}


async def test_model_switch_is_logged_and_honoured_on_load(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    first, second = _scripts(tmp_path)
    home = tmp_path / "home"
    workspace = tmp_path / "ws"
    workspace.mkdir()
    agent = await agents.start(home, "--model", f"script:{first}")
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        options = _options(reply["result"])
        model = options["model"]
        assert model["type"] == "select"
        assert model["category"] == "model"
        assert model["currentValue"] == f"script:{first}"
        assert [o["value"] for o in model["options"]] == [f"script:{first}", f"script:{second}"]
        assert options["mode"]["currentValue"] == "ask"
        assert [o["value"] for o in options["mode"]["options"]] == [
            "ask",
            "accept-edits",
            "auto",
            "plan",
        ]

        params = {"sessionId": session_id, "configId": "model", "value": "openai:nope"}
        reply, _ = await agent.request("session/set_config_option", params)
        assert error_of(reply)["code"] == -32602
        assert "not a choice of model" in error_of(reply)["message"]
        params = {"sessionId": session_id, "configId": "colour", "value": "red"}
        assert (
            error_of((await agent.request("session/set_config_option", params))[0])["message"]
            == "Unknown config option 'colour': use one of model, thinking, mode, sandbox"
        )

        params = {"sessionId": session_id, "configId": "model", "value": f"script:{second}"}
        reply, _ = await agent.request("session/set_config_option", params)
        assert _options(reply["result"])["model"]["currentValue"] == f"script:{second}"
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "who?"))
        assert "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")) == (
            "second model"
        )

        params = {"sessionId": session_id, "configId": "mode", "value": "auto"}
        reply, notes = await agent.request("session/set_config_option", params)
        assert _options(reply["result"])["mode"]["currentValue"] == "auto"
        assert [u["currentModeId"] for u in updates_of(notes, "current_mode_update")] == ["auto"]
        reply, notes = await agent.request(
            "session/set_mode", {"sessionId": session_id, "modeId": "accept-edits"}
        )
        assert [u["currentModeId"] for u in updates_of(notes, "current_mode_update")] == [
            "accept-edits"
        ]
    finally:
        assert await agent.close() == 0
    log = (home / "sessions" / f"{session_id}.jsonl").read_text().splitlines()
    configs = [json.loads(line) for line in log if '"session/config"' in line]
    assert [(c["configId"], c["value"]) for c in configs] == [("model", f"script:{second}")]

    # Another process started with the first model picks the logged one on load.
    again = await agents.start(home, "--model", f"script:{first}")
    await again.initialize()
    try:
        reply, _ = await again.request(
            "session/load", {"sessionId": session_id, "cwd": str(workspace), "mcpServers": []}
        )
        assert _options(reply["result"])["model"]["currentValue"] == f"script:{second}"
        _, notes = await again.request("session/prompt", prompt_params(session_id, "and now?"))
        # A fresh script: its first turn again, from the model the session switched to.
        assert "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk")) == (
            "second model"
        )
    finally:
        assert await again.close() == 0


async def test_rename_and_delete_a_session_and_refuse_one_open_elsewhere(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    first, _ = _scripts(tmp_path)
    home = tmp_path / "home"
    agent = await agents.start(home, "--model", f"script:{first}")
    other = await agents.start(home, "--model", f"script:{first}")
    try:
        init = await agent.initialize()
        assert init["agentCapabilities"]["sessionCapabilities"]["delete"] == {}
        assert init["agentCapabilities"]["_meta"]["tether"]["renameSession"] is True
        await other.initialize()
        kept = await opened_session(agent, tmp_path / "ws")
        gone = await opened_session(agent, tmp_path / "ws")
        await agent.request("session/prompt", prompt_params(gone, "hello"))

        # Renamed where it is open: its client hears the new title; the list shows it.
        rename = {"sessionId": gone, "title": "  Release\n notes  "}
        reply, notes = await agent.request("_tether/session/rename", rename)
        assert reply["result"] == {"title": "Release notes"}
        assert [u["title"] for u in updates_of(notes, "session_info_update")] == ["Release notes"]
        # Held by another process: refused, as a delete is.
        reply, _ = await other.request("_tether/session/rename", {**rename, "sessionId": kept})
        assert "already open in another tether process" in error_of(reply)["message"]
        reply, _ = await agent.request("_tether/session/rename", {**rename, "title": " \t"})
        assert error_of(reply) == {
            "code": -32602,
            "message": "a session's title cannot be empty",
            "data": {"sessionId": gone},
        }
        # Open nowhere: renamed under its lock (another process's session, closed).
        third = await opened_session(other, tmp_path / "ws")
        await other.request("session/close", {"sessionId": third})
        reply, _ = await agent.request("_tether/session/rename", {"sessionId": third, "title": "T"})
        assert reply["result"] == {"title": "T"}
        reply, _ = await agent.request("session/list", {})
        titles = {s["sessionId"]: s.get("title") for s in reply["result"]["sessions"]}
        assert titles[gone] == "Release notes" and titles[third] == "T"
        await agent.request("session/delete", {"sessionId": third})

        reply, _ = await other.request("session/delete", {"sessionId": kept})
        error = error_of(reply)
        assert error["code"] == -32603
        assert "already open in another tether process" in error["message"]

        reply, _ = await agent.request("session/delete", {"sessionId": gone})
        assert reply["result"] == {}
        assert not (home / "sessions" / f"{gone}.jsonl").exists()
        reply, _ = await agent.request("session/list", {})
        assert [s["sessionId"] for s in reply["result"]["sessions"]] == [kept]
        reply, _ = await agent.request("session/prompt", prompt_params(gone, "again"))
        assert error_of(reply)["code"] == -32002
        reply, _ = await other.request("session/delete", {"sessionId": gone})
        assert error_of(reply) == {
            "code": -32602,
            "message": f"Session not found: {gone} (nothing to delete)",
            "data": {"sessionId": gone},
        }
    finally:
        assert await agent.close() == 0
        assert await other.close() == 0


async def test_the_sandbox_option_confines_the_next_command(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    write = {"command": "echo new > a.txt && echo wrote"}
    turns = [
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": write}]},
        {"text": "done"},
        {"toolCalls": [{"id": "c2", "name": "bash", "arguments": write}]},
        {"text": "done"},
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": turns}))
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("old\n")
    agent = await agents.start(tmp_path / "home", "--model", f"script:{script}", "--mode", "auto")
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        sandbox = _options(reply["result"])["sandbox"]
        assert sandbox["currentValue"] == "workspace-write"
        assert [o["value"] for o in sandbox["options"]] == ["workspace-write", "read-only", "off"]

        params = {"sessionId": session_id, "configId": "sandbox", "value": "read-only"}
        reply, _ = await agent.request("session/set_config_option", params)
        assert _options(reply["result"])["sandbox"]["currentValue"] == "read-only"
        _, notes = await agent.request("session/prompt", prompt_params(session_id, "write"))
        [call] = updates_of(notes, "tool_call")
        assert call["_meta"]["tether"]["view"]["sandbox"] == "sandbox: read-only, no network"
        final = updates_of(notes, "tool_call_update")[-1]
        assert "Read-only file system" in final["_meta"]["tether"]["view"]["output"]
        assert (workspace / "a.txt").read_text() == "old\n"

        params = {"sessionId": session_id, "configId": "sandbox", "value": "workspace-write"}
        await agent.request("session/set_config_option", params)
        _, notes = await agent.request("session/prompt", prompt_params(session_id, "again"))
        [call] = updates_of(notes, "tool_call")
        assert call["_meta"]["tether"]["view"]["sandbox"] == "sandbox: workspace-write, no network"
        assert (workspace / "a.txt").read_text() == "new\n"
    finally:
        assert await agent.close() == 0
