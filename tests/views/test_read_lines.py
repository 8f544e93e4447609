"""A read window's lines held as their stored JSON: checked as `ReadFileLine` checks them."""

from __future__ import annotations

import json
import sys
from collections import UserDict
from operator import is_
from types import MappingProxyType
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from tether.views import ReadFileLine, ReadLines, ReadResultView, dump_view, load_result_view
from tether.views.read_lines import _counted, _keys

STRICT: TypeAdapter[list[ReadFileLine]] = TypeAdapter(list[ReadFileLine])


def strict(raw: list[Any]) -> list[ReadFileLine] | None:
    """What the strict validator of lines makes of `raw` (`None`: refused)."""
    try:
        return STRICT.validate_python(raw)
    except ValidationError:
        return None


class Text(str):
    """A `str` that is not exactly one."""


class Line(dict[str, Any]):
    """A `dict` that is not exactly one (taken as a dict is)."""


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.integers(2**63, 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.builds(Text, st.text(max_size=2)),
)
LINE = st.one_of(
    st.fixed_dictionaries({"number": st.integers(0, 9), "text": st.text(max_size=4)}),
    st.dictionaries(st.sampled_from(["number", "text", "extra", "Number"]), SCALARS, max_size=4),
    st.fixed_dictionaries(
        {"number": SCALARS, "text": SCALARS},
        optional={"extra": SCALARS},
    ),
    SCALARS,
    st.lists(SCALARS, max_size=2),
    # Mappings that are not dicts (refused), and a dict's subclass (taken).
    st.builds(
        lambda kind, number, text: kind({"number": number, "text": text}),
        st.sampled_from([MappingProxyType, UserDict, Line]),
        st.integers(0, 9),
        st.text(max_size=2),
    ),
)


def ascending(numbers: list[int], after: int, most: int) -> bool:
    """Whether `numbers` rise strictly from above `after` to at most `most`."""
    pairs = zip([after, *numbers], numbers, strict=False)
    return all(a < b for a, b in pairs) and all(n <= most for n in numbers)


def narrowed(raw: list[Any], after: int, most: int) -> list[ReadFileLine] | None:
    """What `ReadLines.checked` must make of `raw`: the strict validator's lines, if they rise."""
    expected = strict(raw)
    if expected is None or not ascending([line.number for line in expected], after, most):
        return None
    return expected


def assert_checked_as_validated(raw: list[Any], after: int, most: int) -> None:
    lines = ReadLines.checked(raw, after, most)
    expected = narrowed(raw, after, most)
    if expected is None:
        assert lines is None
    else:
        assert lines is not None and list(lines) == expected
        assert lines.numbers == [line.number for line in expected]
        assert lines.texts == [line.text for line in expected]
        assert lines.logged == [{"number": line.number, "text": line.text} for line in expected]


@settings(max_examples=400, deadline=None)
@given(st.lists(LINE, max_size=6), st.integers(-2, 3), st.integers(0, 12))
# Two keys, one of them not a line's: the shape checked at once cannot take it.
@example([{"number": 1, "Text": "x"}], 0, 9)
@example([{"number": 1, "text": "x"}, {"extra": 2, "text": "y"}], 0, 9)
def test_lines_are_taken_and_refused_as_the_strict_validator_takes_them(
    raw: list[Any], after: int, most: int
) -> None:
    assert_checked_as_validated(raw, after, most)


COUNTED = st.integers(-3, 6).flatmap(
    lambda first: st.lists(st.text(max_size=2), max_size=6).map(
        lambda texts: [{"number": first + i, "text": t} for i, t in enumerate(texts)]
    )
)


@settings(max_examples=400, deadline=None)
@given(
    COUNTED,
    st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["number", "text"]), SCALARS)),
    st.integers(-4, 6),
    st.integers(0, 12),
)
# Values that equal a window's numbers without being ints: a float, and a bool for 1 or 0.
@example([{"number": n, "text": ""} for n in (1, 2, 3)], [(1, "number", 2.0)], 0, 9)
@example([{"number": n, "text": ""} for n in (1, 2, 3)], [(0, "number", True)], 0, 9)
@example([{"number": n, "text": ""} for n in (-1, 0, 1)], [(1, "number", False)], -2, 9)
@example([{"number": n, "text": ""} for n in (0, 1, 2)], [(1, "number", True)], -1, 9)
@example([{"number": n, "text": ""} for n in (1, 2, 3)], [(1, "number", "2")], 0, 9)
def test_a_counted_window_is_taken_as_the_strict_validator_takes_it_whatever_one_value_is(
    raw: list[dict[str, Any]], changes: list[tuple[int, str, Any]], after: int, most: int
) -> None:
    for index, key, value in changes:
        if index < len(raw):
            raw[index][key] = value
    assert_checked_as_validated(raw, after, most)


def test_stored_lines_are_held_as_they_lie_and_a_line_is_made_only_when_asked() -> None:
    raw = json.loads('[{"number": 4, "text": "a"}, {"number": 7, "text": "\\tb"}]')
    lines = ReadLines.checked(raw, 3, 7)
    assert lines is not None and lines.logged is raw
    assert (lines.numbers, lines.texts) == ([4, 7], ["a", "\tb"])
    assert lines[-1] == ReadFileLine(number=7, text="\tb")
    assert lines[:1] == (ReadFileLine(number=4, text="a"),)
    assert lines[:1].logged == [{"number": 4, "text": "a"}]
    assert len(lines) == 2 and bool(lines) and not ReadLines.checked([], 5, 0)
    counted = json.loads('[{"text": "a", "number": 4}, {"text": "b", "number": 5}]')
    held = ReadLines.checked(counted, 0, 5)
    assert held is not None and held.logged is counted and held.numbers == [4, 5]


