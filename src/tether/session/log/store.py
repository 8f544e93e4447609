"""Where sessions live: `<data dir>/sessions/<id>.jsonl`, and how to list them.

Listing reads a few bytes of each log with no validation library: `tether sessions` loads
only this module. The log machinery (`tether.session.log.eventlog`, the event types) loads with the
first method that opens a log.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tether.errors import RewindError, SessionNotFound
from tether.home import data_dir
from tether.jsontext import parse_json
from tether.session.log.parent import ParentLink
from tether.session.log.raw import read_log_bytes

if TYPE_CHECKING:
    from tether.session.log.eventlog import EventLog, LogContents
    from tether.session.log.events import Event, SessionHeader

__all__ = ["SessionStore", "StoredSession", "data_dir", "fork_cut", "last_lines"]

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TURN = b'\n{"type":"turn/start"'
_TITLE = b'\n{"type":"session/title"'
_USAGE = b'\n{"type":"model/usage"'


@dataclass(frozen=True)
class StoredSession:
    """One line of `tether sessions`."""

    id: str
    cwd: str
    title: str | None
    """`null` on the wire until the first prompt sets it."""
    created_at: str
    updated_at: str
    turns: int
    parent: ParentLink | None = None
    cost_usd: float | None = 0.0
    """What its own model responses cost in US dollars (`None`, left out of the JSON: a price
    is unknown)."""
    """The session that started this one through a `task` call (absent for a top-level one)."""

    def wire(self) -> dict[str, Any]:
        """Its JSON form (`tether sessions --json`): camelCase, `parent` only when it has one."""
        data: dict[str, Any] = {
            "id": self.id,
            "cwd": self.cwd,
            "title": self.title,
            "createdAt": self.created_at,
            "updatedAt": self.updated_at,
            "turns": self.turns,
        }
        if self.cost_usd is not None:
            data["costUsd"] = self.cost_usd
        if self.parent is not None:
            data["parent"] = {"id": self.parent.id, "callId": self.parent.call_id}
        return data


class SessionStore:
    """The sessions under one data directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sessions_dir = root / "sessions"

    @classmethod
    def default(cls) -> SessionStore:
        """The store in `data_dir()`."""
        return cls(data_dir())

    def path(self, session_id: str) -> Path:
        """The log file of a session id (which must be a plain name)."""
        if not _ID.fullmatch(session_id):
            raise SessionNotFound(f"not a session id: {session_id!r}")
        return self.sessions_dir / f"{session_id}.jsonl"

    def new_id(self) -> str:
        """An id for a session not created yet, so what serves it can be built first."""
        # Time first, so ids sort by creation; random after, so two at once never collide.
        import secrets  # and `hashlib`: milliseconds that listing sessions, making no id, skips

        return f"{time.time_ns() // 1_000_000:012x}{secrets.token_hex(4)}"

    def create(
        self, cwd: Path, session_id: str | None = None, parent: ParentLink | None = None
    ) -> EventLog:
        """A new, locked log for a session in `cwd`, under `session_id` or a new id.

        `parent` links a child session to the session and call that started it.
        """
        from tether.session.log.eventlog import EventLog, now
        from tether.session.log.events import SessionHeader

        session_id = self.new_id() if session_id is None else session_id
        header = SessionHeader(id=session_id, cwd=str(cwd), created_at=now(), parent=parent)
        return EventLog.create(self.path(session_id), header)

    def fork(
        self, source_id: str, prompt: int | None = None, session_id: str | None = None
    ) -> EventLog:
        """A new, locked log (under `session_id` or a new id) that starts with `source_id`'s
        events before prompt `prompt` (`None`: every finished prompt); its header says so."""
        from tether.session.log.eventlog import EventLog, now
        from tether.session.log.events import ForkPoint, SessionHeader

        contents = self.read(source_id)
        cut = fork_cut(contents.events, prompt)
        header = SessionHeader(
            id=self.new_id() if session_id is None else session_id,
            cwd=contents.header.cwd,
            created_at=now(),
            forked_from=ForkPoint(id=source_id, seq=cut),
        )
        return EventLog.create(self.path(header.id), header, contents.events[:cut])

    def open(self, session_id: str) -> EventLog:
        """The locked log of an existing session, to continue it."""
        from tether.session.log.eventlog import EventLog

        return EventLog.open(self._existing(session_id))

    def header(self, session_id: str) -> SessionHeader:
        """Only a session's header (its cwd), read without the lock and without its events."""
        from tether.session.log.eventlog import read_header

        return read_header(self._existing(session_id))

    def read(self, session_id: str) -> LogContents:
        """A session's log, read only (no lock: a running session can be shown)."""
        from tether.session.log.eventlog import read_log

        return read_log(self._existing(session_id))

    def stream(
        self, session_id: str, *, check_first: bool = True
    ) -> tuple[SessionHeader, Iterator[Event]]:
        """A session's header and events, read as `read` reads them but each event made only
        as it is taken (`tether show`: a long log's events are never all held); see
        `stream_log` for `check_first`."""
        from tether.session.log.eventlog import stream_log

        return stream_log(self._existing(session_id), check_first=check_first)

    def delete(self, session_id: str) -> None:
        """Remove a session's log; `SessionLocked` when a process has it open."""
        from tether.session.log.eventlog import lock_log

        path = self._existing(session_id)
        lock = lock_log(path)
        try:
            path.unlink()
            # A restore's journal goes with its session: nothing would finish it now.
            path.with_name(f"{session_id}.restore.json").unlink(missing_ok=True)
            # So does the copy hooks read (`tether.hooks.transcript`).
            (path.parent / "transcripts" / path.name).unlink(missing_ok=True)
            # And the fingerprints of what its unsandboxed hooks run (`tether.hooks.guard`).
            (path.parent / "guards" / f"{session_id}.json").unlink(missing_ok=True)
            # Unlinked while held: a writer that opens it now finds no log and stops there.
            path.with_suffix(".lock").unlink(missing_ok=True)
        finally:
            lock.close()

    def rename(self, session_id: str, title: str) -> None:
        """Give a session not open here a new title (a `session/title` event appended under its
        lock); `SessionLocked` when a process has it open, which renames it itself."""
        from tether.session.log.events import SessionTitle

        event_log = self.open(session_id)
        try:
            event_log.append(SessionTitle(title=title))
        finally:
            event_log.close()

    def descendants(self, session_id: str) -> list[str]:
        """The sessions agents ran for `session_id`, and theirs, parents before children."""
        children: dict[str, list[str]] = {}
        for info in self.list_sessions():
            if info.parent is not None:
                children.setdefault(info.parent.id, []).append(info.id)
        found: list[str] = []
        queue = [session_id]
        while queue:
            for child in children.get(queue.pop(0), []):
                if child not in found and child != session_id:
                    found.append(child)
                    queue.append(child)
        return found

    def resolve(self, prefix: str) -> str:
        """The id a unique prefix names (ids are long; people type a few characters)."""
        if self.path(prefix).exists():
            return prefix
        matches = sorted(p.stem for p in self._logs() if p.stem.startswith(prefix))
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise SessionNotFound(f"no session {prefix!r} in {self.sessions_dir}")
        raise SessionNotFound(f"{prefix!r} names {len(matches)} sessions: {', '.join(matches)}")

    def list_sessions(self) -> list[StoredSession]:
        """Every readable session, newest first (an unreadable log is skipped with a warning)."""
        infos, unreadable = self.scan()
        if unreadable:
            import logging  # not before a log is skipped: `tether sessions` logs nothing

            log = logging.getLogger(__name__)
            for path, why in unreadable:
                log.warning("session log %s skipped: %s", path.name, why)
        return infos

    def scan(self) -> tuple[list[StoredSession], list[tuple[Path, str]]]:
        """Every readable session, newest first, and each log that cannot be listed with why.

        One crafted log must not take the list down with it: whatever goes wrong reading one
        is that log's problem alone.
        """
        infos: list[StoredSession] = []
        unreadable: list[tuple[Path, str]] = []
        for path in self._logs():
            try:
                infos.append(_info(path))
            except Exception as exc:  # whatever it is, it is this log's problem alone
                why = str(exc) or type(exc).__name__
                unreadable.append((path, why.removeprefix(f"{path}: ")))
        infos.sort(key=lambda info: info.created_at, reverse=True)
        return infos, sorted(unreadable)

    def _existing(self, session_id: str) -> Path:
        path = self.path(session_id)
        if not path.exists():
            raise SessionNotFound(f"no session {session_id!r} in {self.sessions_dir}")
        return path

    def _logs(self) -> list[Path]:
        if not self.sessions_dir.is_dir():
            return []
        return list(self.sessions_dir.glob("*.jsonl"))


