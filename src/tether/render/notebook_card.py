"""The notebook view of the read card in the terminal: each cell, then its outputs."""

from __future__ import annotations

from typing import assert_never

from rich.console import Group, RenderableType
from rich.text import Text

from tether.render.code import code_view
from tether.render.markdown import markdown
from tether.render.theme import GUTTER, HEADING, SUBTLE, TAB_SIZE, card, note, printable
from tether.views import NotebookCell, NotebookOutput, NotebookView

__all__ = ["OUTPUT_LINES", "notebook_summary", "render_notebook"]

OUTPUT_LINES = 12
"""Lines of one output a collapsed card keeps (its first and last); all of them in full."""
_ERROR = "red"


def render_notebook(path: str, notebook: NotebookView, *, full: bool = True) -> RenderableType:
    """The path, the cell count and language, then each cell: code highlighted with its line
    numbers, Markdown rendered, raw text as it is; below a code cell its outputs."""
    title = Text.assemble((printable(path), HEADING), "  ", (_label(notebook), SUBTLE))
    parts: list[RenderableType] = []
    for index, cell in enumerate(notebook.cells):
        if index:
            parts.append(Text(""))
        parts.append(_head(cell))
        parts.append(_source(cell, notebook.language))
        parts.extend(_output(output, full) for output in cell.outputs)
    if notebook.left_out:
        parts.append(note(f"… {notebook.left_out} more cells not shown (past the size read)"))
    if not notebook.cells and not notebook.left_out:
        parts.append(note("no cells"))
    return card(Group(*parts), title=title)


def notebook_summary(path: str, notebook: NotebookView) -> Text:
    """The one line of a notebook's read: `● Read 4 cells · a.ipynb  python`."""
    return Text.assemble(
        ("● ", "green"),
        (f"Read {_cells(len(notebook.cells) + (notebook.left_out or 0))}", HEADING),
        " · ",
        printable(path),
        "  ",
        (notebook.language, SUBTLE),
    )


def _cells(count: int) -> str:
    return f"{count} cell{'' if count == 1 else 's'}"


def _label(notebook: NotebookView) -> str:
    return (
        f"notebook · {_cells(len(notebook.cells) + (notebook.left_out or 0))} · {notebook.language}"
    )


def _head(cell: NotebookCell) -> Text:
    """`In [3] code · load`, `markdown · intro`: what the cell is, and its id."""
    count = f"In [{cell.execution_count}] " if cell.execution_count is not None else ""
    return Text.assemble((f"{count}{cell.cell_type}", "cyan"), (f" · {printable(cell.id)}", GUTTER))


def _source(cell: NotebookCell, language: str) -> RenderableType:
    if not cell.source.strip():
        return note("  (empty)")
    match cell.cell_type:
        case "code":
            texts = [line.expandtabs(TAB_SIZE) for line in cell.source.split("\n")]
            return code_view(list(range(1, len(texts) + 1)), texts, language)
        case "markdown":
            return markdown(printable(cell.source))
        case "raw":
            return Text(printable(cell.source))
        case _:
            assert_never(cell.cell_type)


def _output(output: NotebookOutput, full: bool) -> RenderableType:
    match output.kind:
        case "text":
            return _text(output.text or "", "", full)
        case "error":
            return _text(output.text or "", _ERROR, full)
        case "image":
            where = (
                f"image {output.image}"
                if output.image is not None
                else "an image not passed on (too many)"
            )
            return note(f"  ▣ {where} · {output.mime_type or 'image'}")
        case _:
            assert_never(output.kind)


def _text(text: str, style: str, full: bool) -> Text:
    lines = text.rstrip("\n").split("\n")
    if not full and len(lines) > OUTPUT_LINES:
        keep = OUTPUT_LINES // 2
        hidden = len(lines) - 2 * keep
        lines = [*lines[:keep], f"… {hidden} lines …", *lines[-keep:]]
    shown = Text("\n".join(f"  │ {printable(line)}" for line in lines), style=style or GUTTER)
    return shown
