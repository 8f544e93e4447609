"""Notebooks on real files: `read` shows cells with their outputs (images as images), and
`notebook_edit` replaces, inserts and deletes cells, after a read, as Jupyter writes them."""

from __future__ import annotations

import json
from pathlib import Path

from tether.content import ImageContent, TextContent
from tether.tools import invoke
from tether.tools.card_context import CardContext
from tether.tools.fs.notebook_edit import NotebookEditArgs, NotebookEditTool
from tether.tools.fs.read import ReadArgs, ReadTool
from tether.tools.result import ToolResult
from tether.views import (
    DiffResultView,
    FileDiff,
    GenericCallView,
    Location,
    NotebookCell,
    NotebookOutput,
    NotebookView,
)

from .edit_support import context, observe, run
from .notebooks import PNG, notebook


async def test_read_shows_cells_outputs_and_images(tmp_path: Path) -> None:
    target = tmp_path / "sales.ipynb"
    notebook(target)
    result = await invoke(ReadTool(), ReadArgs(path=str(target)), context(tmp_path))
    assert not result.is_error
    text, image = result.content
    assert isinstance(text, TextContent) and isinstance(image, ImageContent)
    assert text.text == "\n".join(
        [
            f'<notebook path="{target}" language=python>',
            '<cell id="intro" type="markdown">\n# Sales\n\n</cell>',
            '<cell id="load" type="code">\nprint(\'rows:\', 3)\nplot()\n</cell>',
            "<output>\nrows: 3\n[image 1: image/png]\n</output>",
            "</notebook>",
        ]
    )
    assert (image.data, image.mime_type) == (PNG, "image/png")
    # The read card's notebook view: each cell with its outputs, the image by its place among
    # the result's images; the lines are the text the model read, for clients without it.
    args, tool = ReadArgs(path=str(target)), ReadTool()
    card = tool.present_result(args, result, CardContext(cwd=str(tmp_path)))
    assert card is not None and card.content == text.text
    assert card.notebook == NotebookView(
        language="python",
        cells=(
            NotebookCell(id="intro", cell_type="markdown", source="# Sales\n"),
            NotebookCell(
                id="load",
                cell_type="code",
                source="print('rows:', 3)\nplot()",
                execution_count=1,
                outputs=(
                    NotebookOutput(kind="text", text="rows: 3\n"),
                    NotebookOutput(kind="image", mime_type="image/png", image=1),
                ),
            ),
        ),
    )
    assert [line.text for line in card.lines] == text.text.split("\n")
    assert card.total_lines == len(card.lines) == 14
    # A stored meta that is not a notebook view is the generic card, never an error.
    stored = [
        ({"path": 1, "notebook": {}}, result.content),
        ({"path": "p", "notebook": {"cells": "x"}}, result.content),
        (result.meta, []),
        (result.meta, [image, text]),
    ]
    for meta, content in stored:
        bad = ToolResult(content=content, is_error=False, meta=meta)
        assert tool.present_result(args, bad, CardContext(cwd=str(tmp_path))) is None


async def test_edit_replace_insert_delete_after_a_read(tmp_path: Path) -> None:
    target = tmp_path / "sales.ipynb"
    notebook(target)
    ctx = context(tmp_path)
    tool = NotebookEditTool()
    unread = await run(tool, ctx, path="sales.ipynb", cell_id="load", new_source="x = 1")
    assert unread.is_error and "requires reading" in unread.text()
    await observe(ctx, target)
    replaced = await run(tool, ctx, path="sales.ipynb", cell_id="load", new_source="total()")
    assert replaced.text() == f"replaced cell load in {target}"
    after = json.loads(target.read_text())
    assert after["cells"][1]["source"] == "total()"
    assert after["cells"][1]["outputs"] == [] and after["cells"][1]["execution_count"] is None
    assert after["cells"][0] == notebook(tmp_path / "fresh.ipynb")["cells"][0]
    inserted = await run(
        tool,
        ctx,
        path="sales.ipynb",
        cell_id="intro",
        new_source="Notes",
        cell_type="markdown",
        edit_mode="insert",
    )
    assert not inserted.is_error, inserted.text()
    cells = json.loads(target.read_text())["cells"]
    assert [c["id"] for c in cells] == ["intro", "cell-2", "load"]
    assert cells[1] == {"cell_type": "markdown", "id": "cell-2", "metadata": {}, "source": "Notes"}
    deleted = await run(tool, ctx, path="sales.ipynb", cell_id="intro", edit_mode="delete")
    assert not deleted.is_error
    assert [c["id"] for c in json.loads(target.read_text())["cells"]] == ["cell-2", "load"]
    missing = await run(tool, ctx, path="sales.ipynb", cell_id="nope", new_source="x")
    assert missing.text() == "No cell 'nope' in the notebook (its cells: cell-2, load)"
    # Written as Jupyter writes: sorted keys, one-space indent, a final newline.
    text = target.read_text()
    assert text == json.dumps(json.loads(text), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


async def test_a_missing_notebook_is_an_error_and_none_is_made(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    tool = NotebookEditTool()
    missing = tmp_path / "nope.ipynb"
    result = await run(
        tool, ctx, path="nope.ipynb", new_source="x", cell_type="code", edit_mode="insert"
    )
    assert (result.is_error, result.text()) == (True, f"File not found: {missing}")
    # Read, then removed before the edit: the same error, and nothing written back.
    target = tmp_path / "gone.ipynb"
    notebook(target)
    await observe(ctx, target)
    target.unlink()
    result = await run(tool, ctx, path="gone.ipynb", cell_id="load", new_source="x")
    assert (result.is_error, result.text()) == (True, f"File not found: {target}")
    assert list(tmp_path.iterdir()) == []


async def test_the_edit_cards_name_the_cell_then_show_the_json_hunk(tmp_path: Path) -> None:
    target = tmp_path / "sales.ipynb"
    notebook(target)
    ctx = context(tmp_path)
    await observe(ctx, target)
    tool = NotebookEditTool()
    args = NotebookEditArgs(path="sales.ipynb", cell_id="intro", new_source="# Revenue")
    assert tool.present_call(args, CardContext()) == GenericCallView(
        title="Notebook sales.ipynb: replaced cell intro",
        kind="edit",
        content="# Revenue",
        locations=(Location(path="sales.ipynb"),),
    )
    result = await invoke(tool, args, ctx)
    # The hunk of the notebook's JSON, three lines of context each side of the source.
    context_before = '   "cell_type": "markdown",\n   "id": "intro",\n   "metadata": {},\n'
    context_after = '  },\n  {\n   "cell_type": "code",\n'
    assert tool.present_result(args, result, CardContext()) == DiffResultView(
        title=f"Edit {target}",
        diffs=(
            FileDiff(
                path=str(target),
                old_text=context_before
                + '   "source": [\n    "# Sales\\n"\n   ]\n'
                + context_after,
                new_text=context_before + '   "source": "# Revenue"\n' + context_after,
            ),
        ),
        locations=(Location(path=str(target), line=4),),
    )
    deleting = NotebookEditArgs(path="sales.ipynb", cell_id="load", edit_mode="delete")
    assert tool.present_call(deleting, CardContext()) == GenericCallView(
        title="Notebook sales.ipynb: deleted cell load",
        kind="edit",
        content=None,
        locations=(Location(path="sales.ipynb"),),
    )
    assert tool.present_result(args, ToolResult.error("nope"), CardContext()) is None
    assert tool.serial_key(args) == "sales.ipynb"
