"""Read results' logged JSON in `tether show --json`, written by orjson and spliced into the
document pydantic writes around it.

A replayed session's document is mostly its read results: each holds its window twice, as the
card's lines and in the stored result's `meta` (one logged list, `views.ReadLines.logged`).
pydantic writes such plain JSON at about a quarter of orjson's speed (it finds each value's
type as it goes), and both write it with the same escapes, numbers and two-space layout. So
each read result is dumped with marks in place of the two (strings no log can hold: a random
number made for this process), and each mark is then replaced by orjson's text of what it
stands for, at the depth the mark was written at.

orjson refuses what it cannot write as pydantic would (an integer past 64 bits, a lone
surrogate, a key that is not a string): such a result is dumped by pydantic whole, as before.
"""

from __future__ import annotations

import copy
import dataclasses
import secrets
from collections.abc import Sequence
from typing import Any, cast

import orjson

from tether.session.updates import ClientUpdate, ToolCallFinished

__all__ = ["spliced", "with_marks"]

_NONCE = secrets.token_hex(16)
"""Makes the marks: a log written before this process started cannot hold one."""

_LEAST = 4096
"""Bytes of logged JSON below which a result is left to pydantic (the splice costs more)."""


def with_marks(
    updates: Sequence[ClientUpdate],
) -> tuple[list[ClientUpdate], dict[bytes, tuple[object, bytes]]]:
    """`updates`, each large read result with marks for its card's lines and its stored meta;
    and for each mark (as it is written, quoted: `b'"MARK"'`), its value and that value's JSON
    as it is written in the document's list of updates."""
    marked: list[ClientUpdate] = []
    texts: dict[bytes, tuple[object, bytes]] = {}
    for update in updates:
        if not isinstance(update, ToolCallFinished):
            marked.append(update)
            continue
        # The cards, with the first finished call's (a session of none loads none of them).
        from tether.views import ReadLines, ReadResultView

        view = update.view
        if not isinstance(view, ReadResultView) or not isinstance(view.lines, ReadLines):
            marked.append(update)
            continue
        logged, meta = view.lines.logged, update.result.meta
        try:
            lines_text = _indented(logged, _DEPTH)
            meta_text = _indented(meta, _DEPTH)
        except TypeError:  # orjson's refusal (`JSONEncodeError` is one): pydantic's to write
            marked.append(update)
            continue
        if len(lines_text) + len(meta_text) < _LEAST:
            marked.append(update)
            continue
        lines_mark, meta_mark = _mark(len(texts)), _mark(len(texts) + 1)
        texts[_quoted(lines_mark)] = (logged, lines_text)
        texts[_quoted(meta_mark)] = (meta, meta_text)
        # The card is copied as it is (not made again: it was checked when it was made), with
        # lines whose logged list is the mark: the serializer writes `lines.logged` as it is.
        card, stand_in = copy.copy(view), copy.copy(view.lines)
        stand_in.logged = cast(list[Any], lines_mark)
        object.__setattr__(card, "lines", stand_in)
        result = dataclasses.replace(update.result, meta=meta_mark)
        marked.append(dataclasses.replace(update, view=card, result=result))
    return marked, texts


def spliced(
    data: bytes, texts: dict[bytes, tuple[object, bytes]], start: int, end: int
) -> list[memoryview]:
    """`data[start:end]` (indented by two spaces a level) with each mark replaced by its
    value's JSON, indented as pydantic would have written it where the mark stands: the pieces
    in order, to be written one after the other (joined, they would be copied once more)."""
    whole = memoryview(data)
    pieces: list[memoryview] = []
    for quoted, (value, text) in texts.items():
        at = data.index(quoted, start)
        line = data[data.rfind(b"\n", 0, at) + 1 : at]
        depth = (len(line) - len(line.lstrip(b" "))) // 2
        # Written where it was expected (a field of an update in the document's list); any
        # other depth is written again (what orjson wrote once it writes again).
        piece = memoryview(text if depth == _DEPTH else _indented(value, depth))
        pieces += [whole[start:at], piece[_opening(depth) : len(piece) - _closing(depth)]]
        start = at + len(quoted)
    pieces.append(whole[start:end])
    return pieces


def _indented(value: object, depth: int) -> bytes:
    """`value`'s JSON as written `depth` levels deep: inside `depth` lists, whose
    `_opening(depth)` bytes before it and `_closing(depth)` after it are to be cut off."""
    for _ in range(depth):
        value = [value]
    text: bytes = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    return text


def _opening(depth: int) -> int:
    """Bytes before the value: each list's `[`, a newline and the next level's indent."""
    return 2 * depth + depth * (depth + 1)


def _closing(depth: int) -> int:
    """Bytes after the value: each list's newline, its own level's indent and `]`."""
    return 2 * depth + depth * (depth - 1)


_DEPTH = 4
"""How deep a card's field, or a stored result's, is in the document: `{"updates": [{"view":
{"lines": ...`."""


def _mark(number: int) -> str:
    return f"tether-{_NONCE}-{number}"


def _quoted(mark: str) -> bytes:
    return f'"{mark}"'.encode()
