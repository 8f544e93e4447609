"""Small value types that cards are built from."""

from __future__ import annotations

from typing import Annotated

from pydantic import Strict
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = ["FileDiff", "Location", "ReadFileLine"]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Location:
    """A place in a file for editor follow-along; `line` is 1-based."""

    path: str
    line: Opt[int] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class FileDiff:
    """One file's change: `old_text` is `None` when the file is new."""

    path: str
    old_text: str | None
    new_text: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG, slots=True)
class ReadFileLine:
    """One numbered line of a read window."""

    # Slots: a replay makes hundreds of thousands of lines, and pydantic makes one with two
    # attribute stores, not a `__dict__` each (a third less time; half the objects to collect).
    # Strict: stored JSON is narrowed with these types, and `true`, `2.0` or `"2"` is no line.
    number: Annotated[int, Strict()]
    text: Annotated[str, Strict()]