def test_a_window_is_looked_up_by_the_key_objects_its_first_line_holds() -> None:
    # Keys made as a parser makes them: equal to the literals without being them.
    number, text = "".join(["num", "ber"]), "".join(["te", "xt"])
    raw = [{text: "a", number: 4}, {number: 5, text: "b"}]
    found = _keys(raw[0])
    assert found == ("number", "text") and found[0] is number and found[1] is text
    lines = ReadLines.checked(raw, 3, 5)
    assert lines is not None and lines.logged is raw and lines.numbers == [4, 5]
    assert lines.texts == ["a", "b"]
    # Anything else is looked up by the keys themselves.
    literal = (sys.intern("number"), sys.intern("text"))
    for first in ({number: 1}, {Text("number"): 1, Text("text"): ""}, Line(raw[0]), [1], None):
        found = _keys(first)
        assert found == literal and all(map(is_, found, literal))


def test_a_line_with_a_key_more_is_checked_and_held_without_it() -> None:
    raw = [{"number": 1, "text": "a", "extra": True}, {"number": 2, "text": "b"}]
    lines = ReadLines.checked(raw, 0, 2)
    assert lines is not None and lines.logged is not raw
    assert lines.logged == [{"number": 1, "text": "a"}, {"number": 2, "text": "b"}]


@example(1 << 16, 3)
@example((1 << 16) - 2, 3)
@given(st.integers(1, (1 << 16) + 9), st.integers(1, 4))
def test_a_window_is_told_counted_wherever_in_a_file_it_lies(first: int, size: int) -> None:
    raw = [{"number": first + i, "text": ""} for i in range(size)]
    lines = ReadLines.checked(raw, first - 1, first + size - 1)
    assert lines is not None and lines.logged is raw
    assert ReadLines.checked([*raw[:-1], {"number": first + size, "text": ""}], 0, 1 << 20)
    assert not ReadLines.checked([*raw, {"number": first + size - 1, "text": ""}], 0, 1 << 20)


@given(st.lists(st.tuples(st.integers(1, (1 << 16) + 9), st.integers(0, 3000)), max_size=5))
@example([((1 << 16) - 1, 1), (1, 1)])
def test_the_numbers_a_window_is_compared_with_are_its_range(spans: list[tuple[int, int]]) -> None:
    for first, size in spans:
        assert _counted(first, first + size - 1) == list(range(first, first + size))


def test_numbers_must_rise_strictly_within_the_bounds() -> None:
    raw = [{"number": n, "text": ""} for n in (3, 4, 9)]
    assert ReadLines.checked(raw, 2, 9)
    assert not ReadLines.checked(raw, 3, 9) and not ReadLines.checked(raw, 2, 8)
    assert not ReadLines.checked([{"number": 3, "text": ""}] * 2, 0, 9)


@given(st.lists(st.integers(-3, 40), max_size=12), st.integers(-5, 45), st.integers(-5, 45))
@example([3, 4, 5], 2, 5)
@example([3, 4, 6], 2, 6)
@example([3, 5, 5], 2, 5)
@example([3, 5, 4, 5], 2, 5)
@example([-1, 0, 1], -2, 5)
def test_rising_numbers_are_told_apart_however_they_step(
    numbers: list[int], after: int, most: int
) -> None:
    raw = [{"number": n, "text": ""} for n in numbers]
    assert (ReadLines.checked(raw, after, most) is not None) == ascending(numbers, after, most)


def test_a_card_takes_lines_in_any_form_and_writes_them_as_before() -> None:
    line = ReadFileLine(number=2, text="x")
    made = ReadResultView(path="a", offset=2, lines=(line,), total_lines=2)  # type: ignore[arg-type]
    held = ReadResultView(path="a", offset=2, lines=ReadLines.of([line]), total_lines=2)
    assert made == held and hash(made) == hash(held) and hash(held.lines) == hash((line,))
    wire = dump_view(held)
    assert wire["lines"] == [{"number": 2, "text": "x"}]
    assert wire["lines"] is not held.lines.logged  # a copy: the card's list stays as it is
    assert load_result_view(wire) == held
    assert ReadResultView.__pydantic_validator__.validate_json(json.dumps(wire)) == held
    assert repr(held.lines) == "ReadLines([ReadFileLine(number=2, text='x')])"


def test_lines_compare_with_lines_only_and_their_schema_is_made_for_each_new_adapter() -> None:
    lines = ReadLines.of([ReadFileLine(number=1, text="a")])
    assert lines not in (1, "a", {"number": 1, "text": "a"})  # compared by identity at last
    # A new adapter asks the type for its schema (a model's was made when it was first used,
    # maybe by another test): the JSON form is made from lines, the Python form taken as it is.
    adapter: TypeAdapter[ReadLines] = TypeAdapter(ReadLines)
    assert adapter.validate_python(lines) is lines
    made = adapter.validate_json('[{"number": 1, "text": "a"}]')
    assert made == lines and adapter.dump_json(made) == b'[{"number":1,"text":"a"}]'
