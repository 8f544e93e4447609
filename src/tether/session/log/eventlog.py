"""The append-only event log on disk: one writer (a lock file), flush per event, fsync per turn."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal, TypeVar

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError, from_json

from tether.errors import CorruptLog, SessionLocked, UnusableCwd
from tether.lazy import logger
from tether.session._gc import gc_paused
from tether.session.log.events import (
    EVENT,
    HEADER,
    LOG_VERSION,
    Event,
    SessionHeader,
    ToolCallEvent,
    ToolResultEvent,
)
from tether.session.log.raw import MAX_HEADER_BYTES, log_lines, read_log_bytes

__all__ = [
    "MAX_HEADER_BYTES",
    "EventLog",
    "LogContents",
    "LogTail",
    "lock_log",
    "now",
    "read_header",
    "read_log",
    "read_log_bytes",
    "stream_log",
]

log = logger(__name__)  # `logging` loads when it first logs

E = TypeVar("E", bound=Event)

_SURROGATE = re.compile("[\ud800-\udfff]")


def now() -> str:
    """The current time as stored in the log: ISO 8601, UTC, milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class LogContents:
    """A log as read: its header, its events, and how many leading bytes are sound."""

    header: SessionHeader
    events: list[Event]
    sound_bytes: int
    """Bytes up to the end of the last good line; a torn tail after them is dropped."""
    missing_newline: bool
    """The last good line has no newline yet (it was cut right before it)."""


def read_log(path: Path) -> LogContents:
    """Read a whole log; a torn last line is dropped with a warning, anything else raises."""
    with gc_paused(), contextlib.closing(log_lines(path)) as lines:
        return _parse(path, lines)


def stream_log(path: Path, *, check_first: bool = True) -> tuple[SessionHeader, Iterator[Event]]:
    """`read_log`'s header and events, each event made only as it is taken (a long log's are
    never all held). With `check_first`, every line is checked before this returns, so a
    corrupt one raises here, with `read_log`'s error, before any event is handed out (the log's
    bytes are held meanwhile, so what was checked is what is handed out); without, each line
    is read and checked once, as it is taken, and the same error is raised there (for a caller
    that holds back what it makes until the log has been read to its end).
    """
    if not check_first:
        lines = log_lines(path)
        try:
            header = _header(path, next(lines, b"").removesuffix(b"\n"))
        except BaseException:
            lines.close()
            raise
        return header, _stream(path, lines, warn=True, held=False)
    data = read_log_bytes(path)
    end = data.find(b"\n")
    header = _header(path, data if end < 0 else data[:end])
    with gc_paused():
        for _ in _stream(path, _after_header(data), warn=True, held=False):
            pass
    return header, _stream(path, _after_header(data), warn=False, held=False)


def _after_header(data: bytes) -> Iterator[bytes]:
    """The lines of `data` after its first, each with its newline (but a last one cut before it)."""
    lines = iter(io.BytesIO(data))
    next(lines, None)
    return lines


def _stream(path: Path, lines: Iterator[bytes], *, warn: bool, held: bool) -> Iterator[Event]:
    """The events of the lines after a log's header, as `_parse` makes them, one at a time."""
    return _checked(path, lines, _Sound(), warn=warn, held=held)


class _Sound:
    """How a log's lines after its header ended, once `_checked` has taken them all."""

    __slots__ = ("bytes", "missing_newline")

    def __init__(self) -> None:
        self.bytes = 0
        """Bytes up to the end of the last good line."""
        self.missing_newline = False
        """The last good line has no newline (it was cut right before it)."""


