"""Replaying the log gives exactly the updates clients saw live, for every tool."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tests.session.helpers import EchoArgs, Recorder, Sessions, call, script, text
from tether.content import ContentBlock, TextContent
from tether.session import SessionStore, ToolCallFinished, ToolCallStarted
from tether.session.context.history import derive_history
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    AssistantThinking,
    Event,
    ToolCallEvent,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UsageEvent,
    UserMessageEvent,
)
from tether.session.log.workspace_events import CommandEvent
from tether.session.notices import CommandAnswered
from tether.session.replay import Replayer, replay, replayed
from tether.session.updates import CLIENT_UPDATE, UserText
from tether.tools import Tool, ToolContext, ToolResult
from tether.tools.card_context import CardContext
from tether.tools.defaults import default_tools
from tether.views import (
    DiffCallView,
    DiffResultView,
    GenericCallView,
    GenericResultView,
    ReadResultView,
    SearchMatchesResultView,
    SearchPathsResultView,
    TerminalCallView,
    TerminalResultView,
    ToolCallView,
    ToolResultView,
)


async def test_live_updates_equal_the_replay_for_every_tool(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    (ws / "app.py").write_text("".join(f"line {i}\n" for i in range(1, 41)))
    model = script(
        {
            "text": "Reading first.",
            "toolCalls": [
                call("read", "read", {"path": "app.py"}),
                call("window", "read", {"path": "app.py", "offset": 10, "limit": 5}),
                call("missing", "read", {"path": "nope.py"}),
            ],
        },
        {
            "toolCalls": [
                call(
                    "edit",
                    "edit",
                    {"path": "app.py", "old_string": "line 7\n", "new_string": "seven\n"},
                ),
                call("new", "write", {"path": "notes/todo.md", "content": "- ship\n"}),
                call(
                    "bad_edit",
                    "edit",
                    {"path": "app.py", "old_string": "absent", "new_string": "x"},
                ),
            ]
        },
        {
            "toolCalls": [
                call(
                    "bash",
                    "bash",
                    {"command": "echo out; echo err >&2; exit 3", "description": "Try"},
                ),
                call("unknown", "lookup", {"pattern": "x"}),
                call("grep", "grep", {"pattern": "line [12]$", "include": "*.py"}),
                call("glob", "glob", {"pattern": "**/*.md"}),
                call("bad_grep", "grep", {"pattern": "line ("}),
                call("badjson", "read", '{"path": "app.py"'),
                call("invalid", "read", {"path": "app.py", "offset": 0}),
            ]
        },
        {"text": "All done."},
    )
    session = sessions.new(ws, model, default_tools())
    recorder = Recorder()
    assert await session.prompt(text("Look around"), recorder) == "end_turn"
    live = recorder.without_progress()
    assert session.replay() == live
    # The same from a fresh read of the file, as `tether show` and `session/load` do it.
    stored = SessionStore(home).read(session.id)
    assert replay(stored.events, default_tools(), stored.header.cwd) == live
    # Streamed one event at a time (`tether show`): the same updates, each as its event is read.
    pulled: list[Event] = []

    def handed(events: list[Event]) -> Iterator[Event]:
        for event in events:
            pulled.append(event)
            yield event

    streamed = replayed(handed(stored.events), default_tools(), stored.header.cwd)
    assert next(streamed) == live[0] and len(pulled) < len(stored.events)
    assert [live[0], *streamed] == live and pulled == stored.events
    wire = [CLIENT_UPDATE.dump_python(u, mode="json", by_alias=True) for u in session.replay()]
    assert wire == [CLIENT_UPDATE.dump_python(u, mode="json", by_alias=True) for u in live]

    started = {u.tool_call_id: u.view for u in live if isinstance(u, ToolCallStarted)}
    done = {u.tool_call_id: u for u in live if isinstance(u, ToolCallFinished)}
    assert isinstance(started["read"], GenericCallView) and started["read"].kind == "read"
    assert isinstance(done["read"].view, ReadResultView)
    window = done["window"].view
    assert isinstance(window, ReadResultView)
    # Replayed, a read card holds the stored result's own list of lines, checked: no copy.
    again = replay(stored.events, default_tools(), stored.header.cwd)
    assert _holds_the_stored_lines(next(u for u in again if _finishes(u, "window")))
    assert (window.offset, [line.number for line in window.lines]) == (10, [10, 11, 12, 13, 14])
    assert done["missing"].status == "failed"
    assert isinstance(started["edit"], DiffCallView)
    assert isinstance(done["edit"].view, DiffResultView)
    assert isinstance(done["new"].view, DiffResultView)
    assert done["bad_edit"].status == "failed"
    assert isinstance(started["bash"], TerminalCallView)
    assert started["bash"].cwd == str(ws.resolve())
    bash = done["bash"].view
    assert isinstance(bash, TerminalResultView)
    assert bash.exit_code == 3 and "out" in (bash.output or "") and "err" in (bash.output or "")
    grep = done["grep"].view
    assert isinstance(grep, SearchMatchesResultView) and grep.total == 2
    assert [(f.path, [m.line_number for m in f.matches]) for f in grep.files] == [
        ("app.py", [1, 2])
    ]
    assert started["grep"] == GenericCallView(
        title="Grep line [12]$ (*.py)",
        kind="search",
        raw_input={"pattern": "line [12]$", "include": "*.py"},
    )
    glob = done["glob"].view
    assert isinstance(glob, SearchPathsResultView) and glob.paths == ("notes/todo.md",)
    assert done["bad_grep"].status == "failed"
    for name in ("unknown", "badjson", "invalid"):
        assert done[name].status == "failed"
        assert isinstance(done[name].view, GenericResultView)
    assert isinstance(started["unknown"], GenericCallView)
    assert started["badjson"] == GenericCallView(
        title="read", kind="other", raw_input='{"path": "app.py"'
    )
    assert (ws / "app.py").read_text().splitlines()[6] == "seven"


class FlakyTool(Tool[EchoArgs, str]):
    """Its presenters raise: cards fall back to generic, the same live and on replay."""

    name: ClassVar[str] = "flaky"
    description: ClassVar[str] = "Presenters that fail."
    args_model: ClassVar[type[BaseModel]] = EchoArgs

    async def execute(self, args: EchoArgs, ctx: ToolContext) -> str:
        return args.text

    def render(self, args: EchoArgs, value: str) -> list[ContentBlock]:
        return [TextContent(text=value)]

    def presentation_meta(self, args: EchoArgs, value: str) -> Any:
        return {"bad": float("nan")}

    def present_call(self, args: EchoArgs, context: CardContext) -> ToolCallView:
        raise RuntimeError("call presenter bug")

    def present_result(
        self, args: EchoArgs, result: ToolResult, context: CardContext
    ) -> ToolResultView | None:
        raise RuntimeError("result presenter bug")


async def test_failing_presenters_and_bad_meta_never_break_live_or_replay(
    ws: Path, sessions: Sessions, caplog: pytest.LogCaptureFixture
) -> None:
    model = script({"toolCalls": [call("f", "flaky", {"text": "hi"})]})
    session = sessions.new(ws, model, [FlakyTool()])
    recorder = Recorder()
    await session.prompt(text("go"), recorder)
    assert session.replay() == recorder.updates
    finished = next(u for u in recorder.updates if isinstance(u, ToolCallFinished))
    assert finished.view == GenericResultView(content="hi")
    assert finished.result.meta is None  # NaN is not plain JSON: dropped, not stored
    assert "present_result of flaky failed" in caplog.text


def _finishes(update: object, call_id: str) -> bool:
    return isinstance(update, ToolCallFinished) and update.tool_call_id == call_id


def _holds_the_stored_lines(update: object) -> bool:
    """Whether a finished read's card holds its stored result's own list of lines."""
    assert isinstance(update, ToolCallFinished) and isinstance(update.view, ReadResultView)
    assert isinstance(update.result.meta, dict)
    return update.view.lines.logged is update.result.meta["lines"]


def test_a_command_comes_back_as_the_persons_message_and_never_reaches_the_model() -> None:
    events = [
        UserMessageEvent(seq=1, content=(TextContent(text="hello"),)),
        CommandEvent(seq=2, text="/rewind", said="prompts of session s\n"),
        CommandEvent(seq=3, text="/fork 1", said="Forked\n", fork="f", prompt=1),
        CommandEvent(seq=4, said="Cannot undo: the restore failed\n"),
    ]
    assert replay(events, default_tools(), None) == [
        UserText(text="hello"),
        UserText(text="/rewind"),
        CommandAnswered(text="prompts of session s\n"),
        UserText(text="/fork 1"),
        CommandAnswered(text="Forked\n", fork="f", prompt=1),
        CommandAnswered(text="Cannot undo: the restore failed\n"),
    ]
    assert "/rewind" not in repr(derive_history(events))


def streamed(kinds: list[str]) -> list[Event]:
    """A log's events of these kinds, a second apart; a `result` finishes the oldest call
    still open (a chunk when none is)."""
    events: list[Event] = []
    open_calls: list[str] = []
    for second, kind in enumerate(kinds):
        time = f"2026-01-02T03:04:{second:02d}.000+00:00"
        match kind:
            case "chunk":
                events.append(AssistantChunk(time=time, text="a"))
            case "thinking":
                events.append(AssistantThinking(time=time, text="b"))
            case "message":
                events.append(AssistantMessageEvent(time=time, text="c"))
            case "start":
                events.append(TurnStart(time=time))
            case "call":
                call_id = f"call_{second}"
                arguments = '{"path": "a.py"}' if second % 2 else '{"path": 3}'
                events.append(
                    ToolCallEvent(time=time, tool_call_id=call_id, name="read", arguments=arguments)
                )
                open_calls.append(call_id)
            case "result" if open_calls:
                content = (TextContent(text="1: x"),)
                events.append(
                    ToolResultEvent(time=time, tool_call_id=open_calls.pop(0), content=content)
                )
            case "usage":
                events.append(UsageEvent(time=time, input_tokens=second, output_tokens=1))
            case "result":
                events.append(AssistantChunk(time=time, text="d"))
            case _:
                events.append(TurnEnd(time=time, stop_reason="end_turn"))
    return events


STREAMED = st.lists(
    st.sampled_from(["chunk", "thinking", "message", "start", "end", "call", "result", "usage"]),
    max_size=14,
).map(streamed)


@settings(max_examples=200, deadline=None)
@given(STREAMED)
@example(streamed(["thinking", "message", "thinking", "message"]))
@example(streamed(["thinking", "call", "thinking", "result", "thinking"]))
@example(streamed(["message", "usage", "call", "usage", "chunk", "usage"]))
def test_a_replay_gives_what_feeding_its_events_one_by_one_gives(events: list[Event]) -> None:
    # A replay takes chunks and messages outside `feed` while no thought runs: a message
    # during a thought must still close it, or the next thought would run on as the same one.
    # Calls and their results are taken outside `feed` too; a usage report counts only after
    # a message, so what was last replayed must be kept on every way.
    fed = Replayer(default_tools(), None, window=1000)
    assert list(replayed(events, default_tools(), None, window=1000)) == [
        *fed.feed(events),
        *fed.end(),
    ]
