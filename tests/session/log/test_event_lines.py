"""A log line is made into its event exactly as `EVENT.validate_json` makes it: the same event,
or the same error, whichever way the line was read (parsed first, then validated without a
result's `meta`)."""

from __future__ import annotations

import contextlib
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tether.errors import CorruptLog
from tether.session import SessionStore
from tether.session.log import eventlog
from tether.session.log.eventlog import read_log, stream_log
from tether.session.log.events import EVENT, Event, ToolCallEvent, ToolResultEvent, TurnEnd

TESTS = Path(__file__).resolve().parents[2]
LOGS = sorted(
    [
        *(TESTS / "cli" / "show" / "sessions").glob("*.jsonl"),
        *(TESTS / "cli" / "json" / "sessions").glob("*.jsonl"),
    ]
)
"""The golden sessions: every kind of event, as tether wrote them."""


def _lines() -> list[bytes]:
    lines = [line for path in LOGS for line in path.read_bytes().splitlines()[1:]]
    assert {json.loads(line)["type"] for line in lines} >= {
        "turn/start",
        "user/message",
        "assistant/chunk",
        "assistant/message",
        "tool/call",
        "tool/result",
        "turn/end",
        "model/usage",
    }
    return lines


LINES = _lines()


def outcome(make: Any, line: bytes) -> tuple[str, str]:
    """What `make(line)` gives: the event's class and `repr` (which tells `1` from `True` and
    `1.0`, and a list from a tuple), or the first error's place and message."""
    try:
        event = make(line)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        return "refused", f"{error['loc']}: {error['msg']}"
    return type(event).__name__, repr(event)


def _strict(line: bytes) -> Any:
    return EVENT.validate_json(line)


STRINGS = pytest.mark.parametrize("strings", ["all", "keys"])
"""Both ways `_parsed_first` makes a line's short strings: shared, or each anew."""


@STRINGS
def test_every_golden_line_is_made_as_validate_json_makes_it(strings: str) -> None:
    for line in LINES:
        made = outcome(lambda line: eventlog._parsed_first(line, strings), line)
        assert made == outcome(_strict, line), line


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 3),
        st.integers(2**63 - 2, 2**70),
        st.floats(),  # NaN and the infinities are written as JSON's parser takes them
        st.sampled_from(["", "1", " 12 ", "1.0", "1e3", "true", "end_turn", "text", "tool/result"]),
        st.text(max_size=4),
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)


def _deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def _snake(key: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in key)


@st.composite
def lines(draw: st.DrawFn, seq: int | None = None) -> bytes:
    """A golden line made wrong, or odd, in a few ways: values of other types, keys left out,
    added, repeated or given by their Python names, nesting at the parser's limit, cut (its
    `seq` made `seq` first, when given)."""
    pairs: list[tuple[str, Any]] = list(json.loads(draw(st.sampled_from(LINES))).items())
    if seq is not None:
        pairs = [(key, seq if key == "seq" else value) for key, value in pairs]
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(pairs)))
        key = pairs[at][0] if at < len(pairs) else draw(st.sampled_from(["meta", "x", "text"]))
        match draw(st.sampled_from(["value", "drop", "add", "repeat", "name", "deep", "inner"])):
            case "value":
                pairs[at : at + 1] = [(key, draw(JSON_VALUES))]
            case "drop":
                del pairs[at : at + 1]
            case "add" | "repeat":
                pairs.insert(at, (key, draw(JSON_VALUES)))
            case "name":
                pairs[at : at + 1] = [(_snake(key), pairs[at][1] if at < len(pairs) else 1)]
            case "deep":
                pairs.insert(at, (key, _deep(draw(st.integers(196, 202)))))
            case "inner":
                value = pairs[at][1] if at < len(pairs) else None
                if isinstance(value, list) and value and isinstance(value[0], dict):
                    inner = dict(value[0])
                    inner[draw(st.sampled_from([*inner, "type"]))] = draw(JSON_VALUES)
                    pairs[at : at + 1] = [(key, [inner, *value[1:]])]
    text = "{" + ",".join(f"{json.dumps(k)}:{json.dumps(v)}" for k, v in pairs) + "}"
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text.encode("utf-8", "surrogatepass")


