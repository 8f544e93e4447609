"""The notebook view of the read card in the terminal: cells, their outputs, images named."""

from __future__ import annotations

from tests.render.helpers import body_lines, plain, segments
from tether.render import render_result_view
from tether.render.notebook_card import OUTPUT_LINES
from tether.render.read_card import render_read_result
from tether.views import (
    NotebookCell,
    NotebookOutput,
    NotebookView,
    ReadFileLine,
    ReadResultView,
)

NOTEBOOK = NotebookView(
    language="python",
    cells=(
        NotebookCell(id="intro", cell_type="markdown", source="Sales by **month**.\x1b[2J"),
        NotebookCell(
            id="load",
            cell_type="code",
            source="import pandas as pd\nprint('rows:', 3)",
            execution_count=4,
            outputs=(
                NotebookOutput(kind="text", text="rows: 3\n"),
                NotebookOutput(kind="image", mime_type="image/png", image=1),
                NotebookOutput(kind="image", mime_type="image/jpeg"),
                NotebookOutput(kind="error", text="ValueError: bad"),
            ),
        ),
        NotebookCell(id="note", cell_type="raw", source="as is **raw**"),
        NotebookCell(id="blank", cell_type="code", source=""),
    ),
    left_out=2,
)


def _view(notebook: NotebookView = NOTEBOOK) -> ReadResultView:
    text = "<notebook ...>\n</notebook>"
    lines = tuple(ReadFileLine(number=n, text=t) for n, t in enumerate(text.split("\n"), 1))
    return ReadResultView(
        path="/w/sales.ipynb",
        offset=1,
        lines=lines,
        total_lines=2,
        content=text,
        notebook=notebook,
    )


def test_cells_and_outputs_are_shown_each_as_its_kind() -> None:
    text = plain(render_result_view(_view()))
    assert text.splitlines()[0].startswith("╭─ /w/sales.ipynb  notebook · 6 cells · python ─")
    assert body_lines(text) == [
        "markdown · intro",
        "Sales by month.␛[2J",
        "",
        "In [4] code · load",
        "1 │ import pandas as pd",
        "2 │ print('rows:', 3)",
        "  │ rows: 3",
        "  ▣ image 1 · image/png",
        "  ▣ an image not passed on (too many) · image/jpeg",
        "  │ ValueError: bad",
        "",
        "raw · note",
        "as is **raw**",
        "",
        "code · blank",
        "  (empty)",
        "… 2 more cells not shown (past the size read)",
    ]
    error = next(s for s in segments(render_result_view(_view())) if "ValueError" in s.text)
    assert error.style is not None and error.style.color is not None
    assert error.style.color.name == "red"
    bold = next(s for s in segments(render_result_view(_view())) if s.text == "month")
    assert bold.style is not None and bold.style.bold


def test_a_long_output_is_collapsed_unless_in_full_and_the_brief_line_counts_cells() -> None:
    long = "\n".join(f"line {n}" for n in range(1, 41))
    cell = NotebookCell(
        id="c", cell_type="code", source="x", outputs=(NotebookOutput(kind="text", text=long),)
    )
    notebook = NotebookView(language="julia", cells=(cell,))
    collapsed = body_lines(plain(render_read_result(_view(notebook), full=False)))
    assert len(collapsed) == 2 + OUTPUT_LINES + 1
    assert "  │ … 28 lines …" in collapsed and collapsed[-1] == "  │ line 40"
    assert len(body_lines(plain(render_read_result(_view(notebook))))) == 2 + 40
    brief = plain(render_read_result(_view(notebook), brief=True))
    assert brief.strip() == "● Read 1 cell · /w/sales.ipynb  julia"
    empty = plain(render_read_result(_view(NotebookView(language="python", cells=()))))
    assert body_lines(empty) == ["no cells"]
