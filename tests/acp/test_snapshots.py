"""ACP snapshot fixtures: `tether acp`'s agent, in process over in-memory streams, against
golden stdout and session logs.

`TETHER_SNAPSHOT=refresh` rewrites the expected files; the default compares. Every fixture
is also loaded again in a second agent, which must replay the same cards and text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.acp.memory import InMemoryAgents
from tests.acp.snapshots import checked_on_load, dump_lines, replayable, run_fixture
from tests.acp.wire import Message
from tests.conftest import REPO
from tests.golden import check_golden

FIXTURES = REPO / "tests" / "snapshots" / "acp"
NAMES = sorted(p.name for p in FIXTURES.iterdir() if (p / "client.jsonl").is_file())


@pytest.mark.parametrize("name", NAMES)
async def test_fixture(name: str, tmp_path: Path, agents: InMemoryAgents) -> None:
    fixture = FIXTURES / name
    run = await run_fixture(agents, fixture, tmp_path)

    check_golden(fixture / "stdout.expected.jsonl", dump_lines(run.stdout))
    check_golden(
        fixture / "session.expected.jsonl", "".join(line + "\n" for line in run.session_log)
    )

    # session/load in another agent shows the same cards and text as the live run...
    assert checked_on_load(run.loaded_updates) == checked_on_load(run.live_updates)
    # ...indeed every update the live run sent, in the same order (but live progress)...
    assert replayable(run.loaded_updates) == replayable(run.live_updates)
    # ...and the person's own prompts, which a live client already had.
    replayed = [
        u["content"]["text"]
        for u in run.loaded_updates
        if u["sessionUpdate"] == "user_message_chunk" and u["content"]["type"] == "text"
    ]
    assert replayed == run.prompts

    # Whatever a permission request showed a call as (a child's step on a `task` call), the
    # call ends with the kind it was announced with.
    announced, seen = _kinds(run.stdout)
    assert {call: seen[call] for call in announced} == announced

    # A notice starts a paragraph of its own, so no client glues it to the model's last words.
    for update in run.live_updates:
        if update["sessionUpdate"] == "agent_message_chunk" and "_meta" in update:
            assert update["content"]["text"].startswith("\n\n"), update


def _kinds(stdout: list[Message]) -> tuple[dict[str, str], dict[str, str]]:
    """Each call's kind as its `tool_call` announced it, and the last kind a client was told."""
    announced: dict[str, str] = {}
    seen: dict[str, str] = {}
    for message in stdout:
        params = message.get("params", {})
        if message.get("method") == "session/request_permission":
            call = params["toolCall"]
        elif message.get("method") == "session/update":
            call = params["update"]
        else:
            continue
        if call.get("sessionUpdate") == "tool_call":
            announced[call["toolCallId"]] = call.get("kind", "other")
        if "kind" in call and "toolCallId" in call:
            seen[call["toolCallId"]] = call["kind"]
    return announced, seen


def test_every_fixture_is_complete() -> None:
    assert len(NAMES) >= 9
    for name in NAMES:
        for part in ("script.json", "client.jsonl"):
            assert (FIXTURES / name / part).is_file(), f"{name} lacks {part}"
        json.loads((FIXTURES / name / "script.json").read_text())
