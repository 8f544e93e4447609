"""A permission request for an edit shows the change worked out before asking: the same
hunks, context and line numbers its result card shows once applied (not the strings the
call named), in its standard content, its locations and its tether view alike."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from acp.schema import ToolCallLocation, ToolCallUpdate

from tether.acp.content import card_content
from tether.acp.paths import absolute_call
from tether.views import DiffCallView, dump_view

__all__ = ["with_preview"]


def with_preview(tool_call: ToolCallUpdate, preview: DiffCallView, cwd: Path) -> ToolCallUpdate:
    """`tool_call` showing `preview` instead of the card its call announced."""
    view = absolute_call(preview, cwd)
    assert isinstance(view, DiffCallView)
    if tool_call.title is not None:
        view = dataclasses.replace(view, title=tool_call.title)  # one title per call
    meta = dict(tool_call.field_meta or {})
    meta["tether"] = {**meta.get("tether", {}), "view": dump_view(view)}
    return tool_call.model_copy(
        update={
            "content": card_content(view, cwd) or None,
            "locations": [ToolCallLocation(path=p.path, line=p.line) for p in view.locations or ()]
            or tool_call.locations,
            "field_meta": meta,
        }
    )
