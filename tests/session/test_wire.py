"""Updates as camelCase JSON: every kind, live-only ones included, in its exact wire form."""

from __future__ import annotations

from typing import Any

import pytest

from tether.content import ImageContent, TextContent
from tether.session.log.shown import EmbeddedResource, ResourceLink
from tether.session.updates import (
    CLIENT_UPDATE,
    AgentText,
    ClientUpdate,
    ContextCompacted,
    TitleChanged,
    ToolCallFinished,
    ToolCallPartial,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    UsageChanged,
    UserImage,
    UserResource,
    UserText,
)
from tether.tools.result import ToolResult
from tether.views import GenericCallView, TerminalCallView, TerminalResultView

RESULT = ToolResult(
    content=(TextContent(text="out"), ImageContent(data="AA==", mime_type="image/png")),
    meta={"exitCode": 0, "nested": [1, None, "ü"]},
)

CASES: list[tuple[ClientUpdate, dict[str, Any]]] = [
    (UserText(text="hi"), {"kind": "user_text", "text": "hi"}),
    (
        UserImage(data="AA==", mime_type="image/png"),
        {"kind": "user_image", "data": "AA==", "mimeType": "image/png"},
    ),
    (
        UserResource(block=ResourceLink(uri="file:///a.py", name="a.py")),
        {
            "kind": "user_resource",
            "block": {"type": "resource_link", "uri": "file:///a.py", "name": "a.py"},
        },
    ),
    (
        UserResource(
            block=EmbeddedResource(uri="file:///b.md", mime_type="text/markdown", text="#")
        ),
        {
            "kind": "user_resource",
            "block": {
                "type": "resource",
                "uri": "file:///b.md",
                "mimeType": "text/markdown",
                "text": "#",
            },
        },
    ),
    (AgentText(text="ok"), {"kind": "agent_text", "text": "ok"}),
    (
        ToolCallStarted(
            tool_call_id="c1",
            name="bash",
            arguments='{"command": "ls"}',
            view=TerminalCallView(title="ls", cwd="/w"),
        ),
        {
            "kind": "tool_call_started",
            "toolCallId": "c1",
            "name": "bash",
            "rawInput": {"command": "ls"},
            "view": {"card": "terminal", "title": "ls", "cwd": "/w"},
        },
    ),
    (
        ToolCallStarted(
            tool_call_id="c2",
            name="read",
            arguments='{"path": ',
            view=GenericCallView(title="read", kind="other", raw_input='{"path": '),
        ),
        {
            "kind": "tool_call_started",
            "toolCallId": "c2",
            "name": "read",
            "rawInput": '{"path": ',
            "view": {"card": "generic", "title": "read", "kind": "other", "rawInput": '{"path": '},
        },
    ),
    (
        ToolCallPartial(tool_call_id="c1", view=TerminalResultView(output="partial")),
        {
            "kind": "tool_call_progress",
            "toolCallId": "c1",
            "view": {"card": "terminal", "output": "partial"},
        },
    ),
    (
        ToolCallFinished(
            tool_call_id="c1",
            status="completed",
            view=TerminalResultView(output="out", exit_code=0),
            result=RESULT,
        ),
        {
            "kind": "tool_call_finished",
            "toolCallId": "c1",
            "status": "completed",
            "view": {"card": "terminal", "output": "out", "exitCode": 0},
            "result": {
                "content": [
                    {"type": "text", "text": "out"},
                    {"type": "image", "data": "AA==", "mimeType": "image/png"},
                ],
                "isError": False,
                "meta": {"exitCode": 0, "nested": [1, None, "ü"]},
            },
        },
    ),
    (
        ToolCallFinished(
            tool_call_id="c3",
            status="failed",
            view=TerminalResultView(),
            result=ToolResult.error("no one to ask"),
            permission="refused",
        ),
        {
            "kind": "tool_call_finished",
            "toolCallId": "c3",
            "status": "failed",
            "view": {"card": "terminal"},
            "result": {
                "content": [{"type": "text", "text": "no one to ask"}],
                "isError": True,
                "meta": None,
            },
            "permission": "refused",
        },
    ),
    (TitleChanged(title="T"), {"kind": "title_changed", "title": "T"}),
    (TurnEnded(stop_reason="cancelled"), {"kind": "turn_ended", "stopReason": "cancelled"}),
    (TurnFailed(message="boom"), {"kind": "turn_failed", "message": "boom"}),
    (
        UsageChanged(used=23_100, size=128_000),
        {"kind": "usage_changed", "used": 23_100, "size": 128_000},
    ),
    (
        ContextCompacted(method="summary", before_tokens=104_000, after_tokens=9_800),
        {
            "kind": "context_compacted",
            "method": "summary",
            "beforeTokens": 104_000,
            "afterTokens": 9_800,
            "text": "context compacted by summary: 104k → 9.8k tokens",
        },
    ),
]


@pytest.mark.parametrize(("update", "expected"), CASES, ids=lambda c: getattr(c, "kind", ""))
def test_each_update_kind_has_its_wire_form(update: ClientUpdate, expected: dict[str, Any]) -> None:
    dumped = CLIENT_UPDATE.dump_python(update, mode="json", by_alias=True)
    assert dumped == expected
    # Key order is part of the printed form (`tether show --json`).
    assert list(dumped) == list(expected)
