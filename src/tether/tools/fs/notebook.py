"""Jupyter notebooks (`.ipynb`): read as cells with their outputs, edited cell by cell.

A notebook is JSON; the model reads it as its cells, each with its id, type and source, then
its outputs (stream and result text, errors, and images as image content). `notebook_edit`
replaces, inserts or deletes one cell and writes the notebook back as Jupyter does (sorted
keys, one-space indent, a final newline), so a notebook Jupyter saved changes in that cell
only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tether.errors import ToolError
from tether.jsontext import parse_json
from tether.views.notebook import NotebookCell, NotebookOutput, NotebookView

__all__ = [
    "MAX_NOTEBOOK_BYTES",
    "MAX_NOTEBOOK_IMAGES",
    "Notebook",
    "NotebookImage",
    "NotebookRead",
    "edit_cells",
    "notebook_text",
    "parse_notebook",
]

MAX_NOTEBOOK_BYTES = 32 << 20
"""The largest notebook read (images inside make them big)."""
MAX_NOTEBOOK_IMAGES = 8
"""Images of outputs passed to the model; the rest are named."""
MAX_NOTEBOOK_CHARS = 100_000
"""The most text the model gets for one notebook; the cut is stated."""
_OUTPUT_CHARS = 4000
"""Text of one output kept (its start and end)."""
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")

CellType = Literal["code", "markdown", "raw"]
EditMode = Literal["replace", "insert", "delete"]


@dataclass(frozen=True)
class NotebookImage:
    """An image an output holds: base64 data and its type."""

    data: str
    mime_type: str


@dataclass(frozen=True)
class Notebook:
    """A parsed notebook: its JSON and its cells."""

    data: dict[str, Any]
    cells: list[dict[str, Any]]
    language: str


def parse_notebook(raw: bytes, path: Path) -> Notebook:
    """The notebook `raw` holds; `ToolError` naming the file when it is not one."""
    try:
        data = parse_json(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ToolError(f"Cannot read notebook {path}: it is not valid JSON ({exc})") from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(cells, list):
        raise ToolError(f"Cannot read notebook {path}: it has no `cells` list")
    if not all(isinstance(cell, dict) for cell in cells):
        raise ToolError(f"Cannot read notebook {path}: a cell is not an object")
    meta = data.get("metadata")
    info = meta.get("language_info") if isinstance(meta, dict) else None
    name = info.get("name") if isinstance(info, dict) else None
    return Notebook(data, cells, name if isinstance(name, str) else "python")


def cell_id(cell: dict[str, Any], index: int) -> str:
    """The cell's own id, or `cell-N` (its 0-based index) for a notebook without ids."""
    own = cell.get("id")
    return own if isinstance(own, str) and own else f"cell-{index}"


def _text(value: object) -> str:
    if isinstance(value, list):
        return "".join(part for part in value if isinstance(part, str))
    return value if isinstance(value, str) else ""


def _clip(text: str) -> str:
    if len(text) <= _OUTPUT_CHARS:
        return text
    half = _OUTPUT_CHARS // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters cut ...]\n{text[-half:]}"


def _outputs(
    cell: dict[str, Any], images: list[NotebookImage]
) -> tuple[list[str], list[NotebookOutput]]:
    """The outputs as the model reads them, and as the card shows them."""
    parts: list[str] = []
    shown: list[NotebookOutput] = []
    outputs = cell.get("outputs")
    for output in outputs if isinstance(outputs, list) else ():
        if not isinstance(output, dict):
            continue
        kind = output.get("output_type")
        if kind == "stream":
            parts.append(_clip(_text(output.get("text"))))
            shown.append(NotebookOutput(kind="text", text=parts[-1]))
        elif kind == "error":
            name, value = output.get("ename", ""), output.get("evalue", "")
            parts.append(f"{name}: {value}")
            shown.append(NotebookOutput(kind="error", text=parts[-1]))
        elif kind in ("execute_result", "display_data"):
            bundle = output.get("data")
            bundle = bundle if isinstance(bundle, dict) else {}
            image = next((t for t in _IMAGE_TYPES if isinstance(bundle.get(t), str)), None)
            if image is not None:
                if len(images) < MAX_NOTEBOOK_IMAGES:
                    images.append(NotebookImage(str(bundle[image]).replace("\n", ""), image))
                    parts.append(f"[image {len(images)}: {image}]")
                    shown.append(NotebookOutput(kind="image", mime_type=image, image=len(images)))
                else:
                    parts.append(f"[an image ({image}) not shown: more than {MAX_NOTEBOOK_IMAGES}]")
                    shown.append(NotebookOutput(kind="image", mime_type=image))
            elif "text/plain" in bundle:
                parts.append(_clip(_text(bundle["text/plain"])))
                shown.append(NotebookOutput(kind="text", text=parts[-1]))
    return parts, shown


