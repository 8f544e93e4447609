"""Errors of the session layer.

SessionError        anything the session layer refuses, with a message for people.
├── SessionNotFound   no log with that id in the store.
├── SessionLocked     another writer holds the session's lock file.
├── CorruptLog        a log line that cannot be read, or another format version (names file:line).
│   └── UnusableCwd   a header whose cwd no directory can have (a NUL, a relative path).
├── SessionBusy       a prompt is already running on this session.
├── PromptFailed      the model failed; the turn was recorded as ended with this error.
└── RewindError       a rewind, undo, redo or fork that cannot be done (says why).
"""

from __future__ import annotations

__all__ = [
    "CorruptLog",
    "PromptFailed",
    "RewindError",
    "SessionBusy",
    "SessionError",
    "SessionLocked",
    "SessionNotFound",
    "UnusableCwd",
]


class SessionError(Exception):
    """Base of every session error; `str()` is the message for people."""


class SessionNotFound(SessionError):
    """No session with that id."""


class SessionLocked(SessionError):
    """The session is open for writing elsewhere."""


class CorruptLog(SessionError):
    """A log that cannot be trusted: a corrupt line (not a torn tail) or another version."""


class UnusableCwd(CorruptLog):
    """A header whose cwd cannot be a directory: the log is sound, what it names is not."""


class SessionBusy(SessionError):
    """A second prompt while one is running."""


class PromptFailed(SessionError):
    """The model could not answer; the log holds `turn/end` with this error."""


class RewindError(SessionError):
    """A rewind, undo, redo or fork that cannot be done (nothing to undo, no such prompt)."""
