"""Read results in `tether show --json`, written whole by orjson.

A replayed session's document is mostly its read results: each holds its window twice, as the
card's lines and in the stored result's `meta` (one logged list, `views.ReadLines.logged`), and
its text twice (the card's is a part of the stored result's). pydantic writes such plain JSON
at about a quarter of orjson's speed (it finds each value's type as it goes), and both write it
with the same escapes, numbers and two-space layout. So the update's JSON values are put
together here as `CLIENT_UPDATE` writes them (the same keys in the same order, an unset
optional field left out; the window and the meta as they are), and orjson writes the whole
update, as deep as the document's list holds it.

What is written some other way is left to pydantic whole: an update, card or result whose
classes have other fields than `_FIELDS` names (checked once, against the classes), a
notebook's card, a result block that is not text, and what orjson cannot write as pydantic
would (an integer past 64 bits, a lone surrogate, a key that is not a string). (A window of
two lines is written this way in a quarter of `CLIENT_UPDATE.dump_json`'s time, of 64 in a
tenth.)
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

import orjson

from tether.content import TextContent
from tether.session.updates import ToolCallFinished
from tether.tools.result import ToolResult

if TYPE_CHECKING:
    from tether.views import ReadLines, ReadResultView

__all__ = ["read_result_json"]

_CARDS: list[tuple[type[ReadResultView], type[ReadLines], bool]] = []
"""The read card's classes, imported with the first finished call's (a session of none loads
none of them), then taken from here (an import statement costs a microsecond a call); and
whether the classes have the fields `_FIELDS` names."""

_FIELDS = {
    "ToolCallFinished": ("kind", "tool_call_id", "status", "view", "result", "permission"),
    "ReadResultView": (
        *("card", "path", "offset", "lines", "total_lines"),
        *("title", "lang", "content", "byte_cap", "notebook"),
    ),
    "ToolResult": ("content", "is_error", "meta"),
    "TextContent": ("type", "text"),
}
"""The fields `read_result_json` writes (or, left unset, leaves out), class by class."""

_OPENING = len(b"[\n  [\n    ")
_CLOSING = len(b"\n  ]\n]")
"""What orjson writes around a value two lists deep, as an update of the document's list is:
cut off, the update is left indented as the list's elements are (its first line's four spaces
are the separator's)."""


def read_result_json(update: ToolCallFinished) -> memoryview | None:
    """`update`'s JSON as an element of the document's list of updates, written by orjson as
    `CLIENT_UPDATE` writes it, when it is a read window's result orjson can write as pydantic
    does; else `None`."""
    if not _CARDS:
        from tether.views import ReadLines, ReadResultView

        classes = (ToolCallFinished, ReadResultView, ToolResult, TextContent)
        known = all(_FIELDS[cls.__name__] == _names(cls) for cls in classes)
        _CARDS.append((ReadResultView, ReadLines, known))
    [(card_class, lines_class, known)] = _CARDS
    view, result = update.view, update.result
    if not known or type(view) is not card_class or type(view.lines) is not lines_class:
        return None
    if view.notebook is not None:
        return None  # a notebook's cells: pydantic's to write
    blocks = []
    for block in result.content:
        if type(block) is not TextContent:
            return None
        blocks.append({"type": block.type, "text": block.text})
    card: dict[str, Any] = {
        "card": view.card,
        "path": view.path,
        "offset": view.offset,
        "lines": view.lines.logged,
        "totalLines": view.total_lines,
    }
    for key, value in (
        ("title", view.title),
        ("lang", view.lang),
        ("content", view.content),
        ("byteCap", view.byte_cap),
    ):
        if value is not None:
            card[key] = value
    made: dict[str, Any] = {
        "kind": update.kind,
        "toolCallId": update.tool_call_id,
        "status": update.status,
        "view": card,
        "result": {"content": blocks, "isError": result.is_error, "meta": result.meta},
    }
    if update.permission is not None:
        made["permission"] = update.permission
    try:
        written: bytes = orjson.dumps([[made]], option=orjson.OPT_INDENT_2)
    except TypeError:  # orjson's refusal (`JSONEncodeError` is one): pydantic's to write
        return None
    return memoryview(written)[_OPENING : len(written) - _CLOSING]


def _names(cls: type[object]) -> tuple[str, ...]:
    """The names of a dataclass's fields, in their order."""
    return tuple(field.name for field in fields(cls))  # type: ignore[arg-type]
