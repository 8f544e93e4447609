"""Where sessions live: `<data dir>/sessions/<id>.jsonl`, and how to list them."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from pydantic import ConfigDict, TypeAdapter

from tether.home import data_dir
from tether.jsontext import parse_json
from tether.session.errors import CorruptLog, RewindError, SessionNotFound
from tether.session.events import (
    Event,
    ForkPoint,
    ParentLink,
    SessionHeader,
    TurnEnd,
    TurnStart,
)
from tether.session.log import EventLog, LogContents, lock_log, now, read_header, read_log
from tether.wire import WIRE_CONFIG, Opt

__all__ = ["STORED_SESSION", "SessionStore", "StoredSession", "data_dir"]

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TURN = b'\n{"type":"turn/start"'
_TITLE = b'\n{"type":"session/title"'


@dataclass(frozen=True)
class StoredSession:
    """One line of `tether sessions`."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    id: str
    cwd: str
    title: str | None
    """`null` on the wire until the first prompt sets it."""
    created_at: str
    updated_at: str
    turns: int
    parent: Opt[ParentLink] = None
    """The session that started this one through a `task` call (absent for a top-level one)."""


STORED_SESSION: TypeAdapter[StoredSession] = TypeAdapter(StoredSession)
"""Serializes one listed session as camelCase JSON (`tether sessions --json`)."""


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
        return f"{time.time_ns() // 1_000_000:012x}{secrets.token_hex(4)}"

    def create(
        self, cwd: Path, session_id: str | None = None, parent: ParentLink | None = None
    ) -> EventLog:
        """A new, locked log for a session in `cwd`, under `session_id` or a new id.

        `parent` links a child session to the session and call that started it.
        """
        session_id = self.new_id() if session_id is None else session_id
        header = SessionHeader(id=session_id, cwd=str(cwd), created_at=now(), parent=parent)
        return EventLog.create(self.path(session_id), header)

    def fork(
        self, source_id: str, prompt: int | None = None, session_id: str | None = None
    ) -> EventLog:
        """A new, locked log (under `session_id` or a new id) that starts with `source_id`'s
        events before prompt `prompt` (`None`: every finished prompt); its header says so."""
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
        return EventLog.open(self._existing(session_id))

    def header(self, session_id: str) -> SessionHeader:
        """Only a session's header (its cwd), read without the lock and without its events."""
        return read_header(self._existing(session_id))

    def read(self, session_id: str) -> LogContents:
        """A session's log, read only (no lock: a running session can be shown)."""
        return read_log(self._existing(session_id))

    def delete(self, session_id: str) -> None:
        """Remove a session's log; `SessionLocked` when a process has it open."""
        path = self._existing(session_id)
        lock = lock_log(path)
        try:
            path.unlink()
            # Unlinked while held: a writer that opens it now finds no log and stops there.
            path.with_suffix(".lock").unlink(missing_ok=True)
        finally:
            lock.close()

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
        """Every readable session, newest first (unreadable logs are skipped)."""
        infos = []
        for path in self._logs():
            try:
                infos.append(_info(path))
            except (CorruptLog, OSError, ValueError, KeyError):
                continue
        return sorted(infos, key=lambda info: info.created_at, reverse=True)

    def _existing(self, session_id: str) -> Path:
        path = self.path(session_id)
        if not path.exists():
            raise SessionNotFound(f"no session {session_id!r} in {self.sessions_dir}")
        return path

    def _logs(self) -> list[Path]:
        if not self.sessions_dir.is_dir():
            return []
        return list(self.sessions_dir.glob("*.jsonl"))


def fork_cut(events: Sequence[Event], prompt: int | None) -> int:
    """How many events a fork before prompt `prompt` copies (`None`: all finished prompts)."""
    starts = [i for i, e in enumerate(events) if isinstance(e, TurnStart)]
    if prompt is None:
        ended = not starts or any(isinstance(e, TurnEnd) for e in events[starts[-1] :])
        return len(events) if ended else starts[-1]
    if not 1 <= prompt <= len(starts):
        have = f"prompts 1-{len(starts)}" if starts else "no prompts yet"
        raise RewindError(f"cannot fork before prompt {prompt}: the session has {have}")
    return starts[prompt - 1]


def _info(path: Path) -> StoredSession:
    # A cheap scan at C speed: JSON escapes newlines inside strings, so every event starts
    # right after a raw newline and its type is the first key; only a few lines are parsed.
    data = path.read_bytes()
    first, _, rest = data.partition(b"\n")
    header = parse_json(first)
    if header.get("type") != "session":
        raise ValueError("not a session log")
    title = None
    at = data.find(_TITLE)  # set once, by the first prompt
    end = data.find(b"\n", at + 1)
    if at >= 0 and end >= 0:  # a title line without its newline is a torn tail
        title = parse_json(data[at + 1 : end])["title"]
    updated = header["createdAt"]
    for line in reversed(rest.splitlines()[-2:]):
        try:
            updated = parse_json(line)["time"]
            break
        except (ValueError, KeyError):
            continue  # a torn last line
    return StoredSession(
        id=header["id"],
        cwd=header["cwd"],
        title=title,
        created_at=header["createdAt"],
        updated_at=updated,
        turns=data.count(_TURN),
        parent=_parent(header.get("parent")),
    )


def _parent(link: object) -> ParentLink | None:
    if not isinstance(link, dict):
        return None
    parent_id, call_id = link.get("id"), link.get("callId")
    if not isinstance(parent_id, str) or not isinstance(call_id, str):
        return None
    return ParentLink(id=parent_id, call_id=call_id)
