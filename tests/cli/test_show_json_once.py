"""`tether show --json` reads its log once: each line is checked as its event is made, and the
document is held back until the last line is read, so a corrupt line is still an error before
anything is printed; with no room to hold it back, the log is checked whole first instead."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from types import FrameType

import pytest
from pydantic_core import from_json, to_json

from tests.cli.held_logs import ROOM, LongLog, corrupted, shown, written
from tests.cli.in_process import tether_in_process
from tests.cli.support import TETHER
from tether.cli import show, show_json
from tether.cli.held_output import IN_MEMORY
from tether.content import TextContent
from tether.errors import CorruptLog
from tether.session import SessionStore
from tether.session.log.eventlog import read_log, stream_log
from tether.session.log.events import EVENT, TurnEnd, TurnStart, UserMessageEvent
from tether.session.updates import AgentText, UserText


def test_each_line_of_the_log_is_made_into_its_event_once(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    path = written(home, ws, 40, size=50)
    events = len(path.read_bytes().splitlines()) - 1
    done, made = _shown_counting_events(home, path.stem, "--json")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["updates"]) == 42
    # Checked in a pass of its own first, then made again to be shown, it was 2 x events.
    assert made == events


@pytest.mark.parametrize("form", [[], ["--json"]], ids=["text", "json"])
def test_a_session_past_what_is_held_in_memory_is_read_once(
    tmp_path: Path, ws: Path, form: list[str]
) -> None:
    # Prompts of a kilobyte: over a thousand writes are in memory when the temporary file is
    # made, and the rest follow; had holding failed, the log was checked first, then replayed.
    home = tmp_path / "home"
    log = SessionStore(home).create(ws)
    for number in range(1500):
        log.append(TurnStart())
        log.append(UserMessageEvent(content=(TextContent(text=f"{number} " + "ask " * 250),)))
        log.append(TurnEnd(stop_reason="end_turn"))
    log.close()
    done, made = _shown_counting_events(home, log.path.stem, *form)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.encode()) > IN_MEMORY
    assert made == 3 * 1500


def _shown_counting_events(home: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """`tether show ARGS` in this process, and how many log lines were made into events (each
    by one call of the event's validator or, a long one, of the parser)."""
    made = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal made
        if event == "c_call":
            made += arg is from_json or getattr(arg, "__self__", None) is EVENT.validator

    sys.setprofile(count)
    try:
        done = tether_in_process(home, "show", *args)
    finally:
        sys.setprofile(None)
    return done, made


def test_unchecked_first_a_corrupt_line_raises_where_it_is_taken(tmp_path: Path, ws: Path) -> None:
    path = written(tmp_path / "home", ws, 3, size=20)
    number = corrupted(path)
    with pytest.raises(CorruptLog, match=rf":{number}: event seq 1, expected {number - 1}$"):
        stream_log(path)
    _, events = stream_log(path, check_first=False)
    taken = [next(events) for _ in range(number - 2)]
    assert [event.seq for event in taken] == list(range(1, number - 1))
    with pytest.raises(CorruptLog, match=rf":{number}: event seq 1, expected {number - 1}$"):
        next(events)


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> LongLog:
    """One long log and its whole document, shared: a test that changes it changes a copy."""
    root = tmp_path_factory.mktemp("long-log")
    (root / "ws").mkdir()
    path = written(root / "home", (root / "ws").resolve(), 3000)
    assert path.stat().st_size > 2 * IN_MEMORY  # the held document goes to a temporary file
    whole = shown(root / "home", "show", path.stem, "--json")
    assert whole.returncode == 0, whole.stderr
    assert len(whole.stdout) > ROOM
    return LongLog(root / "home", path.relative_to(root / "home"), whole)


def test_a_corrupt_last_line_of_a_long_log_prints_nothing(
    tmp_path: Path, long_log: LongLog
) -> None:
    home, path = long_log.copied(tmp_path)
    number = corrupted(path)
    done = shown(home, "show", path.stem, "--json")
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode() == (
        f"tether: error: {path}:{number}: event seq 1, expected {number - 1}\n"
    )


def test_with_no_room_to_hold_the_document_back_the_log_is_checked_first(
    tmp_path: Path, long_log: LongLog
) -> None:
    home, path = long_log.copied(tmp_path)
    whole = long_log.whole
    # No file may grow past `ROOM`: the temporary file holding the document fails to.
    cramped = shown(home, "show", path.stem, "--json", fsize=ROOM)
    assert cramped.returncode == 0, cramped.stderr
    assert cramped.stderr == b""
    assert cramped.stdout == whole.stdout
    told = shown(home, "-v", "show", path.stem, "--json", fsize=ROOM)
    assert b"could not hold the document back" in told.stderr
    assert told.stdout == whole.stdout
    with path.open("ab") as handle:
        handle.write(b'{"type":"turn/start","se')
    torn = shown(home, "show", path.stem, "--json", fsize=ROOM)
    assert torn.stdout == whole.stdout
    # Read twice, the log is still said to end in a torn line once.
    [said] = torn.stderr.decode().splitlines()
    last = len(path.read_bytes().split(b"\n"))
    assert said.startswith(f"tether: WARNING: dropping a torn last line: {path}:{last}: ")
    number = corrupted(path)
    failed = shown(home, "show", path.stem, "--json", fsize=ROOM)
    assert failed.returncode == 1
    assert failed.stdout == b""
    assert failed.stderr.decode() == (
        f"tether: error: {path}:{number}: event seq 1, expected {number - 1}\n"
    )


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_a_held_document_reads_the_same_in_any_encoding(long_log: LongLog, encoding: str) -> None:
    env = {**os.environ, "TETHER_HOME": str(long_log.home), "PYTHONIOENCODING": encoding}
    other = subprocess.run(
        [str(TETHER), "show", long_log.log.stem, "--json"],
        capture_output=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert other.returncode == 0, other.stderr
    # Cut into pieces of a MiB on the way out, no character is split: it decodes strictly.
    utf8 = long_log.whole.stdout.decode()
    assert json.loads(other.stdout.decode(encoding)) == json.loads(utf8)


def test_the_updates_classes_are_as_they_were_after_a_show(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    path = written(home, ws, 3, size=20)
    plain = to_json(AgentText(text="x"))
    done = tether_in_process(home, "show", path.stem, "--json")
    assert done.returncode == 0, done.stderr
    assert '"kind": "agent_text"' in done.stdout
    # The serializers `show --json` gives the update classes are taken off again.
    assert not any(hasattr(kind, "__pydantic_serializer__") for kind in (AgentText, UserText))
    assert to_json(AgentText(text="x")) == plain


GOLDEN = Path(__file__).parent / "show" / "sessions"
"""Logs of real runs: a call of every tool, text, thinking, jobs, failures."""

WRITING = {show._collected.__code__, show_json._batch_json.__code__}
"""Code on the stack while the document's updates are made (the replay) and dumped."""


def test_the_document_is_made_with_the_collector_paused_and_leaves_it_nothing(
    tmp_path: Path, ws: Path
) -> None:
    # Every golden session's events, forty times over in one session (7,760 updates).
    home = tmp_path / "home"
    events = [event for path in sorted(GOLDEN.glob("*.jsonl")) for event in read_log(path).events]
    log = SessionStore(home).create(ws)
    for _ in range(40):
        for event in events:
            log.append(event)
    log.close()
    collections: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        frame: FrameType | None = sys._getframe()
        while frame is not None and phase == "start":
            if frame.f_code in WRITING:
                collections.append(info["generation"])
                return
            frame = frame.f_back

    gc.collect()
    gc.callbacks.append(seen)
    try:
        done = tether_in_process(home, "show", log.path.stem, "--json")
    finally:
        gc.callbacks.remove(seen)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["updates"]) == 40 * 194
    assert collections == []  # running, it collected the youngest generation dozens of times
    # Nor did it need to: the replay and its JSON make no reference cycles, so a collection
    # after the whole session finds only the few hundred objects of the command's own start
    # (the first use of schemas), as after a session of one round.
    assert gc.collect() < 1_000
