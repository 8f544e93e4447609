"""Raw arguments too deeply nested to decode are an error result and a generic card, not a crash."""

from __future__ import annotations

import pytest

from tether.tools import ToolResult
from tether.tools.fs.read import ReadTool
from tether.tools.invoke import parse_arguments
from tether.tools.present import call_view
from tether.views import GenericCallView

DEEP = [
    "[" * 100_000 + "]" * 100_000,
    '{"path": ' + "[" * 100_000 + "]" * 100_000 + "}",
]


@pytest.mark.parametrize("raw", DEEP)
def test_deeply_nested_arguments_are_an_error_result(raw: str) -> None:
    result = parse_arguments(ReadTool(), raw)
    assert isinstance(result, ToolResult)
    assert result.is_error
    assert result.text() == "Arguments for read are nested too deeply to decode"


@pytest.mark.parametrize("raw", DEEP)
def test_deeply_nested_arguments_get_the_generic_card_with_the_raw_text(raw: str) -> None:
    view = call_view("read", raw, None, None)
    assert view == GenericCallView(title="read", kind="other", raw_input=raw)
