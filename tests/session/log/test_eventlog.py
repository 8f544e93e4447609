"""The event log on disk: header, seq, durability, the one-writer lock, and careful loading."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from tests.session.helpers import EchoTool, Recorder, Sessions, call, log_lines, script, text
from tether.content import TextContent
from tether.errors import CorruptLog, SessionLocked
from tether.session import SessionStore
from tether.session.log.eventlog import EventLog, read_log
from tether.session.log.events import AssistantChunk, TurnStart, UserMessageEvent


async def test_log_has_a_header_then_numbered_events(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    model = script({"text": "hi", "toolCalls": [call("c1", "echo", {"text": "x"})]}, {"text": "ok"})
    session = sessions.new(ws, model, [EchoTool()])
    await session.prompt(text("hello"), Recorder())
    lines = log_lines(session, home)
    header = lines[0]
    assert header == {
        "type": "session",
        "version": 1,
        "id": session.id,
        "cwd": str(ws),
        "createdAt": header["createdAt"],
    }
    assert header["createdAt"].endswith("Z")
    events = lines[1:]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all(list(e)[:3] == ["type", "seq", "time"] for e in events)
    assert [e["type"] for e in events] == [
        "turn/start",
        "user/message",
        "session/title",
        "assistant/chunk",
        "assistant/message",
        "checkpoint",  # before the first tool runs: the workspace as the prompt found it
        "tool/call",
        "tool/result",
        "assistant/chunk",
        "assistant/message",
        "turn/end",
    ]
    assert events[4]["toolCalls"] == [{"id": "c1", "name": "echo", "arguments": '{"text": "x"}'}]
    assert events[7] == {
        "type": "tool/result",
        "seq": 8,
        "time": events[7]["time"],
        "toolCallId": "c1",
        "content": [{"type": "text", "text": "x"}],
        "isError": False,
        "meta": {"length": 1},
    }
    assert events[-1]["stopReason"] == "end_turn"


async def test_every_event_is_flushed_and_the_turn_end_is_synced(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    session = sessions.new(ws, script({"text": "ok"}))
    await session.prompt(text("hello"), Recorder())
    # Another reader sees every event while the writer is still open...
    assert len(read_log(home / "sessions" / f"{session.id}.jsonl").events) == len(session.events)
    # ...and the writer fsync'ed up to the turn's end.
    assert session._log.synced_seq == len(session.events)


def test_a_second_writer_in_this_process_is_refused(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    first = store.create(ws)
    with pytest.raises(SessionLocked, match="already open in another tether process"):
        store.open(first.header.id)
    first.close()
    store.open(first.header.id).close()


def test_a_second_writer_in_another_process_is_refused(home: Path, ws: Path) -> None:
    store = SessionStore(home)
    log = store.create(ws)
    code = (
        "import sys; from pathlib import Path; from tether.session import SessionStore\n"
        "try:\n"
        "    SessionStore(Path(sys.argv[1])).open(sys.argv[2])\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    argv = [sys.executable, "-c", code, str(home), log.header.id]
    held = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60)
    assert held.stdout.startswith("SessionLocked session ")
    log.close()
    free = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60)
    assert free.stdout == ""


def _write(path: Path, *lines: str, tail: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines) + tail)


HEADER = json.dumps(
    {"type": "session", "version": 1, "id": "s1", "cwd": "/w", "createdAt": "2026-01-01T00:00:00Z"}
)
START = '{"type":"turn/start","seq":1,"time":"2026-01-01T00:00:01Z"}'
USER = (
    '{"type":"user/message","seq":2,"time":"2026-01-01T00:00:02Z",'
    '"content":[{"type":"text","text":"hi"}]}'
)


def test_a_torn_last_line_is_dropped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, START, tail='{"type":"user/mess')
    with caplog.at_level(logging.WARNING):
        contents = read_log(path)
    assert [e.type for e in contents.events] == ["turn/start"]
    assert "dropping a torn last line" in caplog.text
    assert f"{path}:3" in caplog.text


def test_appending_after_a_torn_tail_replaces_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, START, tail='{"type":"user/mess')
    with caplog.at_level(logging.WARNING):
        log = EventLog.open(path)
    log.append(UserMessageEvent(content=(TextContent(text="again"),)))
    log.close()
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    assert json.loads(lines[2])["seq"] == 2
    assert [e.type for e in read_log(path).events] == ["turn/start", "user/message"]


def test_a_complete_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, tail=START)
    log = EventLog.open(path)
    assert [e.type for e in log.events] == ["turn/start"]
    log.append(AssistantChunk(text="x"))
    log.close()
    assert [e.seq for e in read_log(path).events] == [1, 2]


def test_a_corrupt_middle_line_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, START, "{not json", USER)
    with pytest.raises(CorruptLog, match=rf"^{path}:3: corrupt event"):
        read_log(path)


def test_a_result_for_a_call_never_made_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    result = '{"type":"tool/result","seq":3,"time":"t","toolCallId":"c9","content":[]}'
    _write(path, HEADER, START, USER, result)
    with pytest.raises(CorruptLog, match=rf"^{path}:4: tool/result for a call never made: c9"):
        read_log(path)


def test_an_unknown_event_type_is_an_error_not_a_skip(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, '{"type":"turn/strat","seq":1,"time":"t"}', USER)
    with pytest.raises(CorruptLog, match=rf"^{path}:2: "):
        read_log(path)


def test_a_gap_in_seq_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, START, USER.replace('"seq":2', '"seq":3'))
    with pytest.raises(CorruptLog, match=rf"^{path}:3: event seq 3, expected 2"):
        read_log(path)


def test_another_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER.replace('"version": 1', '"version": 2'), START)
    with pytest.raises(CorruptLog, match=rf"^{path}:1: session log version 2 is not supported"):
        read_log(path)


def test_a_file_that_is_not_a_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, '{"hello": "world"}')
    with pytest.raises(CorruptLog, match=rf"^{path}:1: not a session header"):
        read_log(path)


def test_events_round_trip_through_the_log(tmp_path: Path, ws: Path) -> None:
    store = SessionStore(tmp_path)
    log = store.create(ws)
    written = [
        log.append(TurnStart()),
        log.append(UserMessageEvent(content=(TextContent(text="é <x>"),))),
    ]
    log.close()
    assert store.read(log.header.id).events == written


async def test_a_lone_surrogate_is_stored_as_a_replacement_character(
    home: Path, ws: Path, sessions: Sessions
) -> None:
    # JSON from a client or a model may escape half a surrogate pair; UTF-8 cannot hold it.
    model = script({"toolCalls": [call("c1", "echo", {"text": "x"})]}, {"text": "ok"})
    model.turns = (model.turns[0].model_copy(update={"text": "a\ud800b"}), *model.turns[1:])
    session = sessions.new(ws, model, [EchoTool()])
    recorder = Recorder()
    assert await session.prompt(text("hi\udc80"), recorder) == "end_turn"
    lines = log_lines(session, home)
    assert lines[2]["content"] == [{"type": "text", "text": "hi\ufffd"}]
    assert [e["text"] for e in lines if e["type"] == "assistant/message"] == ["a\ufffdb", "ok"]
    assert session.replay() == recorder.updates
    assert read_log(home / "sessions" / f"{session.id}.jsonl").events == list(session.events)


_FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from tether.session import SessionStore
from tether.session.log.events import AssistantChunk

log = SessionStore(Path(sys.argv[1])).create(Path(sys.argv[2]))
# A file-size limit stands in for a full disk: the write that crosses it fails part way.
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
size = log.path.stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 1000, resource.RLIM_INFINITY))
written = 0
try:
    while True:
        log.append(AssistantChunk(text="x" * 150))
        written += 1
except OSError as exc:
    print(written, exc.errno)
"""


