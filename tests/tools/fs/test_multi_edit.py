"""`multi_edit` on real files: edits apply in order to one text, all or nothing."""

from __future__ import annotations

from pathlib import Path

from tether.tools import invoke
from tether.tools.card_context import CardContext
from tether.tools.fs.multi_edit import MultiEditArgs, MultiEditTool
from tether.tools.result import ToolResult
from tether.views import DiffCallView, DiffResultView, FileDiff, Location

from .edit_support import context, observe, run

TOOL = MultiEditTool()


async def test_each_edit_sees_the_text_the_one_before_left(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_text("x = 1\ny = x\n")
    ctx = context(tmp_path)
    await observe(ctx, target)
    result = await run(
        TOOL,
        ctx,
        path="a.py",
        edits=[
            {"old_string": "x = 1", "new_string": "count = 1"},
            {"old_string": "y = x", "new_string": "y = count"},
            {"old_string": "count", "new_string": "total", "replace_all": True},
        ],
    )
    assert result.text() == f"Edited {target}: 3 edits, 4 replacements"
    assert target.read_text() == "total = 1\ny = total\n"
    assert result.meta is not None


async def test_one_failing_edit_changes_nothing_and_is_named(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_text("x = 1\ny = 2\n")
    ctx = context(tmp_path)
    await observe(ctx, target)
    result = await run(
        TOOL,
        ctx,
        path="a.py",
        edits=[
            {"old_string": "x = 1", "new_string": "x = 10"},
            {"old_string": "z = 3", "new_string": "z = 30"},
            {"old_string": "y = 2", "new_string": "y = 20"},
        ],
    )
    assert result.is_error
    assert result.text() == f"edit 2 of 3: old_string not found in {target}; nothing was changed"
    assert target.read_text() == "x = 1\ny = 2\n"


async def test_a_first_empty_old_string_creates_the_file(tmp_path: Path) -> None:
    result = await run(
        TOOL,
        context(tmp_path),
        path="new.py",
        edits=[
            {"old_string": "", "new_string": "a = 1\nb = 2\n"},
            {"old_string": "b = 2", "new_string": "b = a"},
        ],
    )
    assert result.text() == f"Created {tmp_path / 'new.py'} (2 lines)"
    assert (tmp_path / "new.py").read_text() == "a = 1\nb = a\n"


async def test_an_unread_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    result = await run(
        TOOL, context(tmp_path), path="a.py", edits=[{"old_string": "x", "new_string": "y"}]
    )
    assert result.is_error and "requires reading" in result.text()
    assert (tmp_path / "a.py").read_text() == "x = 1\n"


async def test_the_cards_show_each_edit_then_the_applied_hunk(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_text("x = 1\ny = 2\n")
    ctx = context(tmp_path)
    await observe(ctx, target)
    args = MultiEditArgs.model_validate(
        {
            "path": "a.py",
            "edits": [
                {"old_string": "x = 1", "new_string": "x = 10"},
                {"old_string": "y = 2", "new_string": "y = 20"},
            ],
        }
    )
    assert TOOL.present_call(args, CardContext()) == DiffCallView(
        title="Edit a.py (2 edits)",
        diffs=(
            FileDiff(path="a.py", old_text="x = 1", new_text="x = 10"),
            FileDiff(path="a.py", old_text="y = 2", new_text="y = 20"),
        ),
        locations=(Location(path="a.py"),),
    )
    result = await invoke(TOOL, args, ctx)
    assert TOOL.present_result(args, result, CardContext()) == DiffResultView(
        title=f"Edit {target}",
        diffs=(FileDiff(path=str(target), old_text="x = 1\ny = 2\n", new_text="x = 10\ny = 20\n"),),
        locations=(Location(path=str(target), line=1),),
    )
    assert TOOL.present_result(args, ToolResult.error("nope"), CardContext()) is None
    # Two calls on one file run one after the other.
    assert TOOL.serial_key(args) == "a.py"
