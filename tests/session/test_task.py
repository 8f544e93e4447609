"""The `task` tool end to end: a scripted parent whose calls run scripted child sessions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from tests.policy.support import Always
from tests.polling import eventually
from tests.processes import processes_with, unique_marker
from tests.session.helpers import Recorder, Sessions, call, log_lines, text
from tether.content import ContentBlock, TextContent
from tether.errors import ToolError
from tether.models.factory import make_model
from tether.models.script import ScriptModel
from tether.policy import DelegatedAccess
from tether.session import SessionConfig, SessionStore, ToolCallFinished, ToolCallPartial
from tether.session.replay import replay
from tether.session.usage import usage_report
from tether.tools import Tool, ToolContext
from tether.tools.card_context import CardContext
from tether.tools.defaults import default_tools
from tether.tools.delegate import TokenUsage
from tether.views import GenericCallView, TaskResultView, ToolCallView


def parent_script(turns: list[dict[str, Any]], tasks: dict[str, Any]) -> ScriptModel:
    """A parent's script whose `task` calls run the child scripts in `tasks` (by call id)."""
    return ScriptModel.from_json(json.dumps({"turns": turns, "tasks": tasks}))


def task(call_id: str, description: str, prompt: str, agent: str | None = None) -> dict[str, Any]:
    """One scripted `task` call."""
    arguments = {"description": description, "prompt": prompt}
    if agent is not None:
        arguments["agent"] = agent
    return call(call_id, "task", arguments)


def finished(recorder: Recorder, call_id: str) -> ToolCallFinished:
    """The finished update of one call."""
    return next(
        u for u in recorder.updates if isinstance(u, ToolCallFinished) and u.tool_call_id == call_id
    )


def card(recorder: Recorder, call_id: str) -> TaskResultView:
    """The task card a call finished with."""
    view = finished(recorder, call_id).view
    assert isinstance(view, TaskResultView), view
    return view


