"""Other agents' argument names: understood with the same meaning, logged in tether's spelling;
any other unknown argument is an error that names the valid ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from tether.errors import ArgumentsError
from tether.tools import Tool, ToolResult
from tether.tools.arguments import Alias, Fixed, canonical, canonical_text
from tether.tools.bash.tool import BashTool
from tether.tools.defaults import default_tools
from tether.tools.fs.edit import EditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.invocation import parse_arguments
from tether.tools.todo import TodoTool


def parsed(tool: Tool[Any, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The validated arguments as a dict (fails the test on an error result)."""
    result = parse_arguments(tool, json.dumps(arguments))
    assert isinstance(result, BaseModel), result
    return result.model_dump()


def refused(tool: Tool[Any, Any], arguments: dict[str, Any]) -> str:
    """The error text of arguments the tool refuses."""
    result = parse_arguments(tool, json.dumps(arguments))
    assert isinstance(result, ToolResult) and result.is_error, result
    return result.text()


@pytest.mark.parametrize("tool", [ReadTool(), WriteTool(), EditTool()])
@pytest.mark.parametrize("alias", ["file_path", "filePath"])
def test_file_tools_take_file_path_for_path(tool: Tool[Any, Any], alias: str) -> None:
    given = {alias: "a.py", "content": "x", "old_string": "x", "new_string": "y"}
    given = {k: v for k, v in given.items() if k in (alias, *tool.args_model.model_fields)}
    assert parsed(tool, given)["path"] == "a.py"


def test_edit_takes_opencode_camel_case_names() -> None:
    args = parsed(
        EditTool(),
        {"filePath": "a.py", "oldString": "x", "newString": "y", "replaceAll": True},
    )
    assert args == {"path": "a.py", "old_string": "x", "new_string": "y", "replace_all": True}


def test_bash_timeout_is_timeout_ms_and_background_is_a_boolean() -> None:
    assert parsed(BashTool(), {"command": "make", "timeout": 300_000})["timeout_ms"] == 300_000
    error = refused(BashTool(), {"command": "make", "timeout": 900_000})
    assert "- timeout_ms: Input should be less than or equal to 600000" in error
    assert parsed(BashTool(), {"command": "make", "run_in_background": False})["command"]
    background = {"command": "npm run dev", "run_in_background": True}
    assert parsed(BashTool(), background)["run_in_background"] is True
    # `0` is not `false`: the flag is a boolean, strictly.
    assert "run_in_background" in refused(BashTool(), {"command": "x", "run_in_background": 0})


def test_an_alias_and_its_argument_may_agree_but_not_differ() -> None:
    assert parsed(ReadTool(), {"path": "a.py", "file_path": "a.py"})["path"] == "a.py"
    error = refused(ReadTool(), {"path": "a.py", "file_path": "b.py"})
    assert error == (
        "Invalid arguments for read:\n- file_path: names the same argument as path, "
        "with another value; give path once"
    )


def test_an_unknown_argument_names_the_valid_ones_at_any_depth() -> None:
    error = refused(ReadTool(), {"path": "a.py", "lines": 20})
    assert error == (
        "Invalid arguments for read:\n- lines: unknown argument (valid: path, offset, limit)"
    )
    todo = {"todos": [{"content": "x", "status": "pending", "owner": "me"}]}
    assert refused(TodoTool(), todo) == (
        "Invalid arguments for todo:\n- todos.0.owner: unknown argument "
        "(valid: content, status, activeForm, priority, id)"
    )


def test_every_builtin_tool_refuses_unknown_arguments() -> None:
    for tool in default_tools():
        result = parse_arguments(tool, '{"no_such_argument": 1}')
        assert isinstance(result, ToolResult), tool.name
        assert "- no_such_argument: unknown argument (valid: " in result.text(), tool.name


def test_canonical_keeps_the_order_and_refuses_what_cannot_be_meant() -> None:
    aliases = (Alias("file_path", "path"), Fixed("n", True, "always on"))
    assert list(canonical({"limit": 1, "file_path": "a", "n": True}, aliases)) == ["limit", "path"]
    with pytest.raises(ArgumentsError, match=r"^n: always on$"):
        canonical({"n": False}, aliases)
    # Text that is not an object, or that cannot be resolved, stays as it came.
    for raw in ('{"file_path": ', "[1]", '{"n": false}', '{"path": "a"}'):
        assert canonical_text(raw, aliases) is raw
    assert canonical_text('{"file_path": "é"}', aliases) == '{"path": "é"}'


def test_task_takes_claude_codes_subagent_type_for_agent() -> None:
    from tether.tools.task.tool import TaskTool

    args = parsed(
        TaskTool(), {"description": "Find it", "prompt": "Find x", "subagent_type": "explore"}
    )
    assert args["agent"] == "explore"
    assert "- model: unknown argument (valid: description, prompt, agent)" in refused(
        TaskTool(), {"description": "Find it", "prompt": "Find x", "model": "haiku"}
    )
