"""Notebooks that are not what they should be, outputs of every kind, and every edit's branch:
each is named, cut or done as the notebook tools promise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tether.errors import ToolError
from tether.tools.fs.multi_edit import MultiEditTool
from tether.tools.fs.notebook import (
    MAX_NOTEBOOK_BYTES,
    MAX_NOTEBOOK_CHARS,
    MAX_NOTEBOOK_IMAGES,
    edit_cells,
    notebook_text,
    parse_notebook,
)
from tether.tools.fs.notebook_edit import NotebookEditTool
from tether.tools.fs.read import ReadTool
from tether.views import NotebookOutput

from .edit_support import context, observe, run

NB = Path("n.ipynb")


def _parsed(data: object) -> Any:
    return parse_notebook(json.dumps(data).encode(), NB)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"\xff\xfe not json", "not valid JSON"),
        (b"[1, 2]", "no `cells` list"),
        (b'{"cells": {}}', "no `cells` list"),
        (b'{"cells": [1]}', "a cell is not an object"),
    ],
)
def test_a_file_that_is_no_notebook_is_named(raw: bytes, says: str) -> None:
    with pytest.raises(ToolError, match=says):
        parse_notebook(raw, NB)


def test_outputs_of_every_kind_are_shown_cut_or_counted() -> None:
    image = {"output_type": "display_data", "data": {"image/png": "QUJD\n"}}
    cells = [
        {"cell_type": "markdown", "source": "# Title"},
        {
            "cell_type": "code",
            "source": ["print(1)\n", 2, "x"],
            "outputs": [
                "not an output",
                {"output_type": "stream", "text": "y" * 9000},
                {"output_type": "error", "ename": "ValueError", "evalue": "bad"},
                {"output_type": "execute_result", "data": {"text/plain": ["42"]}},
                {"output_type": "execute_result", "data": "not a bundle"},
                {"output_type": "update_display_data"},
                *[image] * (MAX_NOTEBOOK_IMAGES + 1),
            ],
        },
        {"cell_type": "code", "source": 7, "outputs": "not a list"},
    ]
    notebook = _parsed({"cells": cells, "metadata": {"language_info": {"name": "julia"}}})
    read = notebook_text(notebook, NB)
    text, images = read.text, read.images
    assert text.startswith('<notebook path="n.ipynb" language=julia>')
    assert "characters cut" in text and "ValueError: bad" in text and "\n42\n" in text
    assert len(images) == MAX_NOTEBOOK_IMAGES
    assert f"not shown: more than {MAX_NOTEBOOK_IMAGES}" in text
    assert '<cell id="cell-2" type="code">\n\n</cell>' in text
    # The card's view holds the same outputs, each by its kind, images by their place.
    view = read.view
    assert (view.language, [c.cell_type for c in view.cells]) == (
        "julia",
        ["markdown", "code", "code"],
    )
    kinds = [o.kind for o in view.cells[1].outputs]
    assert kinds == ["text", "error", "text", *["image"] * (MAX_NOTEBOOK_IMAGES + 1)]
    assert view.cells[1].outputs[1] == NotebookOutput(kind="error", text="ValueError: bad")
    placed = [o.image for o in view.cells[1].outputs if o.kind == "image"]
    assert placed == [*range(1, MAX_NOTEBOOK_IMAGES + 1), None]
    # A long output keeps its first and last 2000 characters, and says how many it cut.
    clipped = f"{'y' * 2000}\n[... 5000 characters cut ...]\n{'y' * 2000}"
    assert view.cells[1].outputs[0].text == clipped
    assert f"<output>\n{clipped}\n" in text
    assert view.left_out is None
    assert _parsed({"cells": []}).language == "python"


def test_a_huge_notebook_is_cut_with_its_size_said() -> None:
    cells = [{"cell_type": "markdown", "source": "z" * 60_000} for _ in range(2)]
    read = notebook_text(_parsed({"cells": cells}), NB)
    blocks = [f'<cell id="cell-{n}" type="markdown">\n{"z" * 60_000}\n</cell>' for n in (0, 1)]
    whole = "\n".join(['<notebook path="n.ipynb" language=python>', *blocks, "</notebook>"])
    cut = len(whole) - MAX_NOTEBOOK_CHARS
    assert (
        read.text
        == f"{whole[:MAX_NOTEBOOK_CHARS]}\n[... {cut} more characters of the notebook cut]"
    )
    # The card keeps the cells that fit the same size, and says how many it left out.
    assert (len(read.view.cells), read.view.left_out) == (1, 1)


def test_each_edit_branch() -> None:
    def fresh() -> Any:
        return _parsed(
            {
                "nbformat_minor": 5,
                "cells": [
                    {"cell_type": "code", "id": "a", "source": "1", "outputs": [1]},
                    {"cell_type": "markdown", "id": "cell-2", "source": "m"},
                ],
            }
        )

    with pytest.raises(ToolError, match="cell_type is needed"):
        edit_cells(fresh(), None, "x", None, "insert")
    with pytest.raises(ToolError, match="cell_id is needed to delete"):
        edit_cells(fresh(), None, "x", None, "delete")
    data, done = edit_cells(fresh(), None, "print()", "code", "insert")
    first = json.loads(data)["cells"][0]
    assert done == "Inserted a code cell at position 1"
    assert first == {
        "cell_type": "code",
        "execution_count": None,
        "id": "cell-3",
        "metadata": {},
        "outputs": [],
        "source": "print()",
    }
    data, _ = edit_cells(fresh(), "a", "now prose", "markdown", "replace")
    assert json.loads(data)["cells"][0] == {
        "cell_type": "markdown",
        "id": "a",
        "source": "now prose",
    }
    data, _ = edit_cells(fresh(), "cell-2", "1 + 1", "code", "replace")
    changed = json.loads(data)["cells"][1]
    assert (changed["cell_type"], changed["outputs"], changed["execution_count"]) == (
        "code",
        [],
        None,
    )


async def test_the_tools_refuse_what_they_cannot_change(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    (tmp_path / "a.txt").write_text("text\n")
    not_one = await run(NotebookEditTool(), ctx, path="a.txt", cell_id="x", new_source="y")
    assert not_one.is_error and "Not a notebook" in not_one.text()
    await observe(ctx, tmp_path / "a.txt")
    same = await run(
        MultiEditTool(), ctx, path="a.txt", edits=[{"old_string": "t", "new_string": "t"}]
    )
    assert same.is_error and "nothing to change" in same.text()
    big = tmp_path / "big.ipynb"
    with big.open("wb") as file:
        file.truncate(MAX_NOTEBOOK_BYTES + 1)
    refused = await run(ReadTool(), ctx, path="big.ipynb")
    assert refused.is_error and f"more than {MAX_NOTEBOOK_BYTES}" in refused.text()


def test_a_notebook_without_ids_gets_none_and_prose_keeps_no_outputs() -> None:
    old = _parsed({"nbformat_minor": 4, "cells": [{"cell_type": "markdown", "source": "m"}]})
    data, _ = edit_cells(old, None, "# Notes", "markdown", "insert")
    assert json.loads(data)["cells"][0] == {
        "cell_type": "markdown",
        "metadata": {},
        "source": "# Notes",
    }
    again = _parsed({"cells": [{"cell_type": "markdown", "source": "m"}]})
    data, _ = edit_cells(again, "cell-0", "more words", None, "replace")
    assert json.loads(data)["cells"][0] == {"cell_type": "markdown", "source": "more words"}
