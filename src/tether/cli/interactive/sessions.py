"""This workspace's sessions for `/resume`: newest first, each with the prompt it began with."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tether.jsontext import parse_json
from tether.session import SessionStore

__all__ = ["MAX_LISTED", "Resumable", "age", "resumable"]

MAX_LISTED = 50
"""Sessions a picker lists."""
_SCANNED = 256 * 1024
"""Bytes of a log read to find its first prompt."""
_PROMPT = b'\n{"type":"user/message"'


@dataclass(frozen=True)
class Resumable:
    """One session as the picker shows it."""

    id: str
    title: str | None
    updated_at: str
    turns: int
    first_prompt: str | None


def resumable(store: SessionStore, cwd: Path, limit: int = MAX_LISTED) -> list[Resumable]:
    """The sessions made in `cwd`, most recently used first."""
    here = [s for s in store.list_sessions() if Path(s.cwd) == cwd]
    here.sort(key=lambda s: s.updated_at, reverse=True)
    return [
        Resumable(s.id, s.title, s.updated_at, s.turns, _first_prompt(store.path(s.id)))
        for s in here[:limit]
    ]


def age(stamp: str, now: datetime | None = None) -> str:
    """How long ago `stamp` was, as people say it: `just now`, `5m ago`, `3h ago`, `2d ago`."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    seconds = ((now or datetime.now(UTC)) - then).total_seconds()
    if seconds < 60:
        return "just now"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return "just now"


def _first_prompt(path: Path) -> str | None:
    """The first prompt's text as it was typed (a cheap scan of the log's start)."""
    try:
        with path.open("rb") as log:
            head = log.read(_SCANNED)
    except OSError:
        return None
    at = head.find(_PROMPT)
    end = head.find(b"\n", at + 1)
    if at < 0 or end < 0:
        return None
    try:
        event = parse_json(head[at + 1 : end])
    except ValueError:
        return None
    blocks = event.get("shown") or event.get("content") or []
    texts = [b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return " ".join(" ".join(texts).split()) or None
