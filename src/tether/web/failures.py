"""A page's request the agent refused, or could not answer, as the page is told it."""

from __future__ import annotations

import json

from acp import RequestError
from pydantic import ValidationError

from tether.web.protocol import ClientMessage, SetConfigOption, SetMode

__all__ = ["describe", "failure", "reason"]


def failure(exc: Exception) -> str | None:
    """The agent's own account of a failed prompt (tether: the model's error), if it gave one."""
    if isinstance(exc, RequestError) and isinstance(exc.data, dict):
        detail = exc.data.get("details")
        if isinstance(detail, str) and detail:
            return detail
    return None


def describe(message: ClientMessage, exc: Exception) -> str:
    """What failed and why, in one sentence: the agent's error, an answer that is not ACP, or
    a closed connection."""
    return f"{_what(message)} failed: {reason(exc)}"


def reason(exc: Exception) -> str:
    """Why a request failed, without what failed (the page says that): the agent's error
    message with its data, an answer that is not ACP, or a closed connection."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"the agent's answer does not follow ACP ({where}: {first['msg']})"
    if isinstance(exc, RequestError):
        data = exc.data
        detail = data.get("details") if isinstance(data, dict) else None
        if detail is None and data is not None:
            detail = json.dumps(data, ensure_ascii=False)  # the agent's own words, whole
        return f"{exc}" + (f" ({detail})" if detail else "")
    return "the agent connection closed"


def _what(message: ClientMessage) -> str:
    """What the page asked for, as a failure names it."""
    match message:
        case SetConfigOption(config_id=config_id, value=value):
            return f"changing the setting {config_id} to {value}"
        case SetMode(mode_id=mode_id):
            return f"changing the mode to {mode_id}"
        case _:
            pass
    return {
        "listSessions": "listing sessions",
        "newSession": "starting a session",
        "loadSession": "opening the session",
        "forkSession": "forking the session",
        "renameSession": "renaming the session",
        "deleteSession": "deleting the session",
        "prompt": "the prompt",
        "cancel": "cancelling",
        "setMode": "changing the mode",
        "setConfigOption": "changing the setting",
        "answer": "answering",
        "signIn": "signing in",
        "signOut": "signing out",
    }[message.type]
