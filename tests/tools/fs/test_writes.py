"""The files each file tool names as changing (`Tool.writes`) are the files its call changes.

A checkpoint counts a changed file no call of its step named as changed by someone else, and a
step whose calls name no file needs no save: so a tool must name the file it writes, as the
model's arguments give it (aliases too), and `read` must name none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from tether.tools import Tool, invoke
from tether.tools.fs.edit import EditTool
from tether.tools.fs.multi_edit import MultiEditTool
from tether.tools.fs.notebook_edit import NotebookEditTool
from tether.tools.fs.read import ReadTool
from tether.tools.fs.write import WriteTool
from tether.tools.invocation import parse_arguments

from .edit_support import context, observe
from .notebooks import notebook


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


CALLS: list[tuple[Tool[Any, Any], dict[str, object], tuple[str, ...]]] = [
    (EditTool(), {"file_path": "a.txt", "old_string": "one", "new_string": "uno"}, ("a.txt",)),
    (
        MultiEditTool(),
        {"filePath": "a.txt", "edits": [{"old_string": "one", "new_string": "1"}]},
        ("a.txt",),
    ),
    (WriteTool(), {"file_path": "new/b.txt", "content": "bee\n"}, ("new/b.txt",)),
    (
        NotebookEditTool(),
        {"notebook_path": "n.ipynb", "cell_id": "load", "new_source": "print(2)"},
        ("n.ipynb",),
    ),
    (ReadTool(), {"file_path": "a.txt"}, ()),
]


@pytest.mark.parametrize(("tool", "raw", "named"), CALLS, ids=[c[0].name for c in CALLS])
async def test_each_file_tool_names_exactly_the_file_its_call_changes(
    tmp_path: Path, tool: Tool[Any, Any], raw: dict[str, object], named: tuple[str, ...]
) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    (tmp_path / "c.txt").write_text("untouched\n")
    notebook(tmp_path / "n.ipynb")
    ctx = context(tmp_path)
    for seen in ("a.txt", "n.ipynb"):
        await observe(ctx, tmp_path / seen)
    # Parsed as the checkpoint parses a step's calls: the model's names, aliases included.
    args = parse_arguments(tool, json.dumps(raw))
    assert isinstance(args, BaseModel)
    assert tool.writes(args) == named
    before = _files(tmp_path)
    result = await invoke(tool, args, ctx)
    assert not result.is_error, result.text()
    after = _files(tmp_path)
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    assert changed == set(named)