def _checked(
    path: Path, lines: Iterator[bytes], sound: _Sound, *, warn: bool, held: bool = True
) -> Iterator[Event]:
    """The events of the lines after a log's header, each checked as `_event` checks it, and
    in `sound`, once all are taken, where the sound bytes end. Without `held` (each event is
    let go once taken), long lines are parsed with `_parsed_first`'s `"keys"`.

    A line is made with its newline (JSON's whitespace, after the value: the same event), so
    it is not copied without it; one that is not as it should be is checked again by `_event`,
    without its newline, which raises the error it has always had.
    """
    first = next(lines, None)
    if first is None:
        return  # no events: their validator is never built
    validate = EVENT.validator.validate_json  # built with the first line
    strings: Literal["all", "keys"] = "all" if held else "keys"
    calls: set[str] = set()
    seq = 1
    size = 0
    line = first
    # The first line, then the rest. Only a log's last line can lack its newline (the lines
    # end after one that does): that is looked at only when a line is refused, and after the
    # last, so that a good line costs no more than its making and its checks.
    try:
        for batch in ((first,), lines):
            for line in batch:
                length = len(line)
                event: Event
                try:
                    if length <= PARSED_FIRST_FROM:
                        event = validate(line)
                    else:
                        event = _parsed_first(line, strings)
                except ValidationError:
                    event = _UNMADE
                if event.seq != seq:
                    event = _refused(path, line, seq, calls, warn=warn)
                elif type(event) is ToolCallEvent:
                    calls.add(event.tool_call_id)
                elif type(event) is ToolResultEvent and event.tool_call_id not in calls:
                    event = _refused(path, line, seq, calls, warn=warn)
                yield event
                seq += 1
                size += length
    except _Torn:
        sound.bytes = size
        return
    sound.bytes = size
    sound.missing_newline = line[-1:] != b"\n"


class _Unmade:
    """What `_checked` takes for a line its validator refused: its seq is no line's."""

    seq = 0


_UNMADE: Any = _Unmade()


class _Torn(Exception):
    """A log's last line, cut before its newline, is not a whole event: it is dropped."""


def _refused(path: Path, line: bytes, seq: int, calls: set[str], *, warn: bool) -> Event:
    """A line `_checked` did not take, checked again by `_event`, which raises its error; but a
    last line cut before its newline is torn (`_Torn`, with a warning)."""
    if line[-1:] == b"\n":
        return _event(path, seq + 1, line[:-1], seq, calls)
    try:
        return _event(path, seq + 1, line, seq, calls)
    except CorruptLog as exc:
        if warn:
            log.warning("dropping a torn last line: %s", exc)
        raise _Torn from exc


def read_header(path: Path) -> SessionHeader:
    """Only the header line of a log (a session's id and cwd), checked as `read_log` does."""
    line = read_log_bytes(path, first_line=True)
    return _header(path, line.rstrip(b"\n"))


def _parse(path: Path, lines: Iterator[bytes]) -> LogContents:
    first = next(lines, b"")
    header = _header(path, first.removesuffix(b"\n"))
    if first[-1:] != b"\n":  # the header alone, without its newline
        return LogContents(header, [], len(first), True)
    sound = _Sound()
    events = list(_checked(path, lines, sound, warn=True))
    return LogContents(header, events, len(first) + sound.bytes, sound.missing_newline)


def _header(path: Path, line: bytes) -> SessionHeader:
    try:
        header = HEADER.validate_json(line)
    except ValidationError as exc:
        raise CorruptLog(f"{path}:1: not a session header: {_first_error(exc)}") from exc
    if header.version != LOG_VERSION:
        raise CorruptLog(
            f"{path}:1: session log version {header.version} is not supported "
            f"(this tether reads version {LOG_VERSION})"
        )
    if "\0" in header.cwd or not os.path.isabs(header.cwd):
        raise UnusableCwd(f"{path}:1: the cwd {header.cwd!r} is not an absolute path")
    return header


def _event(path: Path, number: int, line: bytes, seq: int, calls: set[str]) -> Event:
    """One event line, checked: its seq, and that a result answers a call made before it."""
    try:
        if len(line) < PARSED_FIRST_FROM:
            # The adapter's own validator (built at its first use): `TypeAdapter`'s checks of
            # its options were a fifth of a short line's cost.
            event: Event = EVENT.validator.validate_json(line)
        else:
            event = _parsed_first(line)
    except ValidationError as exc:
        raise CorruptLog(f"{path}:{number}: corrupt event: {_first_error(exc)}") from exc
    if event.seq != seq:
        raise CorruptLog(f"{path}:{number}: event seq {event.seq}, expected {seq}")
    if isinstance(event, ToolCallEvent):
        calls.add(event.tool_call_id)
    elif isinstance(event, ToolResultEvent) and event.tool_call_id not in calls:
        raise CorruptLog(
            f"{path}:{number}: tool/result for a call never made: {event.tool_call_id}"
        )
    return event


