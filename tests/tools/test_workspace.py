"""Path arguments the operating system cannot resolve are tool errors, never crashes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tether.errors import ToolError
from tether.tools import Workspace
from tether.tools.fs.edit import EditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool

from .fs.edit_support import context, run


def test_a_symlink_loop_is_a_tool_error(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(ToolError, match=r"Cannot resolve 'loop'"):
        Workspace.at(tmp_path).resolve("loop")


@pytest.mark.parametrize("raw", ["a\0b", "\ud800.txt"])
def test_unencodable_names_are_tool_errors(tmp_path: Path, raw: str) -> None:
    with pytest.raises(ToolError, match=r"Cannot resolve"):
        Workspace.at(tmp_path).resolve(raw)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        (ReadTool(), {}),
        (WriteTool(), {"content": "x"}),
        (EditTool(), {"old_string": "", "new_string": "x"}),
    ],
)
@pytest.mark.parametrize("raw", ["loop", "a\0b", "\ud800.txt"])
async def test_file_tools_answer_bad_paths_with_error_results(
    tmp_path: Path, tool: Any, arguments: dict[str, Any], raw: str
) -> None:
    (tmp_path / "loop").symlink_to("loop")
    result = await run(tool, context(tmp_path), path=raw, **arguments)
    assert result.is_error
    assert result.text().startswith(f"Cannot resolve {raw!r}: ")
    assert sorted(os.listdir(tmp_path)) == ["loop"]
