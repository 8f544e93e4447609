"""`tether show ID`: a stored session, rendered from its log exactly as it was shown live."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

from tether.cli.held_output import HeldOutput, said_once
from tether.cli.home_args import add_home_argument, use_home
from tether.cli.model_args import add_verbose_argument
from tether.cli.safe_output import consoles, is_utf8, safe_text
from tether.lazy import logger, pattern
from tether.session import SessionStore
from tether.session.log import eventlog
from tether.session.log.events import SessionHeader
from tether.session.replay import replayed
from tether.session.updates import ClientUpdate
from tether.tools.defaults import replay_tools

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["configure", "run"]

log = logger(__name__)  # `logging` loads when it first logs

_EMOJI_CODE = pattern(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")
"""What rich reads as an emoji code (`:name:`, `:name-emoji:`): its own pattern
(`rich._emoji_replace`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `tether show`."""
    parser.add_argument("id", help="the session id (a unique prefix is enough)")
    parser.add_argument("--json", action="store_true", help="print the updates as JSON")
    add_home_argument(parser)
    add_verbose_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Replay the log through the same printer a live run uses."""
    try:
        use_home(args)
    except ValueError as exc:
        consoles()[1].print(f"tether: error: {exc}", markup=False, soft_wrap=True)
        return 2
    store = SessionStore.default()
    session = store.resolve(args.id)
    if args.json:
        from tether.cli.show_json import print_session  # the JSON form only

        print_session(lambda check_first: _replayed(store, session, check_first, paused=True))
        return 0
    # Read once: each line is checked as its event is made, replayed and printed; what is
    # printed is held back until the last line is read, so a corrupt line is still an error
    # before anything shows. Should holding it fail, the log is checked whole first and the
    # session printed as it is replayed.
    with said_once(eventlog.log):  # a log read twice warns of a torn last line once
        held = HeldOutput()
        try:
            out, err = consoles(settled=True)  # rich, for the text form only
            gathered = _Gathered(_held_stdout(held, out.file))
            out.file = cast(IO[str], gathered)
            err.file = cast(IO[str], _AfterGathered(gathered, held.stream(err.file)))
            replayed = _replayed(store, session, check_first=False)
            status = _print_text(*replayed, out, err, args.full)
            gathered.hand_over()
            if held.release():
                return status
        finally:
            held.close()
        log.debug("could not hold the text back; checking the log first")
        out, err = consoles(settled=True)
        return _print_text(*_replayed(store, session, check_first=True), out, err, args.full)


def _held_stdout(held: HeldOutput, file: IO[str]) -> IO[str]:
    """stdout's text, held: on a UTF-8 stdout as the bytes its safe stream would write there,
    released to its buffer as they are (not decoded and encoded again, as held text is)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None or not is_utf8(getattr(sys.stdout, "encoding", None) or ""):
        return held.stream(file)
    sys.stdout.flush()  # what went through the text layer first stays first
    return cast(IO[str], _HeldUtf8(held.binary(buffer), file))


class _Gathered:
    """stdout's writes gathered, and handed to `target` a batch at a time: when enough wait,
    before anything is written to stderr (`_AfterGathered`), and before the output is
    released (a card or a line of text at a time cost holding each as much as writing it)."""

    def __init__(self, target: IO[str]) -> None:
        self._target = target
        self._pending: list[str] = []

    def write(self, text: str) -> int:
        """Gather `text`."""
        self._pending.append(text)
        if len(self._pending) >= _GATHERED:
            self.hand_over()
        return len(text)

    def hand_over(self) -> None:
        """Write what was gathered to the target, as one piece."""
        if self._pending:
            text = "".join(self._pending)
            self._pending = []
            self._target.write(text)

    def flush(self) -> None:
        """Nothing to flush: the text waits for `release` (`hand_over` before it)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


class _AfterGathered:
    """stderr's stream, whose every write comes after what stdout's `_Gathered` holds."""

    def __init__(self, first: _Gathered, target: IO[str]) -> None:
        self._first = first
        self._target = target

    def write(self, text: str) -> int:
        """Write `text` after what stdout was given before it."""
        self._first.hand_over()
        return self._target.write(text)

    def flush(self) -> None:
        """The target's flush."""
        self._target.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


_GATHERED = 256
"""stdout's writes gathered into one."""


class _HeldUtf8:
    """A text stream whose writes are held as UTF-8, lone surrogates made U+FFFD as
    `SafeStream` makes them; everything else (encoding, isatty, fileno) is `file`'s."""

    def __init__(self, hold: Callable[[Sequence[bytes]], None], file: IO[str]) -> None:
        self._hold = hold
        self._file = file

    def write(self, text: str) -> int:
        """Hold `text`'s bytes."""
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: made what the safe stream makes it
            data = safe_text(text, "utf-8").encode("utf-8")
        self._hold((data,))
        return len(text)

    def flush(self) -> None:
        """Nothing to flush: the bytes wait for `release`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def _emoji_free(text: str) -> bool:
    """Whether rich's emoji codes leave `text` as it is, known without loading their table (a
    fiftieth of a text show's start): every code it could read names a two-digit number (the
    minutes of a time), and no emoji has such a name."""
    return all(
        len(name) == 2 and name.isdigit()
        for name in (code.group(2) for code in _EMOJI_CODE.finditer(text))
    )


def _print_text(
    header: SessionHeader,
    updates: Iterator[ClientUpdate],
    out: Console,
    err: Console,
    full: bool,
) -> int:
    """The session's text through the printer a live run uses; its exit status."""
    line = f"session {header.id} · {header.cwd} · {header.created_at}"
    err.print(line, style="dim", markup=False, emoji=not _emoji_free(line))
    if header.parent is not None:
        # A child: where it came from, and how to see the card its parent showed.
        err.print(
            f"an agent's session, started by call {header.parent.call_id} of session "
            f"{header.parent.id} (tether show {header.parent.id})",
            style="dim",
            markup=False,
        )
    from tether.cli.printer import Printer  # rich's Markdown and the cards: the text form only

    printer = Printer(out, err, full=full)
    for update in updates:
        printer(update)
    printer.close()
    return 1 if printer.failed else 0