PARSED_FIRST_FROM = 4096
"""Lines of this many bytes or more are parsed first (`_parsed_first`); shorter ones, most of a
log's lines, hold too few values for that to pay for its second call."""


def _parsed_first(line: bytes, strings: Literal["all", "keys"] = "all") -> Event:
    """`EVENT.validate_json` of a long line, the same event or error.

    The line is parsed by `validate_json`'s own parser first (`from_json`: its limits,
    numbers, escapes and repeated keys are `validate_json`'s), and the data validated without
    a result's `meta`, which is any JSON: parsed, there is nothing left to check in it.
    `validate_json` builds a tree of the whole line in Rust before it makes Python objects of
    it; this makes them at once (a read window of 400 lines: a third less). Whatever this
    refuses is validated again by `validate_json`, so a bad line is refused with the error it
    always had.

    `strings` is the parser's `cache_strings`: with `"all"`, equal short strings (a read
    window's lines, read again and again) are one object, which a log held whole needs (a
    third less memory); `"keys"` makes each anew, which parses a long line faster (a read
    window: an eighth less) when its event is let go once taken. Either way, the same values.
    """
    try:
        data = from_json(line, cache_strings=strings)
    except ValueError:
        return _validated_json(line)  # raises the parser's error, as ever
    meta = _NO_META
    if type(data) is dict and data.get("type") == "tool/result":
        meta = data.pop("meta", _NO_META)
    try:
        event: Event = EVENT.validator.validate_python(data)
    except ValidationError:
        return _validated_json(line)  # raises the error of the JSON itself
    if meta is not _NO_META:
        # `meta` is `JsonValue`, any JSON: what `validate_json` would have made of it is what
        # the parser made. The event is frozen; its value is set as its validator sets it.
        object.__setattr__(event, "meta", meta)
    return event


_NO_META: Any = object()
"""`meta` left out of a line (its default stays)."""


def _validated_json(line: bytes) -> Event:
    """`EVENT`'s own validation of a line (the one that names what is wrong with it)."""
    event: Event = EVENT.validator.validate_json(line)
    return event


def _first_error(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]