def child_log(home: Path, session_id: str) -> list[dict[str, Any]]:
    """A child session's log, parsed line by line."""
    path = home / "sessions" / f"{session_id}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_a_childs_report_reaches_the_parent_model_and_its_card(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    (ws / "retry.py").write_text("def retry(times):\n    return times\n")
    model = parent_script(
        [
            {"toolCalls": [task("t1", "find retry", "Where is retry defined?", "explore")]},
            {"text": "Retry lives in retry.py."},
        ],
        {
            "t1": {
                "turns": [
                    {
                        "toolCalls": [call("g", "grep", {"pattern": "def retry"})],
                        "usage": {"inputTokens": 1000, "outputTokens": 50},
                    },
                    {
                        "toolCalls": [call("r", "read", {"path": "retry.py"})],
                        "usage": {"inputTokens": 1200, "outputTokens": 40, "cachedReadTokens": 900},
                    },
                    {
                        "text": "retry.py:1 defines `retry(times)`.",
                        "usage": {"inputTokens": 1500, "outputTokens": 30},
                    },
                ]
            }
        },
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    assert await session.prompt(text("where is retry?"), recorder) == "end_turn"

    # The model got the child's final message as the call's result, and nothing else of it.
    result = model.requests[1].messages[-1]
    assert [b.text for b in result.content if isinstance(b, TextContent)] == [
        "retry.py:1 defines `retry(times)`.\n\n(The explore agent finished after 2 tool calls.)"
    ]
    view = card(recorder, "t1")
    assert view.agent == "explore"
    assert view.description == "find retry"
    assert view.summary == "retry.py:1 defines `retry(times)`."
    assert view.tool_calls == 2
    assert view.stop_reason == "end_turn"
    assert view.tokens == 1000 + 50 + 1200 + 40 + 1500 + 30

    # While it ran, the parent's call showed what the child was doing, and its count.
    steps = [
        (u.view.activity, u.view.tool_calls)
        for u in recorder.updates
        if isinstance(u, ToolCallPartial) and isinstance(u.view, TaskResultView)
    ]
    assert ("Grep def retry", 1) in steps
    assert ("Read retry.py", 2) in steps
    assert steps[-1] == ("writing", 2)

    # The child is a session of its own, linked to its parent's call, titled by its task.
    lines = child_log(home, view.session_id)
    assert lines[0]["parent"] == {"id": session.id, "callId": "t1"}
    assert lines[1] == {**lines[1], "type": "session/title", "title": "explore: find retry"}
    assert [e["type"] for e in lines].count("model/usage") == 3
    listed = {s.id: s for s in SessionStore(home).list_sessions()}
    parent_link = listed[view.session_id].parent
    assert parent_link is not None and parent_link.id == session.id

    # Replay of the parent reproduces every card, the task card included.
    assert session.replay() == recorder.without_progress()
    stored = SessionStore(home).read(session.id)
    assert replay(stored.events, default_tools(), stored.header.cwd) == recorder.without_progress()

    # Usage: the child's tokens are in its log, and the parent's report counts them by agent.
    report = usage_report(session.events)
    assert report.own == TokenUsage()
    assert report.agents == {"explore": TokenUsage(3700, 120, 900, 0)}
    assert report.total.total == view.tokens


async def test_the_child_is_told_its_role_and_gets_only_its_agents_tools(
    ws: Path, sessions: Sessions, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = parent_script(
        [{"toolCalls": [task("t1", "look", "Look around.", "explore")]}],
        {"t1": {"turns": [{"text": "nothing here"}]}},
    )
    # Keep the child's model (the script's player for that call) to see what it was sent.
    children: list[ScriptModel] = []
    for_task = ScriptModel.for_task

    def keeping(self: ScriptModel, call_id: str) -> ScriptModel:
        children.append(for_task(self, call_id))
        return children[-1]

    monkeypatch.setattr(ScriptModel, "for_task", keeping)
    session = sessions.new(ws, model, default_tools())
    await session.prompt(text("go"), Recorder())
    request = children[0].requests[0]
    assert "You were started by another agent" in request.system
    assert "You are explore, a read-only agent" in request.system
    assert [t.name for t in request.tools] == ["read", "grep", "glob", "bash", "web_fetch"]
    # The parent's model was told which agents it can start.
    parent_tools = {t.name: t for t in model.requests[0].tools}
    assert "- explore: A fast read-only agent" in parent_tools["task"].description
    assert "- general: A general-purpose agent" in parent_tools["task"].description


class MeetArgs(BaseModel):
    """Arguments of `meet`."""

    who: str


class MeetTool(Tool[MeetArgs, str]):
    """Waits until `size` calls are inside at once, then lets every call through.

    Calls that run one after another never all meet: the first waits for the others until
    the deadline and fails, saying so.
    """

    name: ClassVar[str] = "meet"
    description: ClassVar[str] = "Wait for the others."
    args_model: ClassVar[type[BaseModel]] = MeetArgs

    def __init__(self, size: int) -> None:
        self.size = size
        self.inside = 0
        self.most = 0
        self.met = asyncio.Event()

    async def execute(self, args: MeetArgs, ctx: ToolContext) -> str:
        self.inside += 1
        self.most = max(self.most, self.inside)
        if self.inside >= self.size:
            self.met.set()
        try:
            await asyncio.wait_for(self.met.wait(), 60)
        except TimeoutError:
            raise ToolError(f"{args.who} waited alone") from None
        finally:
            await asyncio.sleep(0.05)  # stay inside a moment: later calls would see the crowd
            self.inside -= 1
        return f"{args.who} met"

    def render(self, args: MeetArgs, value: str) -> list[ContentBlock]:
        return [TextContent(text=value)]

    def present_call(self, args: MeetArgs, context: CardContext) -> ToolCallView:
        return GenericCallView(title=f"meet {args.who}")


async def test_task_calls_of_one_message_run_at_once_four_at_most(
    ws: Path, sessions: Sessions
) -> None:
    names = ["a", "b", "c", "d", "e", "f"]
    model = parent_script(
        [{"toolCalls": [task(f"t{n}", f"job {n}", "Meet the others.") for n in names]}],
        {
            f"t{n}": {
                "turns": [{"toolCalls": [call(f"m{n}", "meet", {"who": n})]}, {"text": f"{n} ok"}]
            }
            for n in names
        },
    )
    meet = MeetTool(size=4)
    tools = default_tools()
    tools.add(meet)
    session = sessions.new(ws, model, tools)
    recorder = Recorder()
    assert await session.prompt(text("go"), recorder) == "end_turn"
    # Four children were inside at once (so they ran together), never five.
    assert meet.most == 4
    for n in names:
        assert card(recorder, f"t{n}").summary == f"{n} ok"
    # Those past the fourth said they were waiting for a slot.
    waiting = {
        u.tool_call_id
        for u in recorder.updates
        if isinstance(u, ToolCallPartial)
        and isinstance(u.view, TaskResultView)
        and u.view.activity == "waiting for a free slot"
    }
    assert len(waiting) >= 2


async def test_explore_cannot_write_files_nor_start_agents(ws: Path, sessions: Sessions) -> None:
    model = parent_script(
        [{"toolCalls": [task("t1", "try to write", "Write a file.", "explore")]}],
        {
            "t1": {
                "turns": [
                    {
                        "toolCalls": [
                            call("w", "write", {"path": "new.txt", "content": "x"}),
                            call("b", "bash", {"command": "touch made-by-bash"}),
                            call("u", "bash", {"command": "touch x", "unsandboxed": True}),
                            task("t2", "nested", "go deeper"),
                        ]
                    },
                    {"text": "I could not write anything."},
                ]
            }
        },
    )
    session = sessions.new(ws, model, default_tools(), mode="auto")
    recorder = Recorder()
    assert await session.prompt(text("go"), recorder) == "end_turn"
    assert card(recorder, "t1").summary == "I could not write anything."
    assert not (ws / "new.txt").exists()
    assert not (ws / "made-by-bash").exists()
    assert not (ws / "x").exists()
    results = {
        e.tool_call_id: e
        for e in SessionStore(sessions.store.root).read(card(recorder, "t1").session_id).events
        if e.type == "tool/result"
    }
    assert results["w"].is_error
    assert "Unknown tool: write" in results["w"].content[0].text  # type: ignore[union-attr]
    assert "Read-only file system" in results["b"].content[0].text  # type: ignore[union-attr]
    assert results["u"].is_error
    assert "this agent is read-only" in results["u"].content[0].text  # type: ignore[union-attr]
    assert "Unknown tool: task" in results["t2"].content[0].text  # type: ignore[union-attr]


async def test_a_failing_child_is_an_error_result_with_its_card(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = parent_script(
        [
            {
                "toolCalls": [
                    task("t1", "doomed", "Try."),
                    task("t2", "fine", "Say hi."),
                    task("t3", "nobody", "Anyone?", "no-such-agent"),
                ]
            },
            {"text": "One failed."},
        ],
        {
            "t1": {
                "turns": [
                    {"text": "Looking first.", "toolCalls": [call("l", "glob", {"pattern": "*"})]},
                    {"error": "the provider is down"},
                ]
            },
            "t2": {"turns": [{"text": "hi"}]},
        },
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    assert await session.prompt(text("go"), recorder) == "end_turn"
    failed = finished(recorder, "t1")
    assert failed.status == "failed"
    assert failed.result.is_error
    assert failed.result.text() == (
        "The general agent failed: the provider is down\n\nIts last message:\nLooking first."
    )
    view = card(recorder, "t1")
    assert (view.stop_reason, view.error, view.tool_calls) == ("error", "the provider is down", 1)
    lines = child_log(home, view.session_id)
    assert lines[-1]["type"] == "turn/end"
    assert lines[-1]["stopReason"] == "error"
    # The other child was not affected, and the model heard about both.
    assert card(recorder, "t2").summary == "hi"
    unknown = finished(recorder, "t3")
    assert unknown.result.text() == (
        "Unknown agent: 'no-such-agent'. Available agents: general, explore, plan"
    )
    assert session.replay() == recorder.without_progress()


async def test_cancelling_the_parent_stops_the_child_and_its_command(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    marker = unique_marker("tether-task-cancel")
    model = parent_script(
        [{"toolCalls": [task("t1", "wait", "Run the long command.")]}],
        {
            "t1": {
                "turns": [{"toolCalls": [call("b", "bash", {"command": f"sleep 600 #{marker}"})]}]
            }
        },
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    running = asyncio.create_task(session.prompt(text("go"), recorder))
    await eventually(lambda: processes_with(marker), "the child's command started")
    session.cancel()
    assert await running == "cancelled"
    assert processes_with(marker) == []  # nothing the child started is left
    failed = finished(recorder, "t1")
    assert failed.status == "failed"
    assert failed.result.text() == "The general agent was cancelled before it finished."
    view = card(recorder, "t1")
    assert view.stop_reason == "cancelled"
    child = child_log(home, view.session_id)
    assert child[-1]["type"] == "turn/end" and child[-1]["stopReason"] == "cancelled"
    command = next(e for e in child if e["type"] == "tool/result" and e["toolCallId"] == "b")
    assert command["meta"]["cancelled"] is True
    assert [e["type"] for e in log_lines(session, home)][-1] == "turn/end"
    # The child's log is closed: the next prompt of the parent works.
    session.model = ScriptModel.from_json('{"turns": [{"text": "ok"}]}')
    assert await session.prompt(text("again"), Recorder()) == "end_turn"


async def test_a_child_asks_through_its_parents_asker_naming_the_agent(
    tmp_path: Path, ws: Path, sessions: Sessions
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("secret\n")
    model = parent_script(
        [{"toolCalls": [task("t1", "peek", "Read the file outside.", "explore")]}],
        {
            "t1": {
                "turns": [
                    {"toolCalls": [call("r", "read", {"path": str(outside)})]},
                    {"text": "It says secret."},
                ]
            }
        },
    )
    asker = Always()
    session = sessions.create(
        ws, SessionConfig(model=model, tools=default_tools(), mode="accept-edits", asker=asker)
    )
    recorder = Recorder()
    assert await session.prompt(text("go"), recorder) == "end_turn"
    [question] = asker.requests
    assert question.title == f"explore › Read {outside}"
    subject = question.subject
    assert isinstance(subject, DelegatedAccess)
    assert subject.tool_call_id == "t1"  # shown beside the parent's task card
    assert isinstance(subject.view, GenericCallView) and subject.view.title == f"Read {outside}"
    assert question.reason == "it is outside the workspace"
    assert card(recorder, "t1").summary == "It says secret."
    # The answer is in the child's log, as a parent's own would be in the parent's.
    child = SessionStore(sessions.store.root).read(card(recorder, "t1").session_id)
    result = next(e for e in child.events if e.type == "tool/result")
    assert result.permission == "allow_once"  # type: ignore[union-attr]


async def test_custom_agents_from_files_run_with_their_own_tools_and_scripts(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    agents = ws / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Task\n"
        "model: script:reviewer.json\n---\nYou review code.\n"
    )
    # The agent's own script (beside its file) plays its turns; its `tasks` script its child.
    (agents / "reviewer.json").write_text(
        json.dumps(
            {
                "turns": [
                    {"toolCalls": [task("g1", "dig", "Dig deeper.")]},
                    {"text": "Reviewed: the helper found it."},
                ],
                "tasks": {
                    "g1": {
                        "turns": [
                            {"toolCalls": [task("g2", "deeper", "Even deeper.")]},
                            {"text": "found it"},
                        ]
                    }
                },
            }
        )
    )
    (home / "agents").mkdir(parents=True)
    (home / "agents" / "lister.md").write_text(
        "---\ndescription: Lists files\ntools: glob\n---\nYou list files.\n"
    )
    (ws / ".tether" / "agents").mkdir(parents=True)
    (ws / ".tether" / "agents" / "broken.md").write_text("---\ndescription: x\n")
    (ws / ".tether" / "agents" / "elsewhere.md").write_text(
        "---\ndescription: Elsewhere\nmodel: openai:gpt-5.5\n---\nYou are elsewhere.\n"
    )
    model = parent_script(
        [
            {
                "toolCalls": [
                    task("t1", "review", "Review a.py.", "reviewer"),
                    task("t2", "list", "List the files.", "lister"),
                    task("t3", "broken", "Anything.", "broken"),
                    task("t4", "away", "Anything.", "elsewhere"),
                ]
            },
            {"text": "done"},
        ],
        {"t2": {"turns": [{"toolCalls": [call("r", "read", {"path": "a.py"})]}, {"text": "ok"}]}},
    )
    # Agents' models are built as the session's own are (here: any script).
    session = sessions.new(ws, model, default_tools(), models=make_model)
    recorder = Recorder()
    assert await session.prompt(text("go"), recorder) == "end_turn"

    review = card(recorder, "t1")
    assert (review.agent, review.summary) == ("reviewer", "Reviewed: the helper found it.")
    store = SessionStore(home)
    child = store.read(review.session_id)
    # Naming `task` let the reviewer start an agent; that agent (general) could not go on.
    grandchild_call = next(e for e in child.events if e.type == "tool/result")
    grandchild_id = grandchild_call.meta["sessionId"]  # type: ignore[union-attr,index,call-overload]
    grandchild = store.read(grandchild_id)
    assert grandchild.header.parent is not None
    assert (grandchild.header.parent.id, grandchild.header.parent.call_id) == (
        child.header.id,
        "g1",
    )
    refused = next(e for e in grandchild.events if e.type == "tool/result")
    assert "Unknown tool: task" in refused.content[0].text  # type: ignore[union-attr]

    # The user's agent has only `glob`: its read was refused.
    listing = store.read(card(recorder, "t2").session_id)
    read = next(e for e in listing.events if e.type == "tool/result")
    assert "Unknown tool: read. Available tools: glob" in read.content[0].text  # type: ignore[union-attr]

    broken = finished(recorder, "t3").result.text()
    assert broken.startswith("The agent 'broken' is not available: ")
    assert "broken.md: the front matter is not closed" in broken
    away = finished(recorder, "t4").result.text()
    assert "asks for the model openai:gpt-5.5, but this session's provider is script" in away
    # The usage report names each agent that ran.
    assert set(usage_report(session.events).agents) == {"reviewer", "lister"}


async def test_switching_the_parents_mode_switches_its_running_child(
    ws: Path, sessions: Sessions
) -> None:
    model = parent_script(
        [{"toolCalls": [task("t1", "edit", "Write the file.")]}],
        {
            "t1": {
                "turns": [
                    {"toolCalls": [call("m", "meet", {"who": "child"})]},
                    {"toolCalls": [call("w", "write", {"path": "out.txt", "content": "x\n"})]},
                    {"text": "written"},
                ]
            }
        },
    )
    meet = MeetTool(size=2)
    tools = default_tools()
    tools.add(meet)
    # No one to ask: in ask mode the child's write would be refused.
    session = sessions.new(ws, model, tools, mode="ask")
    running = asyncio.create_task(session.prompt(text("go"), Recorder()))
    await eventually(lambda: meet.inside == 1, "the child is at its first call")
    session.set_mode("accept-edits")
    meet.met.set()
    assert await running == "end_turn"
    assert (ws / "out.txt").read_text() == "x\n"


async def test_explore_runs_no_command_when_the_sandbox_cannot_start(
    ws: Path, sessions: Sessions, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without a sandbox, ask mode would run a command unsandboxed once a person allows it:
    # a read-only agent refuses instead, and asks no one.
    monkeypatch.setenv("TETHER_BWRAP", "/bin/false")
    model = parent_script(
        [{"toolCalls": [task("t1", "count", "Count the files.", "explore")]}],
        {"t1": {"turns": [{"toolCalls": [call("b", "bash", {"command": "touch x"})]}, {}]}},
    )
    asker = Always()
    session = sessions.create(
        ws, SessionConfig(model=model, tools=default_tools(), mode="ask", asker=asker)
    )
    recorder = Recorder()
    await session.prompt(text("go"), recorder)
    assert asker.requests == []
    child = SessionStore(sessions.store.root).read(card(recorder, "t1").session_id)
    result = next(e for e in child.events if e.type == "tool/result")
    assert result.is_error  # type: ignore[union-attr]
    assert "the read-only sandbox cannot start" in result.content[0].text  # type: ignore[union-attr]
    assert not (ws / "x").exists()


async def test_a_cancel_reaches_running_and_waiting_children_alike(
    ws: Path, sessions: Sessions
) -> None:
    names = ["a", "b", "c", "d", "e"]
    model = parent_script(
        [{"toolCalls": [task(f"t{n}", f"job {n}", "Wait.") for n in names]}],
        {f"t{n}": {"turns": [{"toolCalls": [call(f"m{n}", "meet", {"who": n})]}]} for n in names},
    )
    meet = MeetTool(size=99)  # nobody is let through: four wait inside, one for a slot
    tools = default_tools()
    tools.add(meet)
    session = sessions.new(ws, model, tools)
    recorder = Recorder()
    running = asyncio.create_task(session.prompt(text("go"), recorder))
    await eventually(lambda: meet.inside == 4, "four children at their call")
    session.cancel()
    assert await running == "cancelled"
    stops = {n: card(recorder, f"t{n}").stop_reason for n in names}
    assert stops == dict.fromkeys(names, "cancelled")
    assert all(finished(recorder, f"t{n}").status == "failed" for n in names)
    assert session.replay() == recorder.without_progress()
