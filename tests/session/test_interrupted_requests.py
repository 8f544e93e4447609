"""After a turn that ended early, the next request keeps the prompts apart and says why.

Each scenario runs a session on a provider's real SDK against a loopback server speaking its
wire: the first prompt is cut short (a cancel mid-stream, a connection lost mid-stream, a
server that keeps failing, a cancel and `-c`), then a second prompt is sent. The messages of
that second request are pinned per provider and scenario as golden JSON: the two prompts
stay separate blocks (or, in a chat-completions string, paragraphs), what the model had
streamed stays its own words, and one line says the turn was interrupted and where.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden import check_golden
from tests.models.sse_server import SSEServer, json_reply, sse_reply
from tests.polling import eventually
from tests.session.helpers import Recorder, Sessions, text
from tests.session.loopback import HOST, model_for
from tether.content import context_block
from tether.errors import PromptFailed
from tether.session import AgentText, Session, SessionConfig
from tether.tools import ToolRegistry

GOLDEN = Path(__file__).parent / "golden" / "interrupted"
HELD = {"openai": 3, "anthropic": 4}
"""Events of `KIND_long_text.sse` that carry its first two words, `word0 word1 `."""


def conversation(kind: str, body: dict[str, Any], ws: Path, server: str) -> str:
    """A request's conversation as the golden file keeps it (the system prompt left out;
    the workspace written `{{cwd}}`, the server's address `{{server}}`)."""
    messages = body["messages"]
    if kind == "openai":
        messages = [m for m in messages if m["role"] != "system"]
    shown = json.dumps(messages, indent=2, ensure_ascii=False)
    return shown.replace(str(ws), "{{cwd}}").replace(server, "{{server}}") + "\n"


async def cancelled_mid_stream(
    kind: str, server: SSEServer, sessions: Sessions, config: SessionConfig, ws: Path
) -> Session:
    """A session whose first prompt streamed two words, then was cancelled (Esc)."""
    server.queue(sse_reply(f"{kind}_long_text.sse", hold_after=HELD[kind]))
    session = sessions.create(ws, config)
    recorder = Recorder()
    task = asyncio.create_task(session.prompt(text("slow prompt to interrupt"), recorder))

    def streamed() -> str:
        return "".join(u.text for u in recorder.updates if isinstance(u, AgentText))

    # The provider's SDK is imported on the first request: on a loaded machine that alone
    # can take ten seconds (measured 9.5 s at load 13), so the request is waited for apart.
    await eventually(lambda: server.requests, "the first request", within=120)
    # Both words the server sends before it holds the stream, so the cut is always the same.
    await eventually(lambda: streamed() == "word0 word1 ", "the reply's first two words")
    session.cancel()
    assert await asyncio.wait_for(task, 10) == "cancelled"
    return session


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("scenario", ["esc", "broken-stream", "server-error", "continue"])
async def test_the_request_after_an_early_end_keeps_prompts_apart(
    kind: str, scenario: str, ws: Path, sessions: Sessions
) -> None:
    async with SSEServer() as server:
        address = server.url
        model = model_for(kind, server)
        config = SessionConfig(model=model, tools=ToolRegistry(()), host=HOST, mode="auto")
        try:
            if scenario in ("esc", "continue"):
                session = await cancelled_mid_stream(kind, server, sessions, config, ws)
                if scenario == "continue":
                    # `tether -c`: the session is closed, then loaded again from its log.
                    session.close()
                    session = sessions.load(session.id, config)
            else:
                if scenario == "broken-stream":
                    # Two words, then the connection drops: not retried once text was shown.
                    server.queue(sse_reply(f"{kind}_long_text.sse", cut_after=HELD[kind]))
                    prompt = "stream then break"
                else:
                    server.queue(*(json_reply(500, {"error": "overloaded"}),) * 4)
                    prompt = "fail at once"
                session = sessions.create(ws, config)
                with pytest.raises(PromptFailed):
                    await session.prompt(text(prompt), Recorder())
            server.queue(sse_reply(f"{kind}_text.sse"))
            # A prompt with an `@file` attached, as the terminal sends it.
            attached = context_block((ws / "notes.md").as_uri(), "todo\n")
            said = [*text("after the break please @notes.md"), attached]
            assert await session.prompt(said, Recorder()) == "end_turn"
        finally:
            await model.aclose()
    last = server.requests[-1].json()
    check_golden(GOLDEN / f"{scenario}-{kind}.json", conversation(kind, last, ws, address))
