"""The strict decoder every piece of outside JSON goes through."""

from __future__ import annotations

import json
import sys
from types import FrameType
from typing import NoReturn

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.errors import TooDeep
from tether.jsontext import parse_json
from tether.session.updates import ToolCallStarted
from tether.tools.present import raw_input
from tether.views import GenericCallView


def test_plain_json_decodes() -> None:
    assert parse_json('{"a": [1, 2.5, null, true, "\\u00e9"]}') == {"a": [1, 2.5, None, True, "é"]}
    assert parse_json(b"[]") == []


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-be", "utf-32-le"])
def test_bytes_decode_as_json_loads_decodes_them(encoding: str) -> None:
    text = '{"a": ["\u00e9", 1.5, null], "b": "\\ud800"}'
    assert parse_json(text.encode(encoding)) == json.loads(text.encode(encoding))
    with pytest.raises(ValueError, match="NaN is not a JSON value"):
        parse_json("[NaN]".encode(encoding))


@pytest.mark.parametrize(
    "text", [' {"a": 1}', '{"a": 1}\n', '{"a": 1} x', "[1] [2]", '"s"', "7", "  ", "", "{"]
)
def test_whitespace_and_what_follows_a_value_as_json_loads_takes_them(text: str) -> None:
    # A value that fills the text is scanned at once; anything else is decoded as before.
    for form in (text, text.encode()):
        try:
            expected = json.loads(form)
        except ValueError as exc:
            with pytest.raises(ValueError) as raised:
                parse_json(form)
            assert str(raised.value) == str(exc)
        else:
            assert parse_json(form) == expected


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[" * 1000])
def test_nesting_too_deep_is_a_value_error(text: str) -> None:
    with pytest.raises(TooDeep, match="nested too deeply"):
        parse_json(text)


@pytest.mark.parametrize(
    "text", ["NaN", "[Infinity]", '{"x": -Infinity}', "{", b"\xff", "1" * 5000]
)
def test_what_is_not_json_is_a_value_error(text: str | bytes) -> None:
    with pytest.raises(ValueError):
        parse_json(text)


def test_the_raw_input_of_a_call_never_raises() -> None:
    deep = "[" * 100_000
    assert raw_input(deep) == deep
    assert raw_input("NaN") == "NaN"
    assert raw_input('{"path": "a"}') == {"path": "a"}
    started = ToolCallStarted(
        tool_call_id="c1", name="read", arguments=deep, view=GenericCallView(title="read")
    )
    assert started.raw_input == deep


def _loaded(text: str | bytes) -> tuple[str, object]:
    """What `parse_json` gives for `text`, or the kind and words of what it raises."""
    try:
        return ("value", parse_json(text))
    except Exception as exc:  # every failure is compared
        return (type(exc).__name__, str(exc))


def _loaded_by_json_loads(text: str | bytes) -> tuple[str, object]:
    """The same through `json.loads` with a new decoder each time, as `parse_json` did."""

    def not_json(name: str) -> NoReturn:
        raise ValueError(f"{name} is not a JSON value")

    try:
        return ("value", json.loads(text, parse_constant=not_json))
    except RecursionError:
        return ("TooDeep", "JSON nested too deeply to decode")
    except Exception as exc:  # every failure is compared
        return (type(exc).__name__, str(exc))


JSON_PIECES = st.sampled_from(
    ['{"a": ', "[", "]", "}", ", ", '"\\ud800"', "NaN", "-Infinity", "1e999", "\ufeff", " ", "\x00"]
)


@given(st.lists(JSON_PIECES | st.text(max_size=4), max_size=12).map("".join) | st.binary())
def test_it_decodes_and_refuses_as_json_loads_does(text: str | bytes) -> None:
    assert _loaded(text) == _loaded_by_json_loads(text)


@pytest.mark.parametrize("text", ["\ufeff[]", b"\xef\xbb\xbf[]", bytearray(b"[1]"), "[1] x", ""])
def test_byte_order_marks_bytes_and_junk_are_answered_as_json_loads_answers(
    text: str | bytes,
) -> None:
    assert _loaded(text) == _loaded_by_json_loads(text)


def test_a_string_is_decoded_without_making_a_decoder() -> None:
    made: list[str] = []

    def watch(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code is json.JSONDecoder.__init__.__code__:
            made.append(frame.f_code.co_name)

    sys.setprofile(watch)
    try:
        parsed = parse_json('{"path": "a.py", "offset": 2}')
    finally:
        sys.setprofile(None)
    assert parsed == {"path": "a.py", "offset": 2}
    assert made == []
