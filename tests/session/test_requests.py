"""What a session sends, through the real SDKs to loopback servers speaking each provider's wire.

The first request of a session in a fake repository is pinned as a golden file per provider
(the rules, the environment block, the project's instructions, the tool schemas); the
second step must start with the same bytes, and Anthropic's must carry its cache
breakpoints and have the cache reads it reports logged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.gitrepo import git
from tests.golden import check_golden
from tests.models.sse_server import SSEServer, sse_reply
from tests.session.helpers import Recorder, Sessions, log_lines, text
from tests.session.loopback import HOST, model_for
from tether.models.anthropic_cache import MAX_BREAKPOINTS
from tether.sandbox.policy import SandboxPolicy
from tether.session import SessionConfig
from tether.tools.defaults import default_tools

GOLDEN = Path(__file__).parent / "golden"


def fake_repository(ws: Path) -> None:
    """A small project with history, one change and one new file."""
    git("init", "-q", "-b", "main", cwd=ws)
    (ws / "AGENTS.md").write_text("Run the tests with `make test`.\n")
    (ws / "a.py").write_text("def greet():\n    return 'hi'\n")
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "Add the greeting", cwd=ws)
    (ws / "b.py").write_text("".join(f"line_{n} = {n}\n" for n in range(12)))
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "Add b.py", cwd=ws)
    (ws / "a.py").write_text("def greet():\n    return 'hi!'\n")
    (ws / "notes.md").write_text("todo\n")


def pinned(body: dict[str, Any], ws: Path) -> str:
    """A request body as the golden file keeps it: the workspace written `{{cwd}}`."""
    return json.dumps(body, indent=2, ensure_ascii=False).replace(str(ws), "{{cwd}}") + "\n"


def breakpoints(body: dict[str, Any]) -> list[str]:
    """Where a request marks `cache_control`, as paths into its body."""
    found: list[str] = []

    def walk(value: object, where: str) -> None:
        if isinstance(value, dict):
            if "cache_control" in value:
                found.append(where)
            for key, item in value.items():
                walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{where}[{index}]")

    walk(body, "")
    return found


async def two_steps(kind: str, ws: Path, sessions: Sessions, home: Path) -> list[dict[str, Any]]:
    """One prompt on the provider: the model reads two files, then answers; the two request
    bodies, and the log's usage events."""
    fake_repository(ws)
    replies: Sequence[str] = (
        ("openai_text_and_tools.sse", "openai_cached_usage.sse")
        if kind == "openai"
        else ("anthropic_text_and_tools.sse", "anthropic_cached.sse")
    )
    async with SSEServer() as server:
        server.queue(*(sse_reply(name) for name in replies))
        model = model_for(kind, server)
        tools = default_tools(SandboxPolicy("workspace-write"))
        session = sessions.create(ws, SessionConfig(model=model, tools=tools, host=HOST))
        try:
            assert await session.prompt(text("Look at a.py and b.py"), Recorder()) == "end_turn"
        finally:
            await model.aclose()
    bodies: list[dict[str, Any]] = [received.json() for received in server.requests]
    assert len(bodies) == 2
    usage = [e for e in log_lines(session, home) if e["type"] == "model/usage"]
    return [*bodies, {"usage": usage}]


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_the_first_request_is_pinned_and_the_second_starts_with_its_bytes(
    kind: str, ws: Path, sessions: Sessions, home: Path
) -> None:
    first, second, logged = await two_steps(kind, ws, sessions, home)
    check_golden(GOLDEN / f"request-{kind}.json", pinned(first, ws))
    if kind == "openai":
        system = first["messages"][0]
        assert system["role"] == "system"
        assert second["messages"][: len(first["messages"])] == first["messages"]
        assert second["tools"] == first["tools"]
        assert logged["usage"][-1]["cachedReadTokens"] == 2048
        return
    # Anthropic: the same system and tools, and the first request's conversation, marks
    # included, is the start of the second's.
    assert second["system"] == first["system"] and second["tools"] == first["tools"]
    assert second["messages"][: len(first["messages"])] == first["messages"]
    assert sorted(breakpoints(first)) == [".messages[0].content[0]", ".system[0]", ".tools[13]"]
    assert sorted(breakpoints(second)) == [
        ".messages[0].content[0]",
        ".messages[2].content[1]",
        ".system[0]",
        ".tools[13]",
    ]
    assert len(breakpoints(second)) <= MAX_BREAKPOINTS
    assert len(second["tools"]) == 14
    # The second reply reported what the cache read and wrote; the log keeps it, and
    # inputTokens counts the whole prompt.
    assert logged["usage"][-1] == {
        **logged["usage"][-1],
        "inputTokens": 12 + 2048 + 300,
        "cachedReadTokens": 2048,
        "cachedWriteTokens": 300,
    }