def _info(path: Path) -> StoredSession:
    """One log's line of the list; `ValueError` or `CorruptLog` saying why it has none."""
    # A cheap scan at C speed: JSON escapes newlines inside strings, so every event starts
    # right after a raw newline and its type is the first key; only a few lines are parsed.
    data = read_log_bytes(path)
    first, _, rest = data.partition(b"\n")
    header = parse_json(first)
    if not isinstance(header, dict) or header.get("type") != "session":
        raise ValueError("its first line is not a session header")
    session_id, cwd, created = header.get("id"), header.get("cwd"), header.get("createdAt")
    if session_id != path.stem:
        raise ValueError(f"its header names the session {session_id!r}, not {path.stem!r}")
    if not isinstance(cwd, str) or "\0" in cwd or not cwd.startswith("/"):
        raise ValueError(f"its header's cwd is not an absolute path: {cwd!r}")
    if not isinstance(created, str):
        raise ValueError(f"its header's createdAt is not a time: {created!r}")
    return StoredSession(
        id=session_id,
        cwd=cwd,
        title=_title(data),
        created_at=created,
        updated_at=_updated(rest) or created,
        turns=data.count(_TURN),
        parent=_parent(header.get("parent")),
        cost_usd=_cost(data),
    )


def _cost(data: bytes) -> float | None:
    """What the log's model responses cost; `None` when one has no known price, or none
    reported its usage."""
    total = 0.0
    at = data.find(_USAGE)
    if at < 0:
        return None
    while at >= 0:
        end = data.find(b"\n", at + 1)
        if end < 0:
            break  # a torn last line
        try:
            event = parse_json(data[at + 1 : end])
        except ValueError:
            return None
        cost = event.get("costUsd") if isinstance(event, dict) else None
        if not isinstance(cost, (int, float)) or isinstance(cost, bool):
            return None
        total += cost
        at = data.find(_USAGE, end)
    return round(total, 6)


