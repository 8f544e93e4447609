"""The strict decoder every piece of outside JSON goes through."""

from __future__ import annotations

import pytest

from tether.errors import TooDeep
from tether.jsontext import parse_json
from tether.session.updates import ToolCallStarted
from tether.tools.present import raw_input
from tether.views import GenericCallView


def test_plain_json_decodes() -> None:
    assert parse_json('{"a": [1, 2.5, null, true, "\\u00e9"]}') == {"a": [1, 2.5, None, True, "é"]}
    assert parse_json(b"[]") == []


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[" * 1000])
def test_nesting_too_deep_is_a_value_error(text: str) -> None:
    with pytest.raises(TooDeep, match="nested too deeply"):
        parse_json(text)


@pytest.mark.parametrize(
    "text", ["NaN", "[Infinity]", '{"x": -Infinity}', "{", b"\xff", "1" * 5000]
)
def test_what_is_not_json_is_a_value_error(text: str | bytes) -> None:
    with pytest.raises(ValueError):
        parse_json(text)


def test_the_raw_input_of_a_call_never_raises() -> None:
    deep = "[" * 100_000
    assert raw_input(deep) == deep
    assert raw_input("NaN") == "NaN"
    assert raw_input('{"path": "a"}') == {"path": "a"}
    started = ToolCallStarted(
        tool_call_id="c1", name="read", arguments=deep, view=GenericCallView(title="read")
    )
    assert started.raw_input == deep
