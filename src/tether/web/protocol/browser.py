"""What the browser sends the server: one `ClientMessage` per user action."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "CLIENT_MESSAGE",
    "Answer",
    "Cancel",
    "ClientMessage",
    "DeleteSession",
    "ForkSession",
    "ListPermissions",
    "ListSessions",
    "LoadSession",
    "NewSession",
    "Prompt",
    "RenameSession",
    "SetConfigOption",
    "SetMode",
    "SignIn",
    "SignOut",
    "UnwatchChild",
    "WatchChild",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ListSessions:
    """Ask for the agent's stored sessions (`session/list`)."""

    type: Literal["listSessions"] = "listSessions"


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class NewSession:
    """Start a fresh session in the server's working directory (`session/new`)."""

    type: Literal["newSession"] = "newSession"


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class LoadSession:
    """Open a stored session; its history comes back as replayed updates (`session/load`).

    `reclaim`: this tab had the session open before it was reloaded (or reconnected). If
    another process holds it, the tab follows it read-only, and takes it back by itself
    should it come free at once (the tab's old agent was only closing).
    """

    type: Literal["loadSession"] = "loadSession"
    session_id: str
    cwd: Opt[str] = None
    reclaim: bool = False


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Prompt:
    """Send the user's text to a session (`session/prompt`)."""

    type: Literal["prompt"] = "prompt"
    session_id: str
    text: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ForkSession:
    """Continue in a fork of a session: its conversation before prompt `prompt` (all of it
    when absent) in a new session, which opens (`session/fork`, then `session/load`)."""

    type: Literal["forkSession"] = "forkSession"
    session_id: str
    prompt: Opt[int] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class RenameSession:
    """Give a stored session a title (tether's `_tether/session/rename`); the list follows."""

    type: Literal["renameSession"] = "renameSession"
    session_id: str
    title: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class DeleteSession:
    """Delete a stored session (`session/delete`); the list follows."""

    type: Literal["deleteSession"] = "deleteSession"
    session_id: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Cancel:
    """Stop the running prompt of a session (`session/cancel`)."""

    type: Literal["cancel"] = "cancel"
    session_id: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SetMode:
    """Switch a session's permission mode (`session/set_mode`)."""

    type: Literal["setMode"] = "setMode"
    session_id: str
    mode_id: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SetConfigOption:
    """Set one of a session's config options (`session/set_config_option`): a menu's choice."""

    type: Literal["setConfigOption"] = "setConfigOption"
    session_id: str
    config_id: str
    value: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Answer:
    """The user's answer to a permission request; no option means dismissed (cancelled)."""

    type: Literal["answer"] = "answer"
    request_id: int
    option_id: str | None = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ListPermissions:
    """Ask for a session's permission rules, their files and trust (`_tether/permissions`)."""

    type: Literal["listPermissions"] = "listPermissions"
    session_id: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class WatchChild:
    """Show an agent's session (a task card's): its log replayed, then followed until it ends."""

    type: Literal["watchChild"] = "watchChild"
    session_id: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class UnwatchChild:
    """Stop following an agent's session (its task card was folded)."""

    type: Literal["unwatchChild"] = "unwatchChild"
    session_id: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SignIn:
    """Sign the agent in with one of its methods (`authenticate`); an `env_var` method's
    `values` are kept and the agent restarted with them first."""

    type: Literal["signIn"] = "signIn"
    method_id: str
    values: dict[str, str] = Field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SignOut:
    """Forget the variables kept to sign this agent in, and restart it without them."""

    type: Literal["signOut"] = "signOut"


ClientMessage = Annotated[
    ListSessions
    | NewSession
    | LoadSession
    | ForkSession
    | RenameSession
    | DeleteSession
    | Prompt
    | Cancel
    | SetMode
    | SetConfigOption
    | Answer
    | ListPermissions
    | WatchChild
    | UnwatchChild
    | SignIn
    | SignOut,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
"""Validates one message from the browser."""
