"""Text `tether show` reads its log once: what it prints is held back until the last line is
read, so a corrupt line is still an error before anything is printed; with no room to hold it
back, the log is checked whole first instead. Held or not, the output is the same, stdout's
and stderr's in the order they came."""

from __future__ import annotations

import io
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.cli.held_logs import ROOM, LongLog, corrupted, shown, written
from tests.cli.support import TETHER
from tether.cli.held_output import IN_MEMORY, HeldOutput
from tether.content import TextContent
from tether.session import SessionStore
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> LongLog:
    """One long log and its whole output, shared: each test changes a copy of its own."""
    root = tmp_path_factory.mktemp("long-log")
    ws = root / "ws"
    ws.mkdir()
    # A paragraph per chunk: printed (held) as the log is read, which is what is held back.
    # Fewer, longer paragraphs print the same bytes for less: each costs its own layout.
    path = written(root / "home", ws.resolve(), 400, 2800, paragraphs=True)
    whole = shown(root / "home", "show", path.stem)
    assert whole.returncode == 0, whole.stderr
    assert len(whole.stdout) > ROOM  # the held text went to a temporary file, past the room
    return LongLog(root / "home", path.relative_to(root / "home"), whole)


def test_a_corrupt_last_line_of_a_long_log_prints_nothing(
    tmp_path: Path, long_log: LongLog
) -> None:
    home, path = long_log.copied(tmp_path)
    number = corrupted(path)
    done = shown(home, "show", path.stem)
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode() == (
        f"tether: error: {path}:{number}: event seq 1, expected {number - 1}\n"
    )


def test_with_no_room_to_hold_the_text_back_the_log_is_checked_first(
    tmp_path: Path, long_log: LongLog
) -> None:
    home, path = long_log.copied(tmp_path)
    whole = long_log.whole
    # No file may grow past `ROOM`: the temporary file holding the text fails to.
    cramped = shown(home, "show", path.stem, fsize=ROOM)
    assert cramped.returncode == 0, cramped.stderr
    assert (cramped.stdout, cramped.stderr) == (whole.stdout, whole.stderr)
    number = corrupted(path)
    failed = shown(home, "show", path.stem, fsize=ROOM)
    assert failed.returncode == 1
    assert failed.stdout == b""
    assert failed.stderr.decode() == (
        f"tether: error: {path}:{number}: event seq 1, expected {number - 1}\n"
    )


class Seen(io.StringIO):
    """A stream that also notes, in a list it shares, each write's stream and text."""

    def __init__(self, name: str, seen: list[tuple[str, str]]) -> None:
        super().__init__()
        self.name_ = name
        self.seen = seen

    def write(self, text: str) -> int:
        """Note the write, then keep it."""
        self.seen.append((self.name_, text))
        return super().write(text)


def test_held_writes_reach_their_streams_in_the_order_they_came() -> None:
    seen: list[tuple[str, str]] = []
    out, err = Seen("out", seen), Seen("err", seen)
    held = HeldOutput()
    held_out, held_err = held.stream(out), held.stream(err)
    writes = [(held_err, "session 1\n"), (held_out, "> hi ✓\n"), (held_out, "text\ud800\n")]
    writes += [(held_err, "stopped\n"), (held_out, "x" * (3 * IN_MEMORY)), (held_err, "end\n")]
    for stream, text in writes:
        assert stream.write(text) == len(text)
        stream.flush()
    assert seen == []  # nothing reaches a stream before the release
    assert held.release()
    names = {id(held_out): "out", id(held_err): "err"}
    assert seen == [(names[id(stream)], text) for stream, text in writes]


def test_what_cannot_be_held_is_not_written_at_all(tmp_path: Path) -> None:
    seen: list[tuple[str, str]] = []
    out = Seen("out", seen)
    saved = tempfile.tempdir
    tempfile.tempdir = str(tmp_path / "gone")  # the temporary file cannot be made
    try:
        held = HeldOutput()
        stream = held.stream(out)
        stream.write("first\n")
        stream.write("y" * (2 * IN_MEMORY))
        stream.write("after\n")
    finally:
        tempfile.tempdir = saved
    assert held.failed
    assert not held.release()
    assert seen == []


