"""Over ACP: an unsandboxed hook whose script a sandboxed command planted is asked about with
what changed, and runs only if the person allows it (the agent in process, the SDK's client
over in-memory streams)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from acp import PROTOCOL_VERSION, text_block
from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse

from tests.acp.memory import InMemoryAgents
from tether.sandbox.bwrap import find_bwrap

HOOK = "cd h && ./check.sh"


class Person:
    """A client that answers every permission request with `option`, keeping each request."""

    def __init__(self, option: str | None) -> None:
        self.option = option
        self.requests: list[tuple[Any, list[Any]]] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        """Updates are not what this test looks at."""

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        """Answer as told."""
        self.requests.append((tool_call, list(options)))
        if self.option is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.option)
        )


@pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")
@pytest.mark.parametrize("option", ["allow_once", None])
async def test_a_planted_hook_script_is_asked_about_over_acp(
    tmp_path: Path, option: str | None, agents: InMemoryAgents
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    marker = tmp_path / "marker"
    home = tmp_path / "home"
    home.mkdir()
    hook = {"type": "command", "command": HOOK, "sandbox": False}
    (home / "settings.json").write_text(
        json.dumps(
            {
                "permissions": {"defaultMode": "auto"},
                "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [hook]}]},
            }
        )
    )
    plant = (
        f"mkdir -p h && printf '#!/bin/sh\\necho ran > {marker}\\n' > h/check.sh "
        "&& chmod +x h/check.sh"
    )
    model = tmp_path / "model.json"
    turns = [
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": plant}}]},
        {"text": "done"},
    ]
    model.write_text(json.dumps({"turns": turns}))
    person = Person(option)
    async with agents.connect(person, home, "--model", f"script:{model}") as (conn, _agent):
        await conn.initialize(protocol_version=PROTOCOL_VERSION)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
        assert reply.stop_reason == "end_turn"
    # The sandboxed call planted the script; before the hook ran, the person was asked.
    [(tool_call, options)] = person.requests
    assert tool_call.title == HOOK
    reason = tool_call.field_meta["tether"]["reason"]
    assert "the PostToolUse hook" in reason and "runs outside the sandbox" in reason
    assert f"{workspace / 'h/check.sh'}: appeared" in reason
    # An editor that shows no `_meta` still shows what changed: it is the request's content.
    assert tool_call.content[0].content.text == reason
    assert [o.option_id for o in options] == ["allow_once", "reject_once"]
    assert marker.exists() == (option == "allow_once")
