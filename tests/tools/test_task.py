"""The `task` tool on its own: arguments, model text, stored meta and the card it presents."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.tools import ToolContext, ToolResult, Workspace, parse_arguments
from tether.tools.card_context import CardContext
from tether.tools.delegate import (
    AgentSummary,
    ChildOutcome,
    ChildProgress,
    ChildRequest,
    TokenUsage,
)
from tether.tools.invocation import invoke
from tether.tools.task import TaskArgs, TaskTool, task_meta_from_meta
from tether.tools.task.tool import MAX_SUMMARY_CHARS
from tether.views import GenericCallView, TaskResultView

ARGS = TaskArgs(description="find it", prompt="Find the thing.", agent="explore")


def outcome(**changes: Any) -> ChildOutcome:
    fields: dict[str, Any] = {
        "agent": "explore",
        "session_id": "child",
        "summary": "It is in a.py:3.",
        "stop_reason": "end_turn",
        "tool_calls": 2,
        "usage": TokenUsage(100, 20, 50),
    }
    fields.update(changes)
    return ChildOutcome(**fields)


class Scripted:
    """A delegate that reports two steps and ends with a given outcome."""

    def __init__(self, ending: ChildOutcome) -> None:
        self.ending = ending
        self.requests: list[ChildRequest] = []

    def agents(self) -> tuple[AgentSummary, ...]:
        return (AgentSummary("explore", "Finds things"),)

    async def run(
        self,
        request: ChildRequest,
        progress: Callable[[ChildProgress], None],
        cancelled: asyncio.Event,
    ) -> ChildOutcome:
        self.requests.append(request)
        progress(ChildProgress("explore", "child", "Read a.py", 1))
        return self.ending


def context(ws: Path, delegate: Scripted | None, reported: list[Any]) -> ToolContext:
    return ToolContext(
        workspace=Workspace.at(ws), report=reported.append, tool_call_id="t1", delegate=delegate
    )


async def test_a_call_runs_its_child_and_reports_its_steps(ws: Path) -> None:
    delegate, reported = Scripted(outcome()), []
    result = await invoke(TaskTool(), ARGS, context(ws, delegate, reported))
    assert delegate.requests == [ChildRequest("explore", "find it", "Find the thing.", "t1")]
    assert result.text() == "It is in a.py:3.\n\n(The explore agent finished after 2 tool calls.)"
    assert not result.is_error
    assert result.meta == {
        "agent": "explore",
        "sessionId": "child",
        "summary": "It is in a.py:3.",
        "toolCalls": 2,
        "stopReason": "end_turn",
        "usage": {"inputTokens": 100, "outputTokens": 20, "cachedReadTokens": 50},
    }
    [live] = reported
    assert live == TaskResultView(
        agent="explore",
        description="find it",
        session_id="child",
        summary="",
        tool_calls=1,
        stop_reason="running",
        activity="Read a.py",
    )
    card = TaskTool().present_result(ARGS, result, CardContext())
    assert card == TaskResultView(
        agent="explore",
        description="find it",
        session_id="child",
        summary="It is in a.py:3.",
        tool_calls=2,
        stop_reason="end_turn",
        tokens=120,
    )


async def test_early_stops_failures_and_long_reports(ws: Path) -> None:
    capped = await invoke(
        TaskTool(), ARGS, context(ws, Scripted(outcome(stop_reason="max_turn_requests")), [])
    )
    assert capped.text().endswith(
        "\n\n(The explore agent stopped before finishing (it reached the step limit)"
        " after 2 tool calls.)"
    )
    empty = await invoke(
        TaskTool(), ARGS, context(ws, Scripted(outcome(summary="", tool_calls=1)), [])
    )
    assert empty.text() == (
        "(The explore agent gave no final message.)\n\n"
        "(The explore agent finished after 1 tool call.)"
    )
    long = await invoke(
        TaskTool(), ARGS, context(ws, Scripted(outcome(summary="x" * (MAX_SUMMARY_CHARS + 7))), [])
    )
    assert "[… 7 more characters of the report were cut]\n\n(The" in long.text()
    failed = await invoke(
        TaskTool(),
        ARGS,
        context(ws, Scripted(outcome(stop_reason="error", error="boom", summary="")), []),
    )
    assert failed.is_error and failed.text() == "The explore agent failed: boom"
    card = TaskTool().present_result(ARGS, failed, CardContext())
    assert card is not None and (card.stop_reason, card.error) == ("error", "boom")


async def test_without_a_delegate_the_model_is_told_why(ws: Path) -> None:
    result = await invoke(TaskTool(), ARGS, context(ws, None, []))
    assert result.is_error
    assert result.text() == "task is not available here: agents cannot start more agents"


def test_arguments_and_cards() -> None:
    described = 'Does   anything. Examples:\n\n<example>\nuser: "do it"\n</example>'
    tool = TaskTool((AgentSummary("general", described),))
    # An agent's description keeps its lines (Claude Code's `<example>` blocks), indented.
    assert (
        "Agents (`agent`):\n- general: Does anything. Examples:\n  <example>\n"
        '  user: "do it"\n  </example>\n'
    ) in tool.describe()
    assert TaskTool().describe() == TaskTool.description
    assert tool.present_call(ARGS, CardContext()) == GenericCallView(
        title="explore: find it", kind="other", content="Find the thing."
    )
    default = parse_arguments(tool, '{"description": "d", "prompt": "p"}')
    assert isinstance(default, TaskArgs) and default.agent_name == "general"
    for bad in ('{"description": " ", "prompt": "p"}', '{"description": "d"}'):
        assert isinstance(parse_arguments(tool, bad), ToolResult)
    too_long = parse_arguments(tool, '{"description": "' + "d" * 121 + '", "prompt": "p"}')
    assert isinstance(too_long, ToolResult) and "at most 120 characters" in too_long.text()
    assert tool.present_result(ARGS, ToolResult.error("Unknown agent"), CardContext()) is None


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c, max_size=8),
        # Small values narrow the same way as huge ones; the shapes near a valid meta are the
        # parametrized cases below.
        max_leaves=20,
    )
)
def test_stored_meta_is_narrowed_and_never_raises(meta: Any) -> None:
    assert task_meta_from_meta(meta) is None or isinstance(meta, dict)


@pytest.mark.parametrize(
    "change",
    [
        {"toolCalls": True},
        {"toolCalls": -1},
        {"stopReason": "done"},
        {"usage": {"inputTokens": 1.0, "outputTokens": 0}},
        {"summary": 3},
        {"sessionId": None},
    ],
)
def test_malformed_meta_falls_back_to_the_generic_card(change: dict[str, Any]) -> None:
    meta = {
        "agent": "explore",
        "sessionId": "child",
        "summary": "s",
        "toolCalls": 1,
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 2},
    }
    assert task_meta_from_meta(meta) is not None
    assert task_meta_from_meta({**meta, **change}) is None