@settings(max_examples=300, deadline=None)
@given(lines())
# A result's meta repeated: the last one is kept, both ways.
@example(b'{"type":"tool/result","seq":1,"toolCallId":"c","content":[],"meta":1,"meta":[2]}')
# Nesting just past the parser's limit inside a meta, which was never validated otherwise.
@example(
    b'{"type":"tool/result","seq":1,"toolCallId":"c","content":[],"meta":'
    + b"[" * 200
    + b"]" * 200
    + b"}"
)
# A lone surrogate, and NaN and a 70-bit integer in a meta.
@example(b'{"type":"tool/result","seq":1,"toolCallId":"c","content":[],"meta":"\\ud800"}')
@example(b'{"type":"tool/result","seq":1,"toolCallId":"c","content":[],"meta":[NaN,1e400]}')
@example(
    b'{"type":"tool/result","seq":1,"toolCallId":"c","content":[],"meta":1180591620717411303424}'
)
# A meta on an event that has none, and one inside a result's content.
@example(b'{"type":"turn/start","seq":1,"meta":{"a":1}}')
@example(
    b'{"type":"tool/result","seq":1,"toolCallId":"c","content":[{"type":"text","text":"a","meta":1}]}'
)
def test_a_line_is_made_as_validate_json_makes_it(line: bytes) -> None:
    expected = outcome(_strict, line)
    assert outcome(eventlog._parsed_first, line) == expected
    assert outcome(lambda line: eventlog._parsed_first(line, "keys"), line) == expected


def taken(make: Any, line: bytes) -> tuple[str, str]:
    """What `make(line)` gives: the event's class and `repr`, or the log's error."""
    try:
        event = make(line)
    except CorruptLog as exc:
        return "refused", str(exc)
    return type(event).__name__, repr(event)


def _checked(line: bytes) -> Event | None:
    """The event a log's readers make of `line` after a call's line (`None`: dropped, torn)."""
    call = b'{"type":"tool/call","seq":1,"toolCallId":"c","name":"n","arguments":""}\n'
    events = eventlog._checked(PATH, iter([call, line]), eventlog._Sound(), warn=False)
    next(events)
    return next(events, None)


def _one_by_one(line: bytes) -> Event:
    """The same line checked by itself, without its newline (as lines always were)."""
    return eventlog._event(PATH, 3, line.removesuffix(b"\n"), 2, {"c"})


PATH = Path("s.jsonl")
LONG = b" " * eventlog.PARSED_FIRST_FROM + b"\n"
"""An end that makes any line long: parsed first."""


@settings(max_examples=200, deadline=None)
@given(lines(seq=2), st.sampled_from([b"\n", b"\r\n", b" \n", b"", LONG]))
# A line whose result answers a call never made.
@example(b'{"type":"tool/result","seq":2,"toolCallId":"d","content":[]}', b"\n")
def test_a_line_is_checked_with_its_newline_as_it_is_without(line: bytes, end: bytes) -> None:
    # Each line is made with its newline (no copy of it is made without): the same event, or
    # the same error, as the line made without it. A line without one is the last: kept if it
    # is whole, else dropped as torn.
    expected = taken(_one_by_one, line + end)
    if not end and expected[0] == "refused":
        expected = ("NoneType", "None")
    assert taken(_checked, line + end) == expected


def _line_by_line(path: Path) -> tuple[Any, ...]:
    """A log read the plain way: cut at each newline, each line made by `_event` without it,
    and a last line without one kept if it is whole, else dropped as torn; its events, sound
    bytes and whether the last lacks its newline, or its error."""
    data = path.read_bytes()
    first, newline, rest = data.partition(b"\n")
    try:
        eventlog._header(path, first)
        if not newline:
            return [], len(first), True
        *whole, last = rest.split(b"\n")
        events: list[Event] = []
        calls: set[str] = set()
        for number, line in enumerate(whole, start=2):
            events.append(eventlog._event(path, number, line, len(events) + 1, calls))
        sound = len(first) + 1 + sum(len(line) + 1 for line in whole)
        if last:
            with contextlib.suppress(CorruptLog):
                number = len(whole) + 2
                events.append(eventlog._event(path, number, last, len(events) + 1, calls))
                return [repr(event) for event in events], sound + len(last), True
        return [repr(event) for event in events], sound, False
    except CorruptLog as exc:
        return ("refused", str(exc))


@st.composite
def logs(draw: st.DrawFn) -> bytes:
    """A golden log's first lines, a few made wrong (`lines`) or long, each ended one way or
    another, the last perhaps without its newline or cut anywhere."""
    log = draw(st.sampled_from(LOGS)).read_bytes().split(b"\n")
    body = log[1 : 1 + draw(st.integers(0, min(8, len(log) - 1)))]
    for _ in range(draw(st.integers(0, 2))):
        if body:
            at = draw(st.integers(0, len(body) - 1))
            body[at] = draw(lines(seq=at + 1)) if draw(st.booleans()) else body[at] + LONG[:-1]
    ends = [draw(st.sampled_from([b"\n", b"\n", b"\r\n", b" \n"])) for _ in body]
    data = b"".join([log[0], b"\n", *(line + end for line, end in zip(body, ends, strict=True))])
    match draw(st.sampled_from(["whole", "whole", "no-newline", "cut"])):
        case "no-newline":
            data = data.removesuffix(b"\n")
        case "cut":
            data = data[: draw(st.integers(len(log[0]), len(data)))]
    return data


