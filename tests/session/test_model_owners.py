"""Who builds a model closes it: the models a session builds for itself (a `task` child's
agent model, a slash command's) close once they have answered, and the session's own model
stays open for its next prompt. A loopback server speaking OpenAI's chat completions counts
the connections the models hold."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.models.sse_server import Received, Reply, SSEServer, sse_reply
from tests.models.support import collect
from tests.polling import eventually
from tests.session.helpers import Recorder, Sessions, call, text
from tether.content import TextContent
from tether.models.base import Completed, Model, ModelRequest
from tether.models.messages import UserMessage
from tether.models.openai_compat import OpenAICompatModel
from tether.models.script import ScriptModel
from tether.providers import OPENAI
from tether.session.owned_models import OwnedModels
from tether.tools.defaults import default_tools

HELLO = ModelRequest(system="", messages=(UserMessage((TextContent(text="hi"),)),), tools=())


def _completion(received: Received) -> Reply:
    """A chat completion, `[DONE]` and all: read to its end, its connection goes back to the
    pool, kept alive."""
    return sse_reply("openai_text.sse")


def _task_call(received: Received) -> Reply:
    """The parent's first answer: one `task` call (for the general agent, on its model)."""
    arguments = json.dumps({"description": "look", "prompt": "Look around."})
    call = {"index": 0, "id": "t1", "type": "function"}
    chunks = [
        {"tool_calls": [{**call, "function": {"name": "task", "arguments": arguments}}]},
        {},
    ]
    events = []
    for n, delta in enumerate(chunks):
        finish = "tool_calls" if n == len(chunks) - 1 else None
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        events.append(b"data: " + json.dumps({"choices": [choice]}).encode() + b"\n\n")
    return replace(_completion(received), chunks=tuple(events))


@pytest.fixture
async def server() -> AsyncIterator[SSEServer]:
    async with SSEServer() as served:
        served.answer = _completion
        yield served


def _endpoint_model(server: SSEServer, name: str) -> OpenAICompatModel:
    return OpenAICompatModel(OPENAI.resolve(f"{server.url}/v1", "sk-test", environ={}), model=name)


async def test_a_childs_own_model_closes_when_the_child_ends(
    sessions: Sessions, ws: Path, server: SSEServer
) -> None:
    agents = ws / ".tether" / "agents"
    agents.mkdir(parents=True)
    (agents / "elsewhere.md").write_text(
        "---\ndescription: Elsewhere\nmodel: script:helper\n---\nYou are elsewhere.\n"
    )
    arguments = {"description": "away", "prompt": "Anything.", "agent": "elsewhere"}
    parent = ScriptModel.from_json(
        json.dumps({"turns": [{"toolCalls": [call("t1", "task", arguments)]}, {"text": "done"}]})
    )
    built: list[Model] = []

    def models(spec: str) -> Model:
        # The agent's `script:helper`, built at the loopback endpoint.
        built.append(_endpoint_model(server, "helper"))
        return built[-1]

    session = sessions.new(ws, parent, default_tools(), models=models)
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    assert len(built) == 1
    assert [r.json()["model"] for r in server.requests] == ["helper"]
    await eventually(lambda: server.open_connections == 0, "the child's model closed")
    await session.aclose()


async def test_a_prompts_own_model_closes_after_it_and_the_sessions_stays(
    sessions: Sessions, ws: Path, server: SSEServer
) -> None:
    own = _endpoint_model(server, "own")
    session = sessions.new(ws, own, default_tools())
    assert await session.prompt(text("first"), Recorder()) == "end_turn"
    await eventually(lambda: server.open_connections == 1, "the session's connection")

    # A slash command's `model` answers one prompt on a pool of its own.
    command = _endpoint_model(server, "command")
    assert await session.prompt(text("second"), Recorder(), model=command) == "end_turn"
    assert [r.json()["model"] for r in server.requests] == ["own", "command"]
    await eventually(lambda: server.open_connections == 1, "the command's model closed")
    assert session.model is own

    assert await session.prompt(text("third"), Recorder()) == "end_turn"
    await session.aclose()
    await eventually(lambda: server.open_connections == 0, "the session's model closed")
    # Closed twice is closed once.
    await own.aclose()


async def test_a_child_on_its_parents_model_leaves_it_to_the_parent(
    sessions: Sessions, ws: Path, server: SSEServer
) -> None:
    answers = iter([_task_call, _completion, _completion])

    def answer(received: Received) -> Reply:
        return next(answers)(received)

    server.answer = answer
    own = _endpoint_model(server, "own")
    session = sessions.new(ws, own, default_tools())
    assert await session.prompt(text("go"), Recorder()) == "end_turn"
    # The parent, its child, the parent again: one connection, kept alive throughout (a child
    # that closed the model it shares would have made the parent open another).
    assert len(server.requests) == 3
    assert server.accepted == 1
    assert server.open_connections == 1
    await session.aclose()
    await eventually(lambda: server.open_connections == 0, "the parent's model closed")


async def test_a_lasting_model_closes_only_at_the_end(server: SSEServer) -> None:
    first, pages, second = (_endpoint_model(server, name) for name in ("a", "pages", "b"))
    owned = OwnedModels(first, lasting=pages)
    for model in (first, pages):
        assert isinstance((await collect(model, HELLO))[-1], Completed)
    await eventually(lambda: server.open_connections == 2, "both connections kept alive")

    # A switch to `second` closes `first`; the pages' model (`webFetch.model`) stays.
    owned.adopt(second)
    await owned.drop(second)
    await eventually(lambda: server.open_connections == 1, "the model left closed")
    assert isinstance((await collect(pages, HELLO))[-1], Completed)
    assert server.accepted == 2  # the pages' model went on on its connection
    await owned.aclose()
    await eventually(lambda: server.open_connections == 0, "every model closed")