@dataclass(frozen=True)
class NotebookRead:
    """A notebook as read: the model's text, the images of its outputs, and the card's view."""

    text: str
    images: list[NotebookImage]
    view: NotebookView


def notebook_text(notebook: Notebook, path: Path) -> NotebookRead:
    """The cells as the model reads them, the images of their outputs in order, and the
    cells as the read card shows them (as many as fit the same size as the text)."""
    images: list[NotebookImage] = []
    blocks = [f"<notebook path={json.dumps(str(path))} language={notebook.language}>"]
    cells: list[NotebookCell] = []
    size = 0
    for index, cell in enumerate(notebook.cells):
        kind = cell.get("cell_type", "code")
        source = _text(cell.get("source"))
        blocks.append(f'<cell id="{cell_id(cell, index)}" type="{kind}">\n{source}\n</cell>')
        outputs, shown = _outputs(cell, images) if kind == "code" else ([], [])
        if outputs:
            joined = "\n".join(part.rstrip("\n") for part in outputs)
            blocks.append(f"<output>\n{joined}\n</output>")
        size += len(source) + sum(len(part) for part in outputs)
        if size <= MAX_NOTEBOOK_CHARS:
            cells.append(_card_cell(cell, index, source, shown))
    blocks.append("</notebook>")
    text = "\n".join(blocks)
    if len(text) > MAX_NOTEBOOK_CHARS:
        text = (
            text[:MAX_NOTEBOOK_CHARS]
            + f"\n[... {len(text) - MAX_NOTEBOOK_CHARS} more characters of the notebook cut]"
        )
    left_out = len(notebook.cells) - len(cells)
    view = NotebookView(language=notebook.language, cells=tuple(cells), left_out=left_out or None)
    return NotebookRead(text, images, view)


def _card_cell(
    cell: dict[str, Any], index: int, source: str, outputs: list[NotebookOutput]
) -> NotebookCell:
    kind = cell.get("cell_type")
    count = cell.get("execution_count")
    return NotebookCell(
        id=cell_id(cell, index),
        # A cell type Jupyter does not know is shown as raw text, as Jupyter shows it.
        cell_type=kind if kind in ("code", "markdown") else "raw",
        source=source,
        execution_count=count if isinstance(count, int) and not isinstance(count, bool) else None,
        outputs=tuple(outputs),
    )


def _find(notebook: Notebook, wanted: str) -> int:
    for index, cell in enumerate(notebook.cells):
        if cell_id(cell, index) == wanted:
            return index
    known = ", ".join(cell_id(c, i) for i, c in enumerate(notebook.cells)) or "none"
    raise ToolError(f"No cell {wanted!r} in the notebook (its cells: {known})")


def edit_cells(
    notebook: Notebook,
    target: str | None,
    source: str,
    cell_type: CellType | None,
    mode: EditMode,
) -> tuple[bytes, str]:
    """The notebook after one edit, as Jupyter writes it, and a word of what was done."""
    cells = notebook.cells
    if mode == "insert":
        if cell_type is None:
            raise ToolError("cell_type is needed to insert a cell (code or markdown)")
        at = _find(notebook, target) + 1 if target is not None else 0
        new: dict[str, Any] = {"cell_type": cell_type, "metadata": {}, "source": source}
        if notebook.data.get("nbformat_minor", 0) >= 5 or any("id" in c for c in cells):
            new["id"] = _fresh_id(cells)
        if cell_type == "code":
            new.update(execution_count=None, outputs=[])
        cells.insert(at, new)
        done = f"Inserted a {cell_type} cell at position {at + 1}"
    elif target is None:
        raise ToolError(f"cell_id is needed to {mode} a cell")
    elif mode == "delete":
        index = _find(notebook, target)
        del cells[index]
        done = f"Deleted cell {target}"
    else:
        index = _find(notebook, target)
        cell = cells[index]
        cell["source"] = source
        if cell_type is not None and cell_type != cell.get("cell_type"):
            cell["cell_type"] = cell_type
            if cell_type == "code":
                cell.setdefault("execution_count", None)
                cell.setdefault("outputs", [])
            else:
                cell.pop("execution_count", None)
                cell.pop("outputs", None)
        elif cell.get("cell_type") == "code":
            # The old outputs belonged to the old source.
            cell["outputs"], cell["execution_count"] = [], None
        done = f"Replaced the source of cell {target}"
    text = json.dumps(notebook.data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    return text.encode(), done


def _fresh_id(cells: list[dict[str, Any]]) -> str:
    taken = {cell.get("id") for cell in cells}
    n = len(cells)
    while f"cell-{n}" in taken:
        n += 1
    return f"cell-{n}"
