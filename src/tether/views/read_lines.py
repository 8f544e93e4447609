"""A read window's numbered lines, held as the JSON they are stored as: no object per line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice, repeat
from operator import countOf, itemgetter, lt
from typing import Any, overload

from pydantic import GetCoreSchemaHandler, TypeAdapter
from pydantic_core import CoreSchema, core_schema

from tether.views.parts import ReadFileLine
from tether.wire import DEFERRED

__all__ = ["ReadLines"]

_NUMBER = itemgetter("number")
_TEXT = itemgetter("text")
_GET = dict.__getitem__


class ReadLines(Sequence[ReadFileLine]):
    """The lines of a read card, in order: `logged`, their JSON form `[{"number": N, "text":
    T}, ...]`, with their `numbers` beside it and their `texts` when asked.

    A replayed session holds hundreds of thousands of these lines. Narrowed from a stored
    result, `logged` is that result's own list, checked where it lies: the card and the result
    share it, and nothing is made per line (a `ReadFileLine` is made only when one is asked for
    by index or iteration). Every line has exactly the keys `number` and `text`; treat all
    three lists as read-only.
    """

    __slots__ = ("logged", "numbers")

    def __init__(self, logged: list[Any], numbers: list[int]) -> None:
        """Lines already checked: `numbers[i]` is `logged[i]["number"]`."""
        self.logged = logged
        self.numbers = numbers

    @property
    def texts(self) -> list[str]:
        """The lines' texts, in order (made when asked: a collapsed card wants a few)."""
        return list(map(_TEXT, self.logged))

    @classmethod
    def of(cls, lines: Iterable[ReadFileLine]) -> ReadLines:
        """The lines of these `ReadFileLine`s."""
        logged = [{"number": line.number, "text": line.text} for line in lines]
        return cls(logged, list(map(_NUMBER, logged)))

    @classmethod
    def checked(cls, raw: list[Any], after: int, most: int) -> ReadLines | None:
        """Stored JSON lines as `ReadFileLine` takes them (strict types, unknown keys left
        out), numbered strictly upwards from above `after` to at most `most`; else `None`."""
        # The common case, checked a pass at a time in C: dicts of two keys, a str each (the
        # join refuses anything else, and takes a str's subclass as the validator does),
        # numbered by ints that count up by one; the list is then used as it is (numbers that
        # skip are checked one by one). A line of another shape (a key more, a float for a
        # number) is left to the strict validator, which knows every other rule. The join's
        # `dict.__getitem__` takes dicts only (a mapping of another kind raises, as the strict
        # validator refuses it), so no pass of its own checks that each line is one.
        if not raw:
            return cls([], [])
        size = len(raw)
        number, text = _keys(raw[0])
        try:
            numbers = list(map(itemgetter(number), raw))
            "".join(map(_GET, raw, repeat(text, size)))
            common = countOf(map(len, raw), 2) == size
        except (KeyError, TypeError):
            common = False
        if common and _counting(numbers, after, most):
            return cls(raw, numbers)
        if common and countOf(map(type, numbers), int) == size:
            lines: ReadLines | None = cls(raw, numbers)
        else:
            lines = _validated(raw)
        return lines if lines is not None and lines._ascending(after, most) else None

    def _ascending(self, after: int, most: int) -> bool:
        """Whether the numbers (one at least) rise strictly, from above `after` to at most
        `most`."""
        numbers = self.numbers
        if not after < numbers[0] or not numbers[-1] <= most:
            return False
        return all(map(lt, numbers, islice(numbers, 1, None)))

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> ReadFileLine: ...

    @overload
    def __getitem__(self, index: slice) -> ReadLines: ...

    def __getitem__(self, index: int | slice) -> ReadFileLine | ReadLines:
        if isinstance(index, slice):
            return ReadLines(self.logged[index], self.numbers[index])
        line = self.logged[index]
        return ReadFileLine(number=line["number"], text=line["text"])

    def __iter__(self) -> Iterator[ReadFileLine]:
        for line in self.logged:
            yield ReadFileLine(number=line["number"], text=line["text"])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ReadLines):
            return self.logged == other.logged
        if isinstance(other, tuple | list):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        # As the tuple of its lines hashes, which it equals.
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ReadLines({list(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """Held as it is; made from `ReadFileLine`s or their JSON; written as `logged`."""
        from_lines = core_schema.no_info_after_validator_function(
            cls.of, handler.generate_schema(tuple[ReadFileLine, ...])
        )
        return core_schema.json_or_python_schema(
            json_schema=from_lines,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(cls), from_lines]
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(_logged),
        )


def _keys(line: object) -> tuple[str, str]:
    """The keys `number` and `text` as `line` holds them, when it is a dict holding both as
    plain strs; else the keys themselves.

    The parser makes each key of a window once and shares it among the window's lines, but
    not as the interned literal: looked up by the literal, every line's key was found by
    comparing its text; looked up by the object the lines hold, by identity."""
    if type(line) is dict:
        held = {key: key for key in line}
        number, text = held.get("number"), held.get("text")
        if type(number) is str and type(text) is str:
            return number, text
    return "number", "text"


def _counting(numbers: list[Any], after: int, most: int) -> bool:
    """Whether `numbers` are ints that count up by one, from above `after` to at most `most`
    (a window is read whole, so its numbers do): compared in one pass with the numbers they
    must be, after one that sums them."""
    first, last = numbers[0], numbers[-1]
    if type(first) is not int or type(last) is not int or first < 1:
        return False
    if not after < first or not last <= most or last - first != len(numbers) - 1:
        return False
    try:
        # Equal values are ints or what equals one: a float, which makes the sum a float,
        # or a bool, which only 0 and 1 equal (below `first`, an exact int above 0).
        total = sum(numbers)
    except TypeError:
        return False
    return type(total) is int and numbers == _counted(first, last)


_COUNTED: list[list[int]] = [[]]
"""0, 1, 2, ...: the numbers windows are compared with (each window with a slice, its ints
made once instead of once per window); replaced by a longer list when one is needed."""

_MOST_COUNTED = 1 << 16
"""Numbers past this are made for the window that has them, not kept."""


def _counted(first: int, last: int) -> list[int]:
    """`list(range(first, last + 1))`."""
    counted = _COUNTED[0]
    if last >= len(counted):
        if last >= _MOST_COUNTED:
            return list(range(first, last + 1))
        # Replaced whole, never extended: a thread comparing with the old list keeps it.
        counted = _COUNTED[0] = list(range(min(max(2 * last, 1024), _MOST_COUNTED)))
    return counted[first : last + 1]


def _validated(raw: list[Any]) -> ReadLines | None:
    """Lines of any other shape, as the strict validator makes them; `None` if refused."""
    try:
        return ReadLines.of(_LINES.validate_python(raw))
    except ValueError:
        return None


def _logged(lines: ReadLines) -> list[Any]:
    return lines.logged


_LINES: TypeAdapter[list[ReadFileLine]] = TypeAdapter(list[ReadFileLine], config=DEFERRED)
"""The strict check of lines that are not in the common shape."""
