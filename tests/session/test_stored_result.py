"""A stored result made from its event's fields is the result `ToolResult` itself makes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.content import ImageContent, TextContent
from tether.session.calls import stored_result
from tether.session.log.events import ToolResultEvent
from tether.tools.result import TOOL_RESULT, ToolResult

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
BLOCKS = st.lists(
    st.builds(TextContent, text=st.text(max_size=5))
    | st.builds(ImageContent, data=st.just("aGk="), mime_type=st.just("image/png")),
    max_size=3,
).map(tuple)


@given(content=BLOCKS, is_error=st.booleans(), meta=JSON)
def test_a_stored_result_is_the_one_its_class_makes(
    content: tuple[Any, ...], is_error: bool, meta: Any
) -> None:
    event = ToolResultEvent(tool_call_id="c1", content=content, is_error=is_error, meta=meta)
    made = stored_result(event)
    built = ToolResult(content=event.content, is_error=event.is_error, meta=event.meta)
    assert type(made) is ToolResult
    # Every field, in the class's order, holding the event's own objects (nothing copied).
    assert list(vars(made)) == [field.name for field in dataclasses.fields(ToolResult)]
    assert made.content is event.content and made.meta is event.meta
    assert made == built and repr(made) == repr(built)
    assert TOOL_RESULT.dump_json(made) == TOOL_RESULT.dump_json(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.is_error = not is_error  # type: ignore[misc]
