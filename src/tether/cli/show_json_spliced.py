"""Read results' logged JSON in `tether show --json`, written by orjson and spliced into the
document pydantic writes around it.

A replayed session's document is mostly its read results: each holds its window twice, as the
card's lines and in the stored result's `meta` (one logged list, `views.ReadLines.logged`).
pydantic writes such plain JSON at about a quarter of orjson's speed (it finds each value's
type as it goes), and both write it with the same escapes, numbers and two-space layout. So
each read result is dumped with marks in place of the two (strings no log can hold: a random
number made for this process), and each mark is then replaced by orjson's text of what it
stands for, at the depth the mark was written at.

The card's text is a part of the stored result's text (read from between its tags): it too is
marked, with the stored text, which orjson writes once (it escapes every code point as pydantic
does); a string's escapes do not depend on what is around it, so the card's is the part of
that JSON between the escaped text before it and after it.

orjson refuses what it cannot write as pydantic would (an integer past 64 bits, a lone
surrogate, a key that is not a string): such a result is dumped by pydantic whole, as before.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar, cast

import orjson

from tether.content import ContentBlock, TextContent
from tether.session.updates import ClientUpdate, ToolCallFinished

__all__ = ["Splice", "Splices", "spliced", "with_marks"]

_T = TypeVar("_T")

_NONCE = os.urandom(16).hex()
"""Makes the marks: a log written before this process started cannot hold one (the bytes
`secrets.token_hex` would take, without loading `secrets`, which nothing else here runs)."""

_LEAST = 4096
"""Bytes of logged JSON below which a result is left to pydantic (the splice costs more)."""

_SHARED = 1024
"""Characters of a card's text below which it is left to pydantic (with the stored text)."""


class Splice(NamedTuple):
    """What stands in a mark's place: the value it stands for, and that value's JSON as
    written in the document's list of updates (`_DEPTH` deep), in pieces to be written one
    after the other."""

    value: object
    written: list[bytes | memoryview]
    nested: bool
    """Whether the JSON depends on how deep it is written (a list or an object: not a
    string's)."""


Splices = dict[bytes, Splice]
"""Each mark, as it is searched for in what pydantic wrote, and what stands in its place."""


def with_marks(updates: Sequence[ClientUpdate]) -> tuple[list[ClientUpdate], Splices]:
    """`updates`, each large read result with marks for its card's lines and text and its
    stored meta and text; and for each mark (as it is searched for), what stands in its place."""
    marked: list[ClientUpdate] = []
    splices: Splices = {}
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
        # The card, the stored result and the update are copied as they are, not made again
        # (each was checked when it was made), with marks in place of what orjson writes: the
        # card's lines are a stand-in whose logged list is the mark, written as it is.
        lines_mark = _mark(len(splices))
        splices[_quoted(lines_mark)] = Splice(logged, [_cut(lines_text, _DEPTH)], nested=True)
        card: dict[str, object] = {
            "lines": ReadLines(cast(list[Any], lines_mark), view.lines.numbers)
        }
        stored: dict[str, object] = {}
        shared = _shared_text(view.content, update.result.content)
        if shared is not None:
            block, card_json, block_json = shared
            # The card's text is marked within its quotes, which stay where pydantic put them.
            card["content"] = mark = _mark(len(splices))
            splices[mark.encode() + b'"'] = Splice(view.content, [card_json, b'"'], nested=False)
            block_mark = _mark(len(splices))
            splices[_quoted(block_mark)] = Splice(block.text, [block_json], nested=False)
            content = update.result.content
            stored["content"] = (_copied(block, text=block_mark), *content[1:])
        stored["meta"] = meta_mark = _mark(len(splices))
        splices[_quoted(meta_mark)] = Splice(meta, [_cut(meta_text, _DEPTH)], nested=True)
        result = _copied(update.result, **stored)
        marked.append(dataclasses.replace(update, view=_copied(view, **card), result=result))
    return marked, splices


def _copied(value: _T, **changes: object) -> _T:
    """`value` (a dataclass whose fields are in its `__dict__`) with `changes`: a copy, not a
    new one made (pydantic's would be checked again), which costs a fifth of `copy.copy`."""
    copied = object.__new__(type(value))
    copied.__dict__.update(value.__dict__, **changes)
    return copied


def _shared_text(
    text: str | None, content: tuple[ContentBlock, ...]
) -> tuple[TextContent, memoryview, memoryview] | None:
    """When the card's `text` is a part of the stored result's first block of text (as a read
    card's is: read from between its tags), that block, and the JSON of `text` (unquoted) and
    of the block's text, both from one writing of the block's text (a string's escapes do not
    depend on what is around it); `None` otherwise."""
    if text is None or len(text) < _SHARED or not content or type(content[0]) is not TextContent:
        return None
    block = content[0]
    whole = block.text
    # Found by its first characters, then compared whole: a search for the whole text costs
    # as much as writing it.
    at = whole.find(text[:64])
    if at < 0 or not whole.startswith(text, at):
        return None
    try:
        # orjson escapes every code point as pydantic does, in a quarter of the time.
        written: bytes = orjson.dumps(whole)
        before = len(orjson.dumps(whole[:at])) - 1  # the opening quote, not the closing one
        after = len(orjson.dumps(whole[at + len(text) :])) - 1
    except TypeError:  # a lone surrogate (`JSONEncodeError`): pydantic's to refuse, as before
        return None
    view = memoryview(written)
    return block, view[before : len(written) - after], view


def spliced(data: bytes, splices: Splices, start: int, end: int) -> list[memoryview]:
    """`data[start:end]` (indented by two spaces a level) with each mark replaced by its
    value's JSON, indented as pydantic would have written it where the mark stands: the pieces
    in order, to be written one after the other (joined, they would be copied once more)."""
    whole = memoryview(data)
    pieces: list[memoryview] = []
    for key, (value, written, nested) in splices.items():
        at = data.index(key, start)  # marks are made in the order pydantic writes them
        pieces.append(whole[start:at])
        if nested and (depth := _depth(data, at)) != _DEPTH:
            # Written where it was not expected: what orjson wrote once it writes again.
            pieces.append(_cut(_indented(value, depth), depth))
        else:
            pieces += map(memoryview, written)
        start = at + len(key)
    pieces.append(whole[start:end])
    return pieces


def _depth(data: bytes, at: int) -> int:
    """How deep the value written at `at` is: its line's indent, two spaces a level."""
    line = data[data.rfind(b"\n", 0, at) + 1 : at]
    return (len(line) - len(line.lstrip(b" "))) // 2


def _indented(value: object, depth: int) -> bytes:
    """`value`'s JSON as written `depth` levels deep: inside `depth` lists, whose
    `_opening(depth)` bytes before it and `_closing(depth)` after it are to be cut off."""
    for _ in range(depth):
        value = [value]
    text: bytes = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    return text


def _cut(text: bytes, depth: int) -> memoryview:
    """The value in `_indented(value, depth)`'s `text`, its wrapping lists cut off."""
    return memoryview(text)[_opening(depth) : len(text) - _closing(depth)]


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
