"""A call's arguments are validated and dumped as pydantic's own `model_validate` and
`model_dump` do it, though their validator and serializer are called directly."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from tether.errors import ArgumentsError
from tether.tools import Tool, ToolResult
from tether.tools.arguments import Alias, canonical
from tether.tools.card_context import CardContext
from tether.tools.defaults import default_tools
from tether.tools.fs.read import ReadArgs, ReadTool
from tether.tools.invocation import _describe, parse_arguments
from tether.views import GenericCallView


def _tools() -> dict[str, Tool[Any, Any]]:
    """Every default tool, made."""
    registry, tools = default_tools(), {}
    for name in registry.names():
        tool = registry.get(name)
        assert tool is not None
        tools[name] = tool
    return tools


TOOLS = _tools()
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 700_000)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["", " ", "ls", "a.py", "2", "true", "default"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A tool's name and arguments for it: its own names, its aliases and others, any values."""
    name = draw(st.sampled_from(sorted(TOOLS)))
    tool = TOOLS[name]
    names = [*tool.args_model.model_fields, *(a.name for a in tool.aliases), "other"]
    keys = draw(st.lists(st.sampled_from(names), unique=True, max_size=5))
    return name, {key: draw(VALUES) for key in keys}


def reference(name: str, raw: str) -> BaseModel | str:
    """What `model_validate` makes of the arguments (or the error text said for them)."""
    tool = TOOLS[name]
    try:
        return tool.args_model.model_validate(canonical(json.loads(raw), tool.aliases), strict=True)
    except ArgumentsError as exc:
        return f"Invalid arguments for {name}:\n- {exc}"
    except ValidationError as exc:
        return f"Invalid arguments for {name}:\n{_describe(exc, tool.parameters_schema())}"


@settings(max_examples=200, deadline=None)
@given(calls())
def test_arguments_are_validated_as_model_validate_validates_them(
    call: tuple[str, dict[str, Any]],
) -> None:
    name, arguments = call
    raw = json.dumps(arguments)
    made, expected = parse_arguments(TOOLS[name], raw), reference(name, raw)
    if isinstance(expected, str):
        assert isinstance(made, ToolResult) and made.is_error and made.text() == expected
    else:
        assert type(made) is type(expected)
        assert isinstance(made, BaseModel)
        assert made == expected and made.model_fields_set == expected.model_fields_set


def test_a_strict_type_and_an_alias_are_kept() -> None:
    # Called directly, the validator still refuses "2" for a number and reads an alias.
    read = TOOLS["read"]
    assert isinstance(parse_arguments(read, '{"path": "a.py", "offset": "2"}'), ToolResult)
    assert any(isinstance(alias, Alias) for alias in read.aliases)
    made = parse_arguments(read, '{"file_path": "a.py", "offset": 2}')
    assert isinstance(made, ReadArgs) and (made.path, made.offset) == ("a.py", 2)


@given(
    path=st.text(max_size=8),
    offset=st.none() | st.integers(1, 10**6),
    limit=st.none() | st.integers(1, 10**6),
)
def test_a_read_cards_input_is_the_arguments_given(
    path: str, offset: int | None, limit: int | None
) -> None:
    given_arguments = {"path": path, "offset": offset, "limit": limit}
    args = ReadArgs.model_validate({k: v for k, v in given_arguments.items() if v is not None})
    card = ReadTool().present_call(args, CardContext())
    assert isinstance(card, GenericCallView)
    expected = args.model_dump(exclude_unset=True)
    assert card.raw_input == expected and list(card.raw_input) == list(expected)
