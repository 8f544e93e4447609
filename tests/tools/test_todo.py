"""The `todo` tool: the whole list each time, a checklist card, the plan narrowed from meta."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tether.tools.card_context import CardContext
from tether.tools.result import ToolResult
from tether.tools.todo import TodoArgs, TodoTool, checklist, todos_from_meta
from tether.views import GenericResultView

TODOS = {
    "todos": [
        {"content": "Write the parser", "status": "completed"},
        {"content": "Test it", "status": "in_progress", "priority": "high"},
        {"content": "Document it", "status": "pending", "priority": "low"},
        {"content": "Rewrite the lexer", "status": "cancelled"},
    ]
}


async def test_the_list_is_the_result_and_the_card_a_checklist() -> None:
    tool = TodoTool()
    args = TodoArgs.model_validate(TODOS)
    value = await tool.execute(args, None)  # type: ignore[arg-type]  # touches nothing
    [block] = tool.render(args, value)
    assert block.text == (  # type: ignore[union-attr]
        "Plan updated: 4 tasks, 1 completed, 1 in progress, 1 pending, 1 cancelled.\n"
        "[x] Write the parser\n[~] Test it (high)\n[ ] Document it (low)\n[-] Rewrite the lexer"
    )
    meta = tool.presentation_meta(args, value)
    assert meta == TODOS
    result = ToolResult(content=(block,), meta=meta)
    assert tool.present_result(args, result, CardContext()) == GenericResultView(
        title="Plan",
        content="[x] Write the parser\n[~] Test it (high)\n[ ] Document it (low)\n"
        "[-] Rewrite the lexer",
    )
    assert tool.present_call(args, CardContext()).title == "Update the plan"
    assert tool.present_result(args, ToolResult.error("no"), CardContext()) is None
    assert checklist([]) == "(no tasks)"


def test_bad_lists_are_refused_and_bad_meta_is_no_plan() -> None:
    with pytest.raises(ValidationError):
        TodoArgs.model_validate({"todos": [{"content": "x", "status": "done"}]})
    with pytest.raises(ValidationError):
        TodoArgs.model_validate({"todos": [{"content": "", "status": "pending"}]})
    assert todos_from_meta(None) is None
    assert todos_from_meta({"todos": "x"}) is None
    assert todos_from_meta({"todos": [{"content": "x"}]}) is None
    plan = todos_from_meta(TODOS)
    assert plan is not None
    assert [t.status for t in plan] == ["completed", "in_progress", "pending", "cancelled"]
