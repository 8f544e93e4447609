"""The notebook view of the read card: a Jupyter notebook's cells, each with its outputs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import TypeAdapter
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "NOTEBOOK_VIEW",
    "NotebookCell",
    "NotebookOutput",
    "NotebookView",
    "dump_notebook",
    "load_notebook",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class NotebookOutput:
    """One output of a code cell: text (a stream or a result), an error, or an image.

    An image's data is not here: `image` is its 1-based place among the result's image
    blocks (what the model saw), or absent when it was one too many to pass on."""

    kind: Literal["text", "error", "image"]
    text: Opt[str] = None
    mime_type: Opt[str] = None
    image: Opt[int] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class NotebookCell:
    """One cell: its id, its type, its source and (a code cell's) outputs."""

    id: str
    cell_type: Literal["code", "markdown", "raw"]
    source: str
    execution_count: Opt[int] = None
    outputs: tuple[NotebookOutput, ...] = ()


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class NotebookView:
    """The cells of a notebook as read; `left_out` cells past the size the card keeps."""

    language: str
    cells: tuple[NotebookCell, ...]
    left_out: Opt[int] = None


NOTEBOOK_VIEW: TypeAdapter[NotebookView] = TypeAdapter(NotebookView)
"""Validates and serializes the notebook view."""


def dump_notebook(view: NotebookView) -> dict[str, Any]:
    """The wire JSON of a notebook view (camelCase, unset fields left out)."""
    dumped: dict[str, Any] = NOTEBOOK_VIEW.dump_python(view, mode="json", by_alias=True)
    return dumped


def load_notebook(data: object) -> NotebookView:
    """Validate wire JSON as a notebook view; raises `pydantic.ValidationError`."""
    return NOTEBOOK_VIEW.validate_python(data)