class LogTail:
    """A log read as another process writes it: each `more()` parses only the whole lines
    appended since the last (a line still being written waits for its newline), checked as
    `read_log` checks them, so following a long session costs what it adds, not its length."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header: SessionHeader | None = None
        self._offset = 0
        self._lines = 0
        self._events = 0
        self._calls: set[str] = set()

    def more(self) -> list[Event]:
        """The events appended since the last call (the header is read with the first)."""
        data = read_log_bytes(self.path, offset=self._offset)
        whole = data[: data.rfind(b"\n") + 1]
        events: list[Event] = []
        for line in whole.split(b"\n")[:-1]:
            # Each line is taken once it parsed: a corrupt one raises, and is met again.
            if self.header is None:
                self.header = _header(self.path, line)
            else:
                seq = self._events + 1
                events.append(_event(self.path, self._lines + 1, line, seq, self._calls))
                self._events = seq
            self._lines += 1
            self._offset += len(line) + 1
        return events


class EventLog:
    """The writer of one session's log. Holds the session's lock until `close`."""

    def __init__(self, path: Path, contents: LogContents, lock: IO[bytes]) -> None:
        self.path = path
        self.header = contents.header
        self.events: list[Event] = contents.events
        self.call_ids: set[str] = {
            e.tool_call_id for e in self.events if isinstance(e, ToolCallEvent)
        }
        """Every call id the log has used (a new call needs one of its own)."""
        self.synced_seq = len(self.events)
        """The last seq known to be on disk (fsync'ed)."""
        self._lock = lock
        # Unbuffered: every append is its own write, so a failed one can be cut off again.
        self._file = path.open("r+b", buffering=0)
        # Cut a torn tail off before the first append lands after it.
        self._file.truncate(contents.sound_bytes)
        self._end = contents.sound_bytes
        self._file.seek(self._end)
        if contents.missing_newline:
            self._write(b"\n")

    @classmethod
    def create(cls, path: Path, header: SessionHeader, events: Sequence[Event] = ()) -> EventLog:
        """Start a new log with its header (and `events` as they are: a fork's copied ones,
        numbered from 1); the file must not exist."""
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = lock_log(path)
        try:
            data = HEADER.dump_json(header, by_alias=True) + b"\n"
            data += b"".join(EVENT.dump_json(e, by_alias=True) + b"\n" for e in events)
            with path.open("xb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            lock.close()
            raise
        return cls(path, LogContents(header, list(events), len(data), False), lock)

    @classmethod
    def open(cls, path: Path) -> EventLog:
        """Open an existing log to continue it."""
        lock = lock_log(path)
        try:
            return cls(path, read_log(path), lock)
        except BaseException:
            lock.close()
            raise

    def append(self, event: E) -> E:
        """Stamp the event with the next seq and the time, write it and flush; return it."""
        stamped = dataclasses.replace(event, seq=len(self.events) + 1, time=now())
        try:
            line = EVENT.dump_json(stamped, by_alias=True)
        except PydanticSerializationError:
            stamped, line = _without_surrogates(stamped)
        self._write(line + b"\n")
        self.events.append(stamped)
        if isinstance(stamped, ToolCallEvent):
            self.call_ids.add(stamped.tool_call_id)
        return stamped

    def _write(self, data: bytes) -> None:
        """Write all of `data` at the end, or nothing: a failed write (a full disk) is undone."""
        view = memoryview(data)
        try:
            while view:
                written = self._file.write(view)
                if not written:
                    raise OSError(f"{self.path}: the log accepted no bytes")
                view = view[written:]
        except OSError:
            # Leave no partial line for the next append to land after.
            with contextlib.suppress(OSError):
                self._file.truncate(self._end)
                self._file.seek(self._end)
            raise
        self._end += len(data)

    def sync(self) -> None:
        """Make every appended event durable (called at the end of each turn)."""
        os.fsync(self._file.fileno())
        self.synced_seq = len(self.events)

    @property
    def closed(self) -> bool:
        """Whether the log is closed (its lock released; nothing more may be appended)."""
        return self._file.closed

    def close(self) -> None:
        """Sync, close the file and release the lock."""
        if self._file.closed:
            return
        self.sync()
        self._file.close()
        self._lock.close()


def _without_surrogates(event: E) -> tuple[E, bytes]:
    # JSON from a client or a model may escape half a surrogate pair, which UTF-8 cannot
    # hold; it is stored as U+FFFD, and the event kept in memory is the one on disk.
    text = json.dumps(EVENT.dump_python(event, by_alias=True, mode="json"), ensure_ascii=False)
    stored = EVENT.validate_json(_SURROGATE.sub("\ufffd", text))
    assert isinstance(stored, type(event))
    return stored, EVENT.dump_json(stored, by_alias=True)


def lock_log(path: Path) -> IO[bytes]:
    """Take the writer's lock of the log at `path`; `SessionLocked` when another holds it."""
    # The lock file stays after close: deleting it would race with a writer that has just
    # opened it, leaving two writers holding locks on two different files (only deleting
    # the session removes it, after the log, which a late writer then no longer finds).
    import fcntl  # with the first writer: reading a log (`tether show`) takes no lock

    lock_path = path.with_suffix(".lock")
    handle = lock_path.open("ab")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SessionLocked(
            f"session {path.stem} is already open in another tether process "
            f"(lock held on {lock_path})"
        ) from None
    return handle
