"""Every error tether raises on purpose, in one tree; `str()` of each is its message.

TetherError                 the root: whatever tether refuses or cannot do, said in words
├── ToolError               a call failed in a way the model can fix (bad path, no match, out
│   │                       of range); it becomes a result with `isError: true` and this message
│   ├── PermissionDenied    the policy or the person refused the operation
│   └── SearchFailed        a web search that did not work (names the backend, what to fix)
├── ModelError              the model could not answer (no key, a broken stream, retries spent)
│   ├── ContextOverflow     the server said the prompt is longer than the model's context
│   └── CredentialsError    the saved credentials file is there but cannot be used
├── EndpointAnswer          what a model's endpoint answered, raw, before its provider names it
│   │                       as a `ModelError` (the SDKs' `APIStatusError` and kin, for httpx)
│   ├── StatusError         an HTTP error status, with the answer's body and headers
│   ├── StreamError         an event in the stream that carries `error`
│   └── NotAStream          a success that is not an event stream (`stream` ignored)
├── SessionError            anything the session layer refuses, with a message for people
│   ├── SessionNotFound     no log with that id in the store
│   ├── SessionLocked       another writer holds the session's lock file
│   ├── CorruptLog          a log line that cannot be read, or another format version
│   │   └── UnusableCwd     a header whose cwd no directory can have (a NUL, a relative path)
│   ├── SessionBusy         a prompt is already running on this session
│   ├── PromptFailed        the model failed; the turn was recorded as ended with this error
│   └── RewindError         a rewind, undo, redo or fork that cannot be done (says why)
├── CheckpointError         a snapshot, a lookup or a restore failed (git failed, store unreadable)
├── McpServerError          an MCP server that could not start, or failed a call
├── WorkspaceError          a batch task's workspace could not be made, set up or diffed
│   └── SetupTimeout        its setup command did not finish within the task's time limit
├── StartupError            the interactive session cannot start (a bad flag value, no key)
├── BadArguments            the interactive session's arguments do not parse
├── InvalidInput            (also a ValueError) something given that tether cannot use
│   ├── UnreadableFile      not a regular file, too large, not text
│   ├── TooDeep             JSON nested more deeply than the decoder follows
│   ├── FrontMatterError    front matter that cannot be read (`line` says where)
│   ├── SettingsError       a settings file that cannot be used (names it, says why)
│   ├── RuleError           a permission rule that does not parse
│   ├── McpSpecError        an MCP config file, or a server in it, that cannot be used
│   ├── SkillFileError      a `SKILL.md` that cannot be used
│   ├── AgentFileError      an agent file that cannot be used
│   ├── CommandError        a known slash command used wrongly (`/mode` without a mode)
│   ├── ArgumentsError      a tool call's arguments that name one twice, or a bad fixed value
│   ├── GlobError           a glob pattern ripgrep would refuse
│   └── BadKeys             the web page's keys file cannot be read or written as it is
└── FileOperationFailed     (also an OSError) the filesystem refused what tether had to do
    ├── LockTimeout         another process held a settings lock past the wait
    ├── RememberFailed      rules to remember could not be written (nothing was changed)
    └── RemovalError        an entry could not be removed, or its name is not a plain one

The two families with a second base keep what callers always caught: an `InvalidInput` is a
`ValueError` (pydantic validators and `except ValueError` see it), a `FileOperationFailed` an
`OSError`. A class here never changes which of its siblings it is; code catches the one it
means. Exceptions that only carry control flow inside one module (an over-long ACP line, a
recursive schema) stay private there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Mapping

    from pydantic import JsonValue

__all__ = [
    "AgentFileError",
    "ArgumentsError",
    "BadArguments",
    "BadKeys",
    "CheckpointError",
    "CommandError",
    "ContextOverflow",
    "CorruptLog",
    "CredentialsError",
    "EndpointAnswer",
    "FileOperationFailed",
    "FrontMatterError",
    "GlobError",
    "InvalidInput",
    "LockTimeout",
    "McpServerError",
    "McpSpecError",
    "ModelError",
    "NotAStream",
    "PermissionDenied",
    "PromptFailed",
    "RememberFailed",
    "RemovalError",
    "RewindError",
    "RuleError",
    "SearchFailed",
    "SessionBusy",
    "SessionError",
    "SessionLocked",
    "SessionNotFound",
    "SettingsError",
    "SetupTimeout",
    "SkillFileError",
    "StartupError",
    "StatusError",
    "StreamError",
    "TetherError",
    "TooDeep",
    "ToolError",
    "UnreadableFile",
    "UnusableCwd",
    "WorkspaceError",
]


class TetherError(Exception):
    """The root of every error tether raises on purpose; `str()` is the message."""


# Tools


class ToolError(TetherError):
    """A failure reported to the model as an error result, never escaping the loop."""

    def __init__(self, message: str, meta: JsonValue = None) -> None:
        super().__init__(message)
        self.message = message
        self.meta = meta
        """What a card can show of the failure (an HTTP error's status); stored as `meta`."""


class PermissionDenied(ToolError):
    """The operation was refused by the session mode or by the person asked."""

    def __init__(
        self,
        message: str,
        meta: JsonValue = None,
        *,
        outcome: Literal["reject", "refused"] | None = None,
    ) -> None:
        super().__init__(message, meta)
        self.outcome = outcome
        """How the refusal was settled, stored with the call's result: `reject` (the person
        said no), `refused` (no one could be asked, or the mode refuses it); `None` for a
        deny rule's refusal or a question that could not be asked."""


class SearchFailed(ToolError):
    """A search that did not work; the message names the backend and what to fix."""


# Models


class ModelError(TetherError):
    """The model could not answer (no key, unknown model, a broken stream, retries spent)."""


class ContextOverflow(ModelError):
    """The server refused the request because the prompt is longer than the model's context."""


class CredentialsError(ModelError):
    """The credentials file is there but cannot be used; the message names it and why."""


class EndpointAnswer(TetherError):
    """What a model's endpoint answered, raw; its provider turns it into a `ModelError` that
    names the fix (not one itself, so that the retry loop classifies it rather than passing
    it on)."""


class StatusError(EndpointAnswer):
    """The endpoint answered with an HTTP error status."""

    def __init__(self, status: int, body: object, headers: Mapping[str, str]) -> None:
        self.status = status
        self.body = body
        """The answer's JSON, or its text when it is not JSON."""
        self.headers = headers
        super().__init__(f"HTTP {status}: {body if body else 'no body'}")

    def field(self, name: str) -> str | None:
        """A text field of the body's error (`{"error": {"code": ..., "type": ...}}`), if any."""
        error = self.body.get("error") if isinstance(self.body, dict) else None
        value = error.get(name) if isinstance(error, dict) else None
        return value if isinstance(value, str) else None


class StreamError(EndpointAnswer):
    """The stream reported an error (an event whose JSON carries `error`)."""

    def __init__(self, message: str, body: object) -> None:
        self.message = message
        self.body = body
        super().__init__(message)


class NotAStream(EndpointAnswer):
    """A successful answer that is not an event stream (a server that ignored `stream`)."""

    def __init__(self, content_type: str) -> None:
        self.content_type = content_type
        super().__init__(f"answered with {content_type or 'no content type'}, not an event stream")


# Sessions


class SessionError(TetherError):
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


# What runs beside a session


class CheckpointError(TetherError):
    """A snapshot, a lookup or a restore failed (git failed, the store is unreadable)."""


class McpServerError(TetherError):
    """A server that could not start, or failed a call; the message names it."""


class WorkspaceError(TetherError):
    """The workspace could not be made, set up or diffed; the message says why."""


class SetupTimeout(WorkspaceError):
    """The setup command did not finish within the task's time limit."""


class StartupError(TetherError):
    """The session cannot start (a bad flag value, a missing key); the message says why."""


class BadArguments(TetherError):
    """The arguments do not parse; `usage` and `message` are what argparse would print."""

    def __init__(self, usage: str, message: str) -> None:
        super().__init__(message)
        self.usage = usage
        self.message = message


# Input tether cannot use


class InvalidInput(TetherError, ValueError):
    """Something given (a file, a rule, a pattern, arguments) that tether cannot use."""


class UnreadableFile(InvalidInput):
    """The file exists but is not something to read: not a regular file, too large, not text."""


class TooDeep(InvalidInput):
    """The text nests arrays or objects more deeply than the decoder can follow."""


class FrontMatterError(InvalidInput):
    """Front matter that cannot be read; `line` is the faulty line of the file (1-based)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def where(self, path: object) -> str:
        """The message after `PATH:LINE: ` (or `PATH: `)."""
        place = f"{path}:{self.line}" if self.line is not None else str(path)
        return f"{place}: {self.message}"


class SettingsError(InvalidInput):
    """A settings file that cannot be used; the message names it and says why."""


class RuleError(InvalidInput):
    """A rule that does not parse; the message says what is wrong with it."""


class McpSpecError(InvalidInput):
    """A config file or a server in it that cannot be used; the message names which."""


class SkillFileError(InvalidInput):
    """A `SKILL.md` that cannot be used; the message names the file (and line) and says why."""


class AgentFileError(InvalidInput):
    """An agent file that cannot be used; the message names the file and what is wrong."""


class CommandError(InvalidInput):
    """A known command used wrongly (`/mode` without a valid mode); the message says how."""


class ArgumentsError(InvalidInput):
    """Arguments that name one argument twice, or give a fixed one a value it cannot have."""


class GlobError(InvalidInput):
    """A pattern ripgrep would refuse to parse."""


class BadKeys(InvalidInput):
    """The keys file cannot be read or written as it is; the message names it and why."""


# The filesystem


class FileOperationFailed(TetherError, OSError):
    """The filesystem refused what tether had to do; the message says what and why."""


class LockTimeout(FileOperationFailed):
    """Another process held the lock for longer than `LOCK_WAIT`."""


class RememberFailed(FileOperationFailed):
    """The rules could not be written; the message says why (nothing was changed)."""


class RemovalError(FileOperationFailed):
    """An entry could not be removed (or its name is not a plain one); the message says why."""
