"""Raw arguments as cards show them: JSON when it decodes, the text when it cannot travel."""

from __future__ import annotations

import json

import pytest

from tether.session.updates import CLIENT_UPDATE, ToolCallStarted
from tether.tools.present import MAX_RAW_INPUT_DEPTH, raw_input
from tether.views import GenericCallView, dump_view


def nested(depth: int) -> str:
    return '{"path": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def test_arguments_that_decode_are_json() -> None:
    assert raw_input('{"path": "a.py", "offset": [1, 2]}') == {"path": "a.py", "offset": [1, 2]}
    assert raw_input(nested(MAX_RAW_INPUT_DEPTH)) == json.loads(nested(MAX_RAW_INPUT_DEPTH))


def test_text_that_is_not_json_stays_text() -> None:
    assert raw_input('{"path": "a.py"') == '{"path": "a.py"'
    assert raw_input("[" * 100_000) == "[" * 100_000


def test_arguments_nested_too_deeply_to_carry_stay_text() -> None:
    # Deep enough to decode, too deep for the serializers that carry cards to clients.
    for depth in (MAX_RAW_INPUT_DEPTH + 1, 400, 900):
        text = nested(depth)
        assert raw_input(text) == text
        view = GenericCallView(title="read", kind="other", raw_input=raw_input(text))
        assert dump_view(view)["rawInput"] == text
        started = ToolCallStarted(tool_call_id="c1", name="read", arguments=text, view=view)
        assert CLIENT_UPDATE.dump_python(started, mode="json", by_alias=True)["rawInput"] == text


def depth_of(value: object) -> int:
    """How many arrays and objects nest at the deepest point of `value`."""
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


@pytest.mark.parametrize("depth", [MAX_RAW_INPUT_DEPTH - 1, MAX_RAW_INPUT_DEPTH, 65, 66])
@pytest.mark.parametrize("brackets_in_strings", [0, 1, 80])
def test_the_depth_limit_holds_whatever_brackets_strings_hold(
    depth: int, brackets_in_strings: int
) -> None:
    # Text with few openers is taken without a walk: brackets inside strings must neither
    # hide a value too deep nor make a shallow one text.
    value: object = "[{" * brackets_in_strings
    for level in range(depth):
        value = {"k": value, "s": "{"} if level % 2 else [value, "]"]
    text = json.dumps(value)
    assert depth_of(value) == depth
    assert raw_input(text) == (text if depth > MAX_RAW_INPUT_DEPTH else value)