def _title(data: bytes) -> str | None:
    """The last title set (by the first prompt, or a rename); `ValueError` when its line is
    not a title."""
    at = data.rfind(_TITLE)
    end = data.find(b"\n", at + 1)
    if at >= 0 and end < 0:  # a title line without its newline is a torn tail
        at = data.rfind(_TITLE, 0, at)
        end = data.find(b"\n", at + 1)
    if at < 0 or end < 0:
        return None
    try:
        event = parse_json(data[at + 1 : end])
    except ValueError as exc:
        raise ValueError(f"its title line is not JSON: {exc}") from None
    title = event.get("title") if isinstance(event, dict) else None
    if not isinstance(title, str):
        raise ValueError(f"its title is not text: {title!r}"[:200])
    return title


def _updated(rest: bytes) -> str | None:
    """The time of the last sound event (a torn last line is passed over)."""
    for line in reversed(last_lines(rest, 2)):
        with contextlib.suppress(ValueError):
            event = parse_json(line)
            time = event.get("time") if isinstance(event, dict) else None
            if isinstance(time, str):
                return time
    return None


def last_lines(data: bytes, count: int, window: int = 4096) -> list[bytes]:
    """`data.splitlines()[-count:]`, cut from a tail of `data` only (of `window` bytes, grown
    until it holds more than `count` lines): cutting a 45 MB log whole cost 50 ms.

    A tail's first line may be cut short (or be the `\n` of a `\r\n`); the lines after it are
    the log's own, so once there are more than `count` of them the last are the same."""
    while True:
        start = max(0, len(data) - window)
        lines = data[start:].splitlines()
        if start == 0 or len(lines) > count:
            return lines[-count:]
        window *= 8


def _parent(link: object) -> ParentLink | None:
    if not isinstance(link, dict):
        return None
    parent_id, call_id = link.get("id"), link.get("callId")
    if not isinstance(parent_id, str) or not isinstance(call_id, str):
        return None
    return ParentLink(id=parent_id, call_id=call_id)


def fork_cut(events: Sequence[Event], prompt: int | None) -> int:
    """How many events a fork before prompt `prompt` copies (`None`: all finished prompts)."""
    from tether.session.log.events import TurnEnd, TurnStart

    starts = [i for i, e in enumerate(events) if isinstance(e, TurnStart)]
    if prompt is None:
        ended = not starts or any(isinstance(e, TurnEnd) for e in events[starts[-1] :])
        return len(events) if ended else starts[-1]
    if not 1 <= prompt <= len(starts):
        have = f"prompts 1-{len(starts)}" if starts else "no prompts yet"
        raise RewindError(f"cannot fork before prompt {prompt}: the session has {have}")
    return starts[prompt - 1]