def test_a_write_that_fails_part_way_leaves_no_partial_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _FULL_DISK, str(tmp_path / "home"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    written, errno = map(int, done.stdout.split())
    assert written >= 3
    assert errno == 27  # EFBIG: the write crossed the limit
    [path] = (tmp_path / "home" / "sessions").glob("*.jsonl")
    data = path.read_bytes()
    assert data.endswith(b"\n")
    assert len(read_log(path).events) == written


def test_a_torn_first_event_line_is_dropped_too(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "sessions" / "s1.jsonl"
    _write(path, HEADER, tail='{"type":"turn/sta')
    with caplog.at_level(logging.WARNING):
        contents = read_log(path)
    assert contents.events == []
    assert contents.sound_bytes == len(HEADER) + 1
    assert f"{path}:2" in caplog.text


_EMPTY_LOG = """
import sys
from pathlib import Path
from pydantic._internal._mock_val_ser import MockValSer
from tether.session.log.eventlog import stream_log
from tether.session.log.events import EVENT
for check_first in (True, False):
    header, events = stream_log(Path(sys.argv[1]), check_first=check_first)
    print(header.id, list(events), isinstance(EVENT.validator, MockValSer))
header, events = stream_log(Path(sys.argv[2]), check_first=False)
print([e.type for e in events], isinstance(EVENT.validator, MockValSer))
"""


def test_a_log_without_events_never_builds_their_validator(tmp_path: Path) -> None:
    empty, started = tmp_path / "empty.jsonl", tmp_path / "started.jsonl"
    _write(empty, HEADER)
    _write(started, HEADER, START)
    argv = [sys.executable, "-c", _EMPTY_LOG, str(empty), str(started)]
    shown = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60)
    assert shown.stdout.splitlines() == ["s1 [] True", "s1 [] True", "['turn/start'] False"]
