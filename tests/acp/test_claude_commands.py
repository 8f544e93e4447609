"""Claude Code's command files over ACP: advertised with their namespace, and a prompt's
`` !`cmd` `` line run through the `bash` tool as a tool call the client sees, before the
prompt (the client's own answer decides, as for the model's commands)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.acp.memory import InMemoryAgents
from tests.acp.support import prompt_params, script_spec, updates_of


async def test_a_namespaced_command_runs_its_shell_line_as_a_tool_call(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    folder = workspace / ".claude" / "commands" / "git"
    folder.mkdir(parents=True)
    (folder / "branch.md").write_text(
        "---\ndescription: Say the branch\n---\nThe branch: !`echo topic-$1`. Explain it.\n"
    )
    model = script_spec(tmp_path, {"text": "explained"})
    agent = await agents.start(home, "--model", model, "--sandbox", "off")
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        advert = await agent.read()
        commands = {c["name"]: c for c in advert["params"]["update"]["availableCommands"]}
        assert commands["git:branch"]["description"] == "Say the branch (project:git)"
        await agent.request("session/set_mode", {"sessionId": session_id, "modeId": "auto"})
        reply, notes = await agent.request(
            "session/prompt", prompt_params(session_id, "/git:branch 42")
        )
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    [started] = updates_of(notes, "tool_call")
    assert started["title"] == "echo topic-42"
    finished = updates_of(notes, "tool_call_update")[-1]
    assert finished["status"] == "completed"
    kinds = [n["params"]["update"]["sessionUpdate"] for n in notes]
    # The command's card comes before the model's answer.
    assert kinds.index("tool_call") < kinds.index("agent_message_chunk")
    events = [
        json.loads(line)
        for line in (home / "sessions" / f"{session_id}.jsonl").read_text().splitlines()
    ]
    [said] = [e for e in events if e["type"] == "user/message"]
    assert said["content"] == [{"type": "text", "text": "The branch: topic-42. Explain it."}]
    assert said["shown"] == [{"type": "text", "text": "/git:branch 42"}]


async def test_agents_lists_the_agents_and_what_their_files_say_that_is_unused(
    tmp_path: Path, agents: InMemoryAgents
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    agent_file = workspace / ".claude" / "agents" / "review" / "checker.md"
    agent_file.parent.mkdir(parents=True)
    agent_file.write_text(
        "---\nname: checker\ndescription: Checks things\ntools: Read, SlashCommand\n"
        "permissionMode: plan\ncolor: cyan\n---\nCheck.\n"
    )
    model = script_spec(tmp_path, {"text": "never asked"})
    agent = await agents.start(home, "--model", model)
    await agent.initialize()
    try:
        reply, _ = await agent.request("session/new", {"cwd": str(workspace), "mcpServers": []})
        session_id = reply["result"]["sessionId"]
        reply, notes = await agent.request("session/prompt", prompt_params(session_id, "/agents"))
        assert reply["result"] == {"stopReason": "end_turn"}
    finally:
        assert await agent.close() == 0
    text = "".join(u["content"]["text"] for u in updates_of(notes, "agent_message_chunk"))
    assert "  checker  (.claude/agents/review/checker.md, cyan)\n    Checks things\n" in text
    assert "    tools: read\n" in text
    assert (
        f"  {agent_file}:4: `tools` names 'SlashCommand', which no tether tool answers to; "
        "left out\n"
    ) in text
    assert f"  {agent_file}:5: `permissionMode` is not supported" in text
