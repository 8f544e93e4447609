"""Raw arguments: nested too deeply, or of the wrong JSON types, are error results, not crashes."""

from __future__ import annotations

import pytest

from tether.tools import ToolResult
from tether.tools.bash.tool import BashTool
from tether.tools.card_context import CardContext
from tether.tools.fs.edit import EditArgs, EditTool
from tether.tools.fs.read import ReadArgs, ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.invocation import parse_arguments
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
    view = call_view("read", raw, None, None, CardContext())
    assert view == GenericCallView(title="read", kind="other", raw_input=raw)


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ('{"path": "a", "offset": "2"}', "offset"),
        ('{"path": "a", "offset": true}', "offset"),
        ('{"path": "a", "limit": 2.0}', "limit"),
        ('{"path": "a", "limit": 2.5}', "limit"),
        ('{"path": 7}', "path"),
        ('{"path": null}', "path"),
    ],
)
def test_wrong_json_types_are_invalid_arguments(raw: str, where: str) -> None:
    result = parse_arguments(ReadTool(), raw)
    assert isinstance(result, ToolResult) and result.is_error
    assert result.text().startswith("Invalid arguments for read:\n")
    assert f"- {where}: " in result.text()


def test_wrong_json_types_are_refused_by_every_tool() -> None:
    assert isinstance(parse_arguments(EditTool(), _EDIT.replace("false", '"false"')), ToolResult)
    assert isinstance(parse_arguments(EditTool(), _EDIT.replace("false", "0")), ToolResult)
    assert isinstance(
        parse_arguments(BashTool(), '{"command": "ls", "timeout_ms": "5"}'), ToolResult
    )
    assert isinstance(parse_arguments(WriteTool(), '{"path": "a", "content": 5}'), ToolResult)


_EDIT = '{"path": "a", "old_string": "x", "new_string": "y", "replace_all": false}'


def test_integers_stay_integers() -> None:
    args = parse_arguments(ReadTool(), '{"path": "a", "offset": 2, "limit": 10}')
    assert isinstance(args, ReadArgs)
    assert (args.offset, args.limit) == (2, 10)
    assert isinstance(parse_arguments(ReadTool(), ""), ToolResult)  # path is required
    edit = parse_arguments(EditTool(), _EDIT)
    assert isinstance(edit, EditArgs) and edit.replace_all is False
