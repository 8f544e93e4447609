"""The JSON-RPC errors tether's agent answers with: codes by name, and the data they carry.

| code                 | value  | when                                                    |
|----------------------|--------|---------------------------------------------------------|
| `PARSE_ERROR`        | -32700 | a line that is not JSON (answered with id null)         |
| `INVALID_REQUEST`    | -32600 | JSON that is not a JSON-RPC message; a busy session      |
| `METHOD_NOT_FOUND`   | -32601 | a method the agent does not serve                       |
| `INVALID_PARAMS`     | -32602 | a bad cwd, directory, mode, cursor or prompt block; an   |
|                      |        | unknown session to delete; a log whose cwd is no path   |
| `INTERNAL_ERROR`     | -32603 | the model failed; the log is locked or corrupt           |
| `RESOURCE_NOT_FOUND` | -32002 | ACP's code for an unknown session                       |

An error whose cause a client may act on says so in `data`, not only in its text: a
session held by another process carries `data.reason == SESSION_LOCKED`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, assert_never

from tether.errors import CorruptLog, SessionLocked, SessionNotFound, UnusableCwd

if TYPE_CHECKING:
    from acp import RequestError

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "RESOURCE_NOT_FOUND",
    "SESSION_LOCKED",
    "invalid_params",
    "is_session_locked",
    "stored_session_error",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002

SESSION_LOCKED = "sessionLocked"
"""`data.reason` of the error for a session another process holds open (it may soon let go)."""


def invalid_params(message: str, data: dict[str, Any]) -> RequestError:
    """-32602 with a message that says which parameter is wrong and why."""
    # The SDK loads after `initialize` is answered; the codes above do not wait for it.
    from acp import RequestError

    return RequestError(INVALID_PARAMS, message, data)


def stored_session_error(
    exc: SessionNotFound | SessionLocked | CorruptLog, session_id: str
) -> RequestError:
    """Why a stored session cannot be opened or deleted: unknown, held elsewhere, or corrupt."""
    from acp import RequestError

    data: dict[str, Any] = {"sessionId": session_id}
    match exc:
        case SessionNotFound():
            return RequestError(RESOURCE_NOT_FOUND, f"Session not found: {session_id}", data)
        case SessionLocked():
            return RequestError(INTERNAL_ERROR, str(exc), {**data, "reason": SESSION_LOCKED})
        case UnusableCwd():
            # The client asked for a session that cannot be opened as it is: a bad cwd.
            return RequestError(INVALID_PARAMS, str(exc), data)
        case CorruptLog():
            return RequestError(INTERNAL_ERROR, str(exc), data)
        case _:
            assert_never(exc)


def is_session_locked(error: RequestError) -> bool:
    """Whether an agent refused a session because another process holds it open."""
    return isinstance(error.data, dict) and error.data.get("reason") == SESSION_LOCKED