def test_with_no_room_to_hold_the_text_a_torn_last_line_is_said_once(
    tmp_path: Path, long_log: LongLog
) -> None:
    home, path = long_log.copied(tmp_path)
    with path.open("ab") as handle:
        handle.write(b'{"type":"turn/start","se')
    # No room to hold the text back: the log is read a second time, checked first.
    torn = shown(home, "show", path.stem, fsize=ROOM)
    assert torn.returncode == 0
    assert torn.stdout == long_log.whole.stdout
    said = [line for line in torn.stderr.decode().splitlines() if "torn" in line]
    last = len(path.read_bytes().split(b"\n"))
    assert said == [said[0]]
    assert said[0].startswith(f"tether: WARNING: dropping a torn last line: {path}:{last}: ")


@pytest.mark.parametrize("size", [100, 3 * IN_MEMORY], ids=["in memory", "in a file"])
def test_held_bytes_reach_a_file_or_a_buffer_whole_and_in_order(tmp_path: Path, size: int) -> None:
    file_target = (tmp_path / "out").open("w+b")
    for target in (io.BytesIO(), file_target):  # no descriptor: copied; a file: sent by the kernel
        seen: list[tuple[str, str]] = []
        err = Seen("err", seen)
        held = HeldOutput()
        write, held_err = held.binary(target), held.stream(err)
        pieces = [b"{", bytes(range(256)) * (size // 256), memoryview(b"-middle-")[1:-1], b"}"]
        target.write(b"before ")  # buffered, not yet flushed: it still comes first
        write(pieces[:1])
        held_err.write("between\n")
        write(pieces[1:])  # handed over together, written one after the other
        assert held.release()
        target.seek(0)
        assert target.read() == b"before " + b"".join(pieces)
        assert seen == [("err", "between\n")]
    file_target.close()


def test_many_small_writes_are_held_past_memory_and_released_whole() -> None:
    # Text `show` writes a line at a time: thousands of writes are in memory when the
    # temporary file is made, and all of them must reach it (a failure there would make the
    # command read and check its log twice).
    seen: list[tuple[str, str]] = []
    out = Seen("out", seen)
    held = HeldOutput()
    stream = held.stream(out)
    lines = [f"line {n}: {'w' * 40}\n" for n in range(3 * IN_MEMORY // 40)]
    for line in lines:
        stream.write(line)
    assert not held.failed
    assert held.release()
    assert "".join(text for _, text in seen) == "".join(lines)


def test_more_pieces_than_one_system_call_takes_are_held_past_memory_and_released_whole(
    tmp_path: Path,
) -> None:
    # The JSON document hands over a batch of pieces at a time: gathered past what the
    # system writes in one call (1,024 pieces), they are written by several.
    with (tmp_path / "out").open("w+b") as target:
        held = HeldOutput()
        write = held.binary(target)
        first = [b"[" * IN_MEMORY]
        pieces = [f"{n:04},".encode() for n in range(3000)]
        write(first)
        write(pieces)
        write([b"]"])
        assert not held.failed
        assert held.release()
        target.seek(0)
        assert target.read() == b"".join([*first, *pieces, b"]"])


def merged(
    home: Path, session: str, encoding: str, fsize: int | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`tether show` with stdout and stderr into one pipe, its standard streams in
    `encoding`, and its files limited to `fsize` bytes when given."""

    def limited() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "NO_COLOR": "1",
        "PYTHONIOENCODING": encoding,
    }
    return subprocess.run(
        [str(TETHER), "show", session],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        preexec_fn=limited,  # only setrlimit, before exec
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def turns_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A home and session (shared: only read) of turns that each stop at the output limit (a
    line on stderr), past what is held in memory, their text with a lone surrogate and
    characters ASCII lacks."""
    root = tmp_path_factory.mktemp("turns")
    (root / "ws").mkdir()
    log = SessionStore(root / "home").create((root / "ws").resolve())
    for turn in range(3):
        log.append(TurnStart())
        log.append(UserMessageEvent(content=(TextContent(text=f"Part {turn}, é ✓."),)))
        # A paragraph per chunk: printed (held) as the log is read.
        words = [
            "".join(f"{n}: déjà vu ✓ \ud800 " * 20 + "\n" for _ in range(16)) + "\n"
            for n in range(50)
        ]
        for word in words:
            log.append(AssistantChunk(text=word))
        log.append(AssistantMessageEvent(text="".join(words)))
        log.append(TurnEnd(stop_reason="max_tokens"))
    log.close()
    return root / "home", log.path.stem


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_held_or_not_both_streams_reach_one_pipe_in_order(
    turns_log: tuple[Path, str], encoding: str
) -> None:
    home, session = turns_log
    held = merged(home, session, encoding)
    assert held.returncode == 0, held.stdout[-500:]
    shown = held.stdout.decode(encoding)  # every byte the encoding's
    assert len(held.stdout) > IN_MEMORY
    marks = re.findall(r"> Part \d|stopped: the model reached its output limit", shown)
    stop = "stopped: the model reached its output limit"
    assert marks == ["> Part 0", stop, "> Part 1", stop, "> Part 2", stop]
    assert ("\ufffd" in shown) == (encoding == "utf-8")  # escaped where ASCII lacks it
    # With no room to hold the text (the temporary file cannot take what was in memory), it
    # is written as it is made: the same bytes.
    unheld = merged(home, session, encoding, fsize=IN_MEMORY // 2)
    assert unheld.returncode == 0
    assert unheld.stdout == held.stdout


_HOLDING = """
import json, os, sys
from tether.cli.held_output import IN_MEMORY, HeldOutput

held = HeldOutput()
with open(sys.argv[1], "wb") as out:
    write = held.binary(out)
    write([b"x" * IN_MEMORY, "déjà ✓".encode() * 1000])
    folder = os.environ["TMPDIR"]
    links = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            links.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass  # the listing's own descriptor, closed since
    unnamed = [link for link in links if link.endswith(" (deleted)")]
    loaded = "tempfile" in sys.modules
    assert held.release()
print(json.dumps({"unnamed": unnamed, "loaded": loaded}))
"""


@pytest.mark.parametrize("there", [True, False], ids=["folder", "no-folder"])
def test_output_past_memory_is_held_where_tempfile_would_hold_it(
    tmp_path: Path, there: bool
) -> None:
    # In the folder TMPDIR names, made by the system without loading tempfile (~3 ms of a
    # start); where that folder cannot take it, tempfile searches on as it always did.
    folder = tmp_path / "temporary"
    if there:
        folder.mkdir()
    out = tmp_path / "out"
    env = {**os.environ, "TMPDIR": str(folder)}
    done = subprocess.run(
        [sys.executable, "-c", _HOLDING, str(out)],
        capture_output=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert out.read_bytes() == b"x" * IN_MEMORY + "déjà ✓".encode() * 1000
    assert len(seen["unnamed"]) == 1
    assert seen["unnamed"][0].startswith(str(folder) + "/") is there
    assert seen["loaded"] is not there


_CHURNED = """
import resource, sys
from tether.cli import show
if sys.argv[1] == "replayed":
    list(show._collected(iter(())))
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
before = faults()
for _ in range(20):
    pieces = [b"x" * (4 << 20) for _ in range(3)]
    del pieces
print(faults() - before)
"""
"""Makes and frees three blocks of four megabytes twenty times, as the printing makes and frees
its pieces, and prints how many pages that faulted in; after a replay's start when asked.
Larger than anything the imports free (compiling a module's source frees a megabyte or two,
which raises glibc's thresholds as far). Alone, the first round's blocks are mapped, and
freeing them raises the mmap threshold past a block and the trim threshold to twice that: the
next rounds' blocks come from the heap, and three of them freed together always pass the trim
threshold, so the heap's top is given back each round (two were given back or not as the free
room the imports left at the top happened to be). After the replay's start (thresholds raised
by its 8 MiB room to 8 and 16 MiB) the twelve megabytes stay."""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc thresholds")
def test_what_printing_frees_stays_in_the_heap_to_be_used_again() -> None:
    def faulted(after: str) -> int:
        done = subprocess.run(
            [sys.executable, "-c", _CHURNED, after],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return int(done.stdout)

    pages = 8 * (1 << 20) // resource.getpagesize()
    # Alone, each round's megabytes were mapped, or the heap's top given back, and faulted in
    # again; once a replay has started they stay in the heap: faulted in once, then used again.
    assert faulted("alone") > 10 * pages
    assert faulted("replayed") < 2 * pages
