"""A log read a block at a time: every reader takes its lines alike (torn tails, a last line
without its newline, lines longer than a block), a streamed log is never held whole, and its
file is closed however the reading ends."""

from __future__ import annotations

import json
import logging
import os
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tether.content import TextContent
from tether.errors import CorruptLog
from tether.session import SessionStore
from tether.session.log.eventlog import EventLog, read_log, stream_log
from tether.session.log.events import Event, SessionHeader, ToolCallEvent, ToolResultEvent
from tether.session.log.raw import LINE_BLOCK, log_lines

HEADER = json.dumps(
    {"type": "session", "version": 1, "id": "s1", "cwd": "/w", "createdAt": "2026-01-01T00:00:00Z"}
)
START = '{"type":"turn/start","seq":%d,"time":"2026-01-01T00:00:01Z"}'
CHUNK = '{"type":"assistant/chunk","seq":%d,"time":"2026-01-01T00:00:01Z","text":"%s"}'

Reader = Callable[[Path], tuple[SessionHeader, list[Event]]]


def _read(path: Path) -> tuple[SessionHeader, list[Event]]:
    contents = read_log(path)
    return contents.header, contents.events


def _checked_first(path: Path) -> tuple[SessionHeader, list[Event]]:
    header, events = stream_log(path, check_first=True)
    return header, list(events)


def _as_taken(path: Path) -> tuple[SessionHeader, list[Event]]:
    header, events = stream_log(path, check_first=False)
    return header, list(events)


READERS = pytest.mark.parametrize(
    "reader", [_read, _checked_first, _as_taken], ids=["read", "checked-first", "as-taken"]
)


def _log(path: Path, data: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode())
    return path


@READERS
@pytest.mark.parametrize(
    "last",
    [
        ("", [1, 2], False),
        (CHUNK % (3, "cut before its newline"), [1, 2, 3], False),
        ('{"type":"assistant/chu', [1, 2], True),
        (START % 7, [1, 2], True),
    ],
    ids=["whole", "last-without-newline", "torn", "last-wrong-seq"],
)
def test_every_reader_takes_a_last_line_alike(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    reader: Reader,
    last: tuple[str, list[int], bool],
) -> None:
    tail, kept, warned = last
    path = _log(tmp_path / "s1.jsonl", f"{HEADER}\n{START % 1}\n{CHUNK % (2, 'x')}\n{tail}")
    with caplog.at_level(logging.WARNING):
        header, events = reader(path)
    assert header.id == "s1"
    assert [event.seq for event in events] == kept
    assert ("dropping a torn last line" in caplog.text) is warned
    if warned:
        assert f"{path}:4:" in caplog.text


@READERS
def test_a_header_alone_has_no_events_with_or_without_its_newline(
    tmp_path: Path, reader: Reader
) -> None:
    for data in (HEADER, HEADER + "\n"):
        header, events = reader(_log(tmp_path / "s1.jsonl", data))
        assert (header.id, events) == ("s1", [])


@READERS
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("", ":1: not a session header: Invalid JSON: EOF while parsing a value at line 1"),
        (f"{HEADER}\n\n{START % 1}\n", ":2: corrupt event: Invalid JSON: EOF while parsing"),
        (f"{HEADER}\n{START % 1}\n{START % 1}\n", ":3: event seq 1, expected 2"),
        (f"{HEADER}\n{START % 1}\n{{not\n{START % 3}", ":3: corrupt event: Invalid JSON: key"),
    ],
    ids=["empty", "empty-line", "seq", "not-json"],
)
def test_every_reader_refuses_a_corrupt_line_with_one_message(
    tmp_path: Path, reader: Reader, data: str, message: str
) -> None:
    path = _log(tmp_path / "s1.jsonl", data)
    with pytest.raises(CorruptLog, match=f"^{path}{message}"):
        reader(path)


