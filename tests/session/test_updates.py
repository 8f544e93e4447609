"""The updates a replay makes by setting their slots are the ones their classes make."""

from __future__ import annotations

from dataclasses import fields

import pytest

from tether.content import TextContent
from tether.session.updates import (
    CLIENT_UPDATE,
    AgentText,
    ToolCallFinished,
    ToolCallStarted,
    agent_text,
    call_finished,
    call_started,
)
from tether.tools.result import ToolResult
from tether.views import GenericCallView, GenericResultView

CALL = GenericCallView(title="Read a.py", kind="read", raw_input={"path": "a.py"})
RESULT = ToolResult(content=(TextContent(text="one"),), is_error=False, meta={"lines": []})


@pytest.mark.parametrize(
    ("made", "built"),
    [
        (agent_text("a chunk"), AgentText(text="a chunk")),
        (
            call_started("c1", "read", '{"path": "a.py"}', {"path": "a.py"}, CALL),
            ToolCallStarted(
                tool_call_id="c1", name="read", arguments='{"path": "a.py"}', view=CALL
            ),
        ),
        (
            call_finished("c1", "failed", GenericResultView(content="one"), RESULT, "allow_once"),
            ToolCallFinished(
                tool_call_id="c1",
                status="failed",
                view=GenericResultView(content="one"),
                result=RESULT,
                permission="allow_once",
            ),
        ),
        (
            call_finished("c2", "completed", GenericResultView(), RESULT, None),
            ToolCallFinished(
                tool_call_id="c2", status="completed", view=GenericResultView(), result=RESULT
            ),
        ),
    ],
)
def test_an_update_made_by_its_slots_is_the_one_its_class_makes(
    made: object, built: object
) -> None:
    assert type(made) is type(built)
    assert [getattr(made, field.name) for field in fields(built)] == [  # type: ignore[arg-type]
        getattr(built, field.name)
        for field in fields(built)  # type: ignore[arg-type]
    ]
    assert made == built and repr(made) == repr(built)
    assert CLIENT_UPDATE.dump_json(made) == CLIENT_UPDATE.dump_json(built)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):  # as frozen as the class makes it
        made.kind = "other"  # type: ignore[attr-defined]