@settings(max_examples=300, deadline=None)
@given(logs())
def test_every_reader_takes_a_log_as_it_is_read_line_by_line(data: bytes) -> None:
    # The readers take each line with its newline, look at its end only when it is refused,
    # and read until the end is first met: the same events, sound bytes and errors as the
    # plain way, whatever is wrong with the log and wherever it is cut.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        path.write_bytes(data)
        expected = _line_by_line(path)
        try:
            contents = read_log(path)
            read: tuple[Any, ...] = (
                [repr(event) for event in contents.events],
                contents.sound_bytes,
                contents.missing_newline,
            )
        except CorruptLog as exc:
            read = ("refused", str(exc))
        assert read == expected
        for check_first in (True, False):
            try:
                streamed: Any = [repr(e) for e in stream_log(path, check_first=check_first)[1]]
            except CorruptLog as exc:
                streamed = ("refused", str(exc))
            assert streamed == (expected if expected[0] == "refused" else expected[0])


def test_a_long_line_is_parsed_once_and_never_validated_as_json(tmp_path: Path, ws: Path) -> None:
    log = SessionStore(tmp_path).create(ws)
    log.append(ToolCallEvent(tool_call_id="c1", name="read", arguments="{}"))
    window = [{"number": n, "text": f"line {n}"} for n in range(1, 301)]
    log.append(ToolResultEvent(tool_call_id="c1", content=(), meta={"lines": window}))
    log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    sizes = [len(line) for line in log.path.read_bytes().splitlines()[1:]]
    assert sizes[1] >= eventlog.PARSED_FIRST_FROM > max(sizes[0], sizes[2])
    calls = list(_validate_json_calls(lambda: read_log(log.path)))
    # Before, the result's line was validated by `validate_json` too, which builds the whole
    # line in Rust before making it Python objects. Short lines still are.
    assert calls == ["header", "event", "event"]
    assert read_log(log.path).events[1] == log.events[1]


def test_a_read_log_shares_its_long_lines_short_strings_and_a_streamed_one_makes_them_anew(
    tmp_path: Path, ws: Path
) -> None:
    # A log read whole is held whole: a file read again and again is one set of strings (a
    # third less memory on the realistic log). A streamed one lets each event go, and its
    # strings are faster made anew.
    log = SessionStore(tmp_path).create(ws)
    window = [{"number": n, "text": f"line {n} of the file"} for n in range(1, 301)]
    for call in ("c1", "c2"):
        log.append(ToolCallEvent(tool_call_id=call, name="read", arguments="{}"))
        log.append(ToolResultEvent(tool_call_id=call, content=(), meta={"lines": window}))
    log.close()

    def texts(events: list[Event]) -> list[list[Any]]:
        return [[line["text"] for line in e.meta["lines"]] for e in events if e.seq in (2, 4)]

    held = texts(read_log(log.path).events)
    streamed = texts(list(eventlog.stream_log(log.path, check_first=False)[1]))
    assert held == streamed == [[line["text"] for line in window]] * 2
    assert any(a is b for a, b in zip(*held, strict=True))
    assert not any(a is b for a, b in zip(*streamed, strict=True))


def test_a_corrupt_long_line_is_refused_with_validate_json_s_own_error(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    header = LOGS[0].read_bytes().splitlines()[0]
    call = b'{"type":"tool/call","seq":1,"toolCallId":"c","name":"read","arguments":"{}"}'
    long = json.dumps("x" * eventlog.PARSED_FIRST_FROM).encode()
    bad = b'{"type":"tool/result","seq":2,"toolCallId":"c","content":{},"meta":%s}' % long
    path.write_bytes(b"\n".join([header, call, bad, b""]))
    # Python's validation says "a valid tuple"; the JSON's says what the line holds.
    with pytest.raises(
        CorruptLog, match=r":3: corrupt event: tool/result\.content: .*valid array$"
    ):
        read_log(path)


def _validate_json_calls(run: Any) -> Iterator[str]:
    """Which adapter's `validate_json` `run()` calls, once per call: "header" or "event"."""
    seen: list[str] = []
    EVENT.validate_json(LINES[0])  # built, so that its validator is the one used
    names = {id(EVENT.validator): "event"}

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call" and getattr(arg, "__name__", "") == "validate_json":
            owner = getattr(arg, "__self__", None)
            seen.append(names.get(id(owner), "header"))

    sys.setprofile(watch)
    try:
        run()
    finally:
        sys.setprofile(None)
    yield from seen
