"""Thinking in a session: logged as it streams, shown apart, replayed as it was shown live,
sent back to the model that thought it, and asked for by the setting and the prompt's words."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

from tests.session.helpers import EchoTool, Recorder, Sessions, call, log_lines, script, text
from tether.models import Thinking, ThinkingDelta
from tether.models.base import ModelEvent, ModelRequest
from tether.models.thinking import prompt_level, raised
from tether.session import SessionConfig, SessionStore
from tether.session.replay import replay
from tether.session.updates import AgentText, AgentThought, ThoughtFinished
from tether.tools import ToolRegistry


def _thinking_script() -> object:
    return script(
        {
            "thinking": "The user wants an echo. I will call it.",
            "text": "Echoing.",
            "toolCalls": [call("c1", "echo", {"text": "hi"})],
        },
        {"thinking": "It worked.", "text": "Done."},
    )


async def test_a_thought_is_logged_shown_apart_and_replayed_as_live(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = _thinking_script()
    session = sessions.new(ws, model, [EchoTool()])
    recorder = Recorder()
    assert await session.prompt(text("echo hi"), recorder) == "end_turn"
    live = recorder.without_progress()

    kinds = [u.kind for u in live]
    first_thought = kinds.index("agent_thought")
    # The thought streams first, is closed before the text, and each reply has its own.
    assert kinds[first_thought : first_thought + 4] == [
        "agent_thought",
        "agent_thought",
        "agent_thought",
        "thought_finished",
    ]
    assert kinds.count("thought_finished") == 2
    assert kinds.index("thought_finished") < kinds.index("agent_text")
    thoughts = "".join(u.text for u in live if isinstance(u, AgentThought))
    assert thoughts == "The user wants an echo. I will call it.It worked."
    assert all(u.duration_ms >= 0 for u in live if isinstance(u, ThoughtFinished))
    assert "".join(u.text for u in live if isinstance(u, AgentText)) == "Echoing.Done."

    assert session.replay() == live
    stored = SessionStore(home).read(session.id)
    assert replay(stored.events, ToolRegistry([EchoTool()]), stored.header.cwd) == live

    lines = log_lines(session, home)
    chunks = [line["text"] for line in lines if line.get("type") == "assistant/thinking"]
    assert "".join(chunks) == thoughts
    messages = [line for line in lines if line.get("type") == "assistant/message"]
    assert messages[0]["thinking"] == [
        {
            "type": "thinking",
            "text": "The user wants an echo. I will call it.",
            "signature": "script",
            "source": model.name,
        }
    ]


async def test_the_thought_goes_back_to_the_model_with_its_signature(
    ws: Path, sessions: Sessions
) -> None:
    model = _thinking_script()
    session = sessions.new(ws, model, [EchoTool()])
    await session.prompt(text("echo hi"), Recorder())

    reply = model.requests[1].messages[1]
    assert reply.thinking == (  # type: ignore[union-attr]
        Thinking("The user wants an echo. I will call it.", signature="script", source=model.name),
    )


async def test_the_prompt_words_raise_the_level_for_that_prompt_only(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = script({"text": "a"}, {"text": "b"}, {"text": "c"}, {"text": "d"})
    session = sessions.new(ws, model, [])
    await session.prompt(text("ultrathink about the cache"), Recorder())
    await session.prompt(text("now the tests"), Recorder())
    session.set_thinking("medium")
    await session.prompt(text("go on"), Recorder())
    await session.prompt(text("think about it"), Recorder())  # `think` asks less: medium stays

    assert [r.thinking for r in model.requests] == ["high", "off", "medium", "medium"]
    session.close()
    # The choice is logged: the session keeps it when loaded.
    config = SessionConfig(model=script(), tools=ToolRegistry([]), mode="auto")
    assert sessions.load(session.id, config).thinking == "medium"


def test_claude_codes_words_and_their_levels() -> None:
    assert prompt_level("Think about the schema") == "low"
    assert prompt_level("please think hard here") == "medium"
    assert prompt_level("think harder, then write") == "medium"
    assert prompt_level("megathink") == "medium"
    assert prompt_level("ULTRATHINK: the race") == "high"
    assert prompt_level("think really hard") == "high"
    # Whole words only: `rethink`, `thinking` and `overthinks` ask for nothing.
    assert prompt_level("rethink the thinking; it overthinks") == "off"
    assert raised("high", "think") == "high"
    assert raised("off", "") == "off"


class _StallsWhileThinking:
    """Thinks one piece, then waits far longer than any test (to be cancelled)."""

    name = "stalls"

    def __init__(self) -> None:
        self.thinking = asyncio.Event()

    async def aclose(self) -> None:
        """Nothing to close."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        yield ThinkingDelta("hmm")
        self.thinking.set()
        await asyncio.sleep(3600)
        raise AssertionError("not cancelled")


async def test_a_thought_cut_by_cancel_is_closed_live_as_on_replay(
    ws: Path, sessions: Sessions
) -> None:
    model = _StallsWhileThinking()
    session = sessions.new(ws, model, [])
    recorder = Recorder()
    task = asyncio.create_task(session.prompt(text("go"), recorder))
    await model.thinking.wait()
    session.cancel()
    assert await task == "cancelled"

    live = recorder.without_progress()
    assert [u.kind for u in live].count("thought_finished") == 1
    assert session.replay() == live


async def test_an_agent_thinks_as_hard_as_its_parent_and_its_log_says_so(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    from tether.models.script import ScriptModel
    from tether.tools.defaults import default_tools

    turns = [
        {"toolCalls": [call("t1", "task", {"description": "look", "prompt": "Look around."})]},
        {"text": "Done."},
    ]
    tasks = {"t1": {"turns": [{"text": "Nothing to see."}]}}
    model = ScriptModel.from_json(json.dumps({"turns": turns, "tasks": tasks}))
    session = sessions.new(ws, model, default_tools(), thinking="low")
    session.set_thinking("medium")  # as `/thinking medium` does
    await session.prompt(text("go"), Recorder())

    def configs(session_id: str) -> list[tuple[str, str]]:
        lines = (home / "sessions" / f"{session_id}.jsonl").read_text().splitlines()
        events = [json.loads(line) for line in lines]
        return [(e["configId"], e["value"]) for e in events if e["type"] == "session/config"]

    # `--thinking low` is in the parent's log from its start, then the switch; its agent
    # thinks at the level the parent had when it started it.
    assert configs(session.id) == [("thinking", "low"), ("thinking", "medium")]
    [child] = [s for s in SessionStore(home).list_sessions() if s.parent is not None]
    assert configs(child.id) == [("thinking", "medium")]