@READERS
def test_lines_longer_than_a_block_are_read_whole(tmp_path: Path, reader: Reader) -> None:
    long = "é" * (LINE_BLOCK // 2 + 3)  # two bytes each: a line across two blocks
    data = f"{HEADER}\n{CHUNK % (1, long)}\n{CHUNK % (2, 'y')}\n{CHUNK % (3, long + 'z')}"
    _, events = reader(_log(tmp_path / "s1.jsonl", data))
    assert [getattr(event, "text", None) for event in events] == [long, "y", long + "z"]


@pytest.mark.parametrize(
    ("tail", "sound", "missing_newline"),
    [
        ("", 0, False),
        (START % 2, len(START % 2), True),
        ('{"type":"turn', 0, False),
        (START % 7, 0, False),
    ],
    ids=["whole", "last-without-newline", "torn", "last-wrong-seq"],
)
@pytest.mark.parametrize("before", [1, 0], ids=["after-a-line", "first"])
def test_the_sound_bytes_end_after_the_last_good_line(
    tmp_path: Path, tail: str, sound: int, missing_newline: bool, before: int
) -> None:
    body = f"{HEADER}\n" + "".join(f"{START % seq}\n" for seq in range(1, before + 1))
    contents = read_log(
        _log(tmp_path / "s1.jsonl", body + tail.replace('"seq":2', f'"seq":{before + 1}'))
    )
    assert (contents.sound_bytes, contents.missing_newline) == (len(body) + sound, missing_newline)
    alone = read_log(_log(tmp_path / "s2.jsonl", HEADER))
    assert (alone.sound_bytes, alone.missing_newline, alone.events) == (len(HEADER), True, [])


def test_a_line_cut_before_its_newline_is_the_last_even_as_the_log_grows(tmp_path: Path) -> None:
    # What is read after a line cut at the end is the rest of that line, being written: it is
    # never taken as lines of its own, so a reader need look at no other line's end.
    path = _log(tmp_path / "s1.jsonl", f"{HEADER}\n{START % 1}")
    lines = log_lines(path)
    assert [next(lines), next(lines)] == [f"{HEADER}\n".encode(), (START % 1).encode()]
    with path.open("a") as handle:
        handle.write(f"\n{CHUNK % (2, 'x')}\n")
    assert list(lines) == []
    # Read from the start, the grown log's lines are all there.
    assert len(list(log_lines(path))) == 3


def test_a_streamed_log_is_never_held_whole(tmp_path: Path, ws: Path) -> None:
    log = _big_log(tmp_path / "home", ws, results=24, size=LINE_BLOCK // 4)
    size = log.stat().st_size
    tracemalloc.start()
    try:
        _, events = stream_log(log, check_first=False)
        taken = sum(1 for _ in events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert taken == 25
    # Before, the log's bytes were read whole first: the peak was over its size.
    assert peak < size / 2, (peak, size)


@pytest.mark.parametrize("reader", [_read, _as_taken], ids=["read", "as-taken"])
def test_a_line_is_made_without_a_copy_of_it(tmp_path: Path, ws: Path, reader: Reader) -> None:
    size = 4 * LINE_BLOCK
    log = _big_log(tmp_path / "home", ws, results=1, size=size)
    tracemalloc.start()
    try:
        _, events = reader(log)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(events) == 2
    # The line as read and the text made of it. Before, each line was copied without its
    # newline to be made: a third copy.
    assert peak < 2.5 * size, (peak, size)


def test_a_streamed_log_closes_its_file_however_the_reading_ends(tmp_path: Path, ws: Path) -> None:
    log = _big_log(tmp_path / "home", ws, results=3, size=LINE_BLOCK)
    _, events = stream_log(log, check_first=False)
    assert _opened(log) == 1  # open while it is read
    assert sum(1 for _ in events) == 4
    assert _opened(log) == 0
    _, events = stream_log(log, check_first=False)
    next(events)
    _close(events)
    assert _opened(log) == 0
    refused = _log(tmp_path / "refused.jsonl", '{"type": "not a header"}\n' + START % 1)
    with pytest.raises(CorruptLog, match="not a session header"):
        stream_log(refused, check_first=False)
    assert _opened(refused) == 0


def test_a_log_appended_to_while_it_is_streamed_is_read_to_its_new_end(
    tmp_path: Path, ws: Path
) -> None:
    path = _big_log(tmp_path / "home", ws, results=2, size=1000)
    _, events = stream_log(path, check_first=False)
    first = next(events)
    log = EventLog.open(path)
    log.append(_result(3, 10))
    log.close()
    assert [event.seq for event in [first, *events]] == [1, 2, 3, 4]


def _big_log(home: Path, ws: Path, results: int, size: int) -> Path:
    """A log of a call and `results` results of `size` characters each (one call: the
    results repeat its id, which only the first has to answer)."""
    log = SessionStore(home).create(ws)
    log.append(ToolCallEvent(tool_call_id="c1", name="read", arguments="{}"))
    for number in range(results):
        log.append(_result(number, size))
    log.close()
    return log.path


def _result(number: int, size: int) -> ToolResultEvent:
    return ToolResultEvent(tool_call_id="c1", content=(TextContent(text=f"{number}" + "x" * size),))


def _opened(path: Path) -> int:
    """How many of this process's descriptors have `path` open."""
    fds = Path("/proc/self/fd")
    targets = []
    for fd in os.listdir(fds):
        try:
            targets.append(os.readlink(fds / fd))
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
    return targets.count(str(path.resolve()))


def _close(events: Iterator[Event]) -> None:
    close = getattr(events, "close", None)
    assert close is not None
    close()
