"""Prepares ACP session updates for the page: checks tether's cards and adds what JS lacks.

The page renders a `_meta.tether.view` only after it passed the card unions here; a view
that does not validate (an unknown card, a malformed field) is dropped, so the page falls
back to the update's standard ACP content. Read cards gain `tokens` (Pygments, one token
list per line), web and task cards, and generic cards whose content is Markdown (a plan), gain
`html` (their markdown rendered safely), and every
file diff, in a card or in standard content, gains `hunks`. An agent's permission request
carries its call's card in `_meta.tether.delegated.view`, checked and enriched the same way.
"""

from __future__ import annotations

import logging
from typing import Any, assert_never

from pydantic import ValidationError

from tether.highlight import highlight_lines
from tether.linediff import RowHunk, placed_diffs, row_hunks
from tether.views import (
    DiffCallView,
    DiffResultView,
    GenericCallView,
    GenericResultView,
    NotebookView,
    ReadResultView,
    TaskResultView,
    WebFetchResultView,
    dump_view,
    load_call_view,
    load_result_view,
)
from tether.web.markdown import markdown_html

__all__ = ["enrich_tool_call", "enrich_update", "with_hunks"]

log = logging.getLogger(__name__)


def enrich_update(update: dict[str, Any]) -> dict[str, Any]:
    """The update with its tether view validated and enriched, and its diffs given hunks."""
    kind = update.get("sessionUpdate")
    if kind not in ("tool_call", "tool_call_update"):
        return update
    return enrich_tool_call(update, call=kind == "tool_call")


def enrich_tool_call(tool_call: dict[str, Any], *, call: bool) -> dict[str, Any]:
    """A tool call (start, update, or the one a permission request shows), enriched.

    `call` says which card union its view belongs to: the call side or the result side.
    """
    out = dict(tool_call)
    if isinstance(content := out.get("content"), list):
        out["content"] = [with_hunks(item) for item in content]
    meta = out.get("_meta")
    if isinstance(meta, dict) and isinstance(tether := meta.get("tether"), dict):
        view = tether.get("view")
        checked = _checked_view(view, call=call) if view is not None else None
        tether = {k: v for k, v in tether.items() if k != "view"}
        if checked is not None:
            tether["view"] = checked
        if isinstance(delegated := tether.get("delegated"), dict):
            # An agent's permission request: the card of the agent's call, checked the same way.
            inner = _checked_view(delegated.get("view"), call=True)
            tether["delegated"] = {k: v for k, v in delegated.items() if k != "view"}
            if inner is not None:
                tether["delegated"]["view"] = inner
        out["_meta"] = {**meta, "tether": tether}
    return out


def _checked_view(view: object, *, call: bool) -> dict[str, Any] | None:
    try:
        card = load_call_view(view) if call else load_result_view(view)
    except ValidationError as exc:
        log.info("dropping a tether view the card unions reject: %s", exc.errors()[:1])
        return None
    dumped = dump_view(card)
    # Reads, diffs and web cards gain fields; every other card goes to the page as it is.
    match card:
        case ReadResultView(notebook=NotebookView() as notebook):
            dumped["notebook"] = _notebook_json(notebook, dumped["notebook"])
        case ReadResultView():
            dumped["tokens"] = highlight_lines(card.lines.texts, card.lang)
        case DiffCallView() | DiffResultView():
            placed = placed_diffs(card.diffs, card.locations)
            dumped["diffs"] = [
                {**wire, "placed": p.placed, "hunks": [_hunk_json(h) for h in p.hunks]}
                for wire, p in zip(dumped["diffs"], placed, strict=True)
            ]
        case WebFetchResultView(content=str(content)):
            dumped["html"] = markdown_html(content)
        case TaskResultView(summary=summary) if summary:
            dumped["html"] = markdown_html(summary)
        case (
            GenericCallView(content=str(content), markdown=True)
            | GenericResultView(content=str(content), markdown=True)
        ):
            dumped["html"] = markdown_html(content)
        case _:
            pass
    return dumped


def _notebook_json(notebook: NotebookView, dumped: dict[str, Any]) -> dict[str, Any]:
    """The notebook view with each code cell's `tokens` (in the notebook's language) and each
    Markdown cell's `html` (Jupyter's language names are Pygments' lexer names)."""
    cells = []
    for cell, wire in zip(notebook.cells, dumped["cells"], strict=True):
        added: dict[str, Any] = {}
        match cell.cell_type:
            case "code":
                added["tokens"] = highlight_lines(cell.source.split("\n"), notebook.language)
            case "markdown":
                added["html"] = markdown_html(cell.source)
            case "raw":
                pass
            case _:
                assert_never(cell.cell_type)
        cells.append({**wire, **added})
    return {**dumped, "cells": cells}


def _hunk_json(hunk: RowHunk) -> dict[str, Any]:
    """A hunk as the page's `cards.js` reads it."""
    return {
        "oldStart": hunk.old_start,
        "newStart": hunk.new_start,
        "lines": [
            {"op": row.op, "old": row.old, "new": row.new, "text": row.text} for row in hunk.rows
        ],
    }


def with_hunks(item: Any) -> Any:
    """A content item with its numbered `hunks` when it is a file diff; any other as it is."""
    # ACP's `{type: "diff"}` content: by ACP's convention whole files, numbered from 1.
    if not isinstance(item, dict) or not isinstance(new := item.get("newText"), str):
        return item
    old = item.get("oldText")
    if "path" not in item or not (old is None or isinstance(old, str)):
        return item
    return {**item, "hunks": [_hunk_json(h) for h in row_hunks(old, new)]}
