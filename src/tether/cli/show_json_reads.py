"""Read results in `tether show --json`, written whole by orjson.

A replayed session's document is mostly its read results: each holds its window twice, as the
card's lines and in the stored result's `meta` (one logged list, `views.ReadLines.logged`), and
its text twice (the card's is a part of the stored result's). pydantic writes such plain JSON
at about a quarter of orjson's speed (it finds each value's type as it goes), and both write it
with the same escapes, numbers and two-space layout. So pydantic makes the update's JSON values
in Python (its own strings, not copies) from a copy whose window and meta are a placeholder,
the two are put back in their places, and orjson writes the whole update, as deep as the
document's list holds it.

orjson refuses what it cannot write as pydantic would (an integer past 64 bits, a lone
surrogate, a key that is not a string): such a result is left to pydantic whole. (A window
of two lines is written this way in four fifths of pydantic's time, of 64 in a third.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

import orjson
from pydantic_core import SchemaSerializer

from tether.session.updates import ToolCallFinished, call_finished

if TYPE_CHECKING:
    from tether.views import ReadLines, ReadResultView

__all__ = ["read_result_json"]

_T = TypeVar("_T")

_CARDS: list[tuple[type[ReadResultView], type[ReadLines]]] = []
"""The read card's classes, imported with the first finished call's (a session of none loads
none of them), then taken from here (an import statement costs a microsecond a call)."""

_WINDOW = "tether: the window"
_META = "tether: the stored meta"
"""What stands for the window and the meta in the copy pydantic writes (found by where they
are, not by what they say: a log's strings may say anything)."""

_OPENING = len(b"[\n  [\n    ")
_CLOSING = len(b"\n  ]\n]")
"""What orjson writes around a value two lists deep, as an update of the document's list is:
cut off, the update is left indented as the list's elements are (its first line's four spaces
are the separator's)."""


def read_result_json(update: ToolCallFinished, serializer: SchemaSerializer) -> memoryview | None:
    """`update`'s JSON as an element of the document's list of updates, written by orjson as
    `serializer` (of `ToolCallFinished`) writes it, when it is a read window's result orjson can
    write as pydantic does; else `None`."""
    if not _CARDS:
        from tether.views import ReadLines, ReadResultView

        _CARDS.append((ReadResultView, ReadLines))
    [(card_class, lines_class)] = _CARDS
    view, result = update.view, update.result
    if type(view) is not card_class or type(view.lines) is not lines_class:
        return None
    logged = view.lines.logged
    # The card and the stored result are copied as they are, not made again (each was
    # checked when it was made); the window, a stand-in whose logged list is the placeholder.
    stand_in = lines_class(cast(list[Any], _WINDOW), view.lines.numbers)
    copy = call_finished(
        update.tool_call_id,
        update.status,
        _copied(view, lines=stand_in),
        _copied(result, meta=_META),
        update.permission,
    )
    made = serializer.to_python(copy, mode="json", by_alias=True)
    card, stored = made.get("view"), made.get("result")
    if not isinstance(card, dict) or not isinstance(stored, dict):
        return None  # written some other way than expected: pydantic's to write
    if (card.get("lines"), stored.get("meta")) != (_WINDOW, _META):
        return None
    card["lines"] = logged
    stored["meta"] = result.meta
    try:
        written: bytes = orjson.dumps([[made]], option=orjson.OPT_INDENT_2)
    except TypeError:  # orjson's refusal (`JSONEncodeError` is one): pydantic's to write
        return None
    return memoryview(written)[_OPENING : len(written) - _CLOSING]


def _copied(value: _T, **changes: object) -> _T:
    """`value` (a dataclass whose fields are in its `__dict__`) with `changes`: a copy, not a
    new one made (pydantic's would be checked again), which costs a fifth of `copy.copy`."""
    copied = object.__new__(type(value))
    copied.__dict__.update(value.__dict__, **changes)
    return copied
