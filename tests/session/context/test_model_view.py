"""The model's view kept as the log grows is the view made from the whole log, at every length,
and the budget's count of it is the count of the whole request.

`ModelView` reads each event once; `model_view` reads them all. Over logs made of prompts,
replies with calls, results in any order, hooks (one blocking its prompt), restores,
interrupted turns and compactions, both agree after every event.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from tether.content import TextContent
from tether.models.base import ModelRequest
from tether.models.messages import ToolSpec
from tether.session.context.budget import Budget, request_chars
from tether.session.context.compaction import ModelView, model_view
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    CompactionEvent,
    Event,
    HookRunEvent,
    ToolCallEvent,
    ToolCallRecord,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)
from tether.session.log.workspace_events import RestoreEvent


def _stub(call: ToolCallEvent, result: ToolResultEvent) -> str:
    return f"[pruned {call.name} {result.tool_call_id}]"


def _text(words: str) -> tuple[TextContent, ...]:
    return (TextContent(text=words),)


def _turn(number: int, calls: int, ending: str, hook: str | None) -> list[Event]:
    """One prompt: its words, a hook maybe, replies with `calls` calls each, then its end."""
    events: list[Event] = [TurnStart(), UserMessageEvent(content=_text(f"prompt {number}"))]
    if hook is not None:
        events.append(
            HookRunEvent(
                event="UserPromptSubmit",
                command="./guard.sh",
                source="settings",
                duration_ms=3,
                decision="block" if hook == "block" else None,
                context="remember the style guide" if hook == "context" else None,
            )
        )
    ids = [f"c{number}_{n}" for n in range(calls)]
    events.append(AssistantChunk(text="Looking"))
    records = tuple(ToolCallRecord(id=i, name="read", arguments='{"path": "a.py"}') for i in ids)
    events.append(AssistantMessageEvent(text=f"reply {number}", tool_calls=records))
    events += [ToolCallEvent(tool_call_id=i, name="read", arguments="{}") for i in ids]
    results = [
        ToolResultEvent(tool_call_id=i, content=_text("x" * 300 + f" result of {i}")) for i in ids
    ]
    events += list(reversed(results)) if number % 2 else results
    if ending == "end_turn":
        events.append(AssistantMessageEvent(text=f"done {number}"))
    else:
        events.append(AssistantChunk(text="half a sent"))
    events.append(TurnEnd(stop_reason=ending))  # type: ignore[arg-type]
    return events


_TURNS = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from(["end_turn", "cancelled", "error"]),
        st.sampled_from([None, None, "block", "context"]),
        st.sampled_from([None, None, None, "prune", "summary", "restore"]),
    ),
    min_size=1,
    max_size=7,
)


def _log(turns: list[tuple[int, str, str | None, str | None]]) -> list[Event]:
    events: list[Event] = []
    for number, (calls, ending, hook, after) in enumerate(turns):
        events += _turn(number, calls, ending, hook)
        through = len(events)
        if after in ("prune", "summary"):
            events.append(
                CompactionEvent(
                    method=after,  # type: ignore[arg-type]
                    before_tokens=900,
                    after_tokens=300,
                    through_seq=through,
                    summary="what happened so far" if after == "summary" else None,
                )
            )
        elif after == "restore":
            events.append(
                RestoreEvent(action="undo", prompt=number, before="t0", tree="t1", restored=("a",))
            )
    return [dataclasses.replace(event, seq=n) for n, event in enumerate(events, 1)]


@settings(max_examples=150, deadline=None)
@given(_TURNS)
def test_the_view_kept_as_the_log_grows_is_the_view_of_the_whole_log(
    turns: list[tuple[int, str, str | None, str | None]],
) -> None:
    log = _log(turns)
    growing: list[Event] = []
    view = ModelView(_stub)
    for event in log:
        growing.append(event)
        assert view.messages(growing) == model_view(growing, _stub)


def test_another_list_of_events_is_read_from_the_start() -> None:
    first = _log([(1, "end_turn", None, None)])
    second = _log([(2, "cancelled", None, None), (0, "end_turn", None, None)])
    view = ModelView(_stub)
    assert view.messages(first) == model_view(first, _stub)
    assert view.messages(second) == model_view(second, _stub)
    assert view.messages(first[:3]) == model_view(first[:3], _stub)


@settings(max_examples=60, deadline=None)
@given(_TURNS, _TURNS)
def test_the_budget_counts_what_a_whole_count_would(
    turns: list[tuple[int, str, str | None, str | None]],
    other: list[tuple[int, str, str | None, str | None]],
) -> None:
    # Each request of a growing log reuses the count of what it shares with the one before;
    # a request of another conversation in between is counted whole.
    tools = [ToolSpec("read", "Read a file.", {"type": "object"})]
    budget = Budget(window=100_000)
    view = ModelView(_stub)
    growing: list[Event] = []
    stranger = model_view(_log(other), _stub)
    for number, event in enumerate(_log(turns)):
        growing.append(event)
        request = ModelRequest("system", view.messages(growing), tools)
        assert budget.chars(request) == request_chars(request)
        if number % 5 == 4:
            aside = ModelRequest("other", stranger, tools)
            assert budget.chars(aside) == request_chars(aside)