def _replayed(
    store: SessionStore, session: str, check_first: bool, *, paused: bool = False
) -> tuple[SessionHeader, Iterator[ClientUpdate]]:
    """The session's header and its updates, each made as it is taken (`SessionStore.stream`
    says what `check_first` does); `_collected` says what `paused` does."""
    header, events = store.stream(session, check_first=check_first)
    return header, _collected(replayed(events, replay_tools(), header.cwd), paused)


def _collected(updates: Iterator[ClientUpdate], paused: bool = False) -> Iterator[ClientUpdate]:
    """`updates`, the objects made before (the imports') set aside meanwhile (frozen), so that
    a collection does not walk them, and the heap keeping what printing frees (`_heap_kept`).

    For text the collector is left running: what printing an update makes and drops (rich's
    segments, Markdown's tokens) is freed as it goes, not held to the end. `paused` (the JSON
    form) pauses it instead: the replay and the JSON made of it (plain dataclasses, pydantic's
    and orjson's bytes) make no reference cycles, so all they drop is freed as it is dropped
    (tests/cli/test_show_json_once.py finds nothing for a collection after a long session),
    and the collections ran for nothing (3 ms of the realistic log's document)."""
    _heap_kept()
    gc.freeze()
    running = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield from updates
    finally:
        gc.unfreeze()
        if running:
            gc.enable()


_HEAP_ROOM = 8 << 20
"""The size of the block `_heap_kept` frees: past the largest piece of output made at once
(a read window's JSON is a few hundred kilobytes), and well below the 32 MiB glibc allows."""


def _heap_kept() -> None:
    """Let the memory that printing frees stay in the heap, to be used again.

    Printing makes and frees large buffers all along: each read window's JSON (150 KB on the
    realistic log), the megabyte of pieces held before a write, rich's lines. glibc's malloc
    maps a block past its mmap threshold (128 KiB to start) anew each time, and gives the
    heap's top back to the system whenever more than its trim threshold lies free there, so
    the same buffers' pages were faulted in again and again: `show --json` of the realistic
    log took 12,000 page faults or 8,300, as what the process had freed before happened to
    raise those thresholds or not. Freeing a mapped block raises them to its size and twice
    that (mallopt(3), the dynamic mmap threshold), so one untouched block is made and freed
    here: `bytes` asks for it zeroed (calloc), a fresh mapping is zeroed already, and no page
    of it is touched. What stays free in the heap is at most what printing held at once (the
    peak memory is unchanged). Another allocator just makes and frees a block."""
    bytes(_HEAP_ROOM)
