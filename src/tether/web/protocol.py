"""The page's WebSocket protocol: typed JSON messages between the browser and the server.

One socket per browser tab. Every message is a JSON object tagged by `type`, keys camelCase.
The browser sends `ClientMessage`s; the server answers with `ServerMessage`s. ACP session
updates are relayed as they came from the agent (`update`), with tether's cards checked and
enriched (highlighted read tokens, diff hunks) on the way.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "CLIENT_MESSAGE",
    "SERVER_MESSAGE",
    "AgentUpdate",
    "Answer",
    "Cancel",
    "ChildEntry",
    "ChildUpdates",
    "ClientMessage",
    "DeleteSession",
    "ErrorMessage",
    "ForkSession",
    "ListPermissions",
    "ListSessions",
    "LoadSession",
    "Menu",
    "MenuChoice",
    "Menus",
    "MessageHtml",
    "NewSession",
    "Opened",
    "Opening",
    "PermissionAsked",
    "PermissionButton",
    "PermissionClosed",
    "PermissionsReport",
    "Prompt",
    "PromptEnd",
    "ReadOnly",
    "Ready",
    "RenameSession",
    "ServerMessage",
    "SessionSummary",
    "Sessions",
    "SetConfigOption",
    "SetMode",
    "UnwatchChild",
    "WatchChild",
]


# --- browser -> server ------------------------------------------------------------------


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
    | UnwatchChild,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
"""Validates one message from the browser."""


# --- server -> browser ------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Ready:
    """The agent is initialized: who it is and what it can do."""

    type: Literal["ready"] = "ready"
    agent_name: str
    agent_version: Opt[str] = None
    cwd: str
    can_load: bool
    can_list: bool
    can_fork: bool = False
    """The agent forks sessions (`session/fork`): the page offers to rewind the conversation."""
    can_delete: bool = False
    """The agent deletes sessions (`session/delete`): the list offers Delete."""
    can_rename: bool = False
    """The agent renames sessions (tether's `_tether/session/rename`): the list offers Rename."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SessionSummary:
    """One stored session in the list."""

    session_id: str
    cwd: str
    title: Opt[str] = None
    updated_at: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Sessions:
    """The agent's stored sessions, newest first as the agent ordered them."""

    type: Literal["sessions"] = "sessions"
    sessions: tuple[SessionSummary, ...]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Opening:
    """A session is about to be shown: clear the transcript, replayed updates follow."""

    type: Literal["opening"] = "opening"
    session_id: str
    replay: bool


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class MenuChoice:
    """One choice of a menu; `group` names the agent's group of choices it sits in."""

    value: str
    name: str
    description: Opt[str] = None
    group: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Menu:
    """One of a session's settings as a header menu (a config option's `select`, or its modes).

    `source` says how a choice is made: `config` through `session/set_config_option` with
    this `id`, `modes` through `session/set_mode`.
    """

    id: str
    name: str
    description: Opt[str] = None
    category: Opt[str] = None
    current: str
    choices: tuple[MenuChoice, ...]
    source: Literal["config", "modes"]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Opened:
    """The session is open and accepts prompts; its settings come as menus, in order."""

    type: Literal["opened"] = "opened"
    session_id: str
    menus: tuple[Menu, ...] = ()


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class Menus:
    """A session's menus now: after an update from the agent, or a switch (made or refused)."""

    type: Literal["menus"] = "menus"
    session_id: str
    menus: tuple[Menu, ...]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class AgentUpdate:
    """One ACP `session/update` as the agent sent it, with tether's cards enriched."""

    type: Literal["update"] = "update"
    session_id: str
    update: dict[str, Any]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class PermissionButton:
    """One button of a permission request; `detail` says all it does when the name is short
    (what "Always allow" covers)."""

    option_id: str
    name: str
    kind: str
    detail: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class PermissionAsked:
    """The agent asks before a tool call runs; the page answers with `Answer`."""

    type: Literal["permission"] = "permission"
    request_id: int
    session_id: str
    tool_call: dict[str, Any]
    options: tuple[PermissionButton, ...]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class PermissionClosed:
    """A permission request was answered or withdrawn (the prompt was cancelled)."""

    type: Literal["permissionClosed"] = "permissionClosed"
    request_id: int
    option_id: str | None = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class PromptEnd:
    """A prompt finished; `stopReason` is ACP's (end_turn, cancelled, ...) or `error`."""

    type: Literal["promptEnd"] = "promptEnd"
    session_id: str
    stop_reason: str
    error: Opt[str] = None
    """Why the prompt failed (`stopReason: error`), said once."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class MessageHtml:
    """The agent message just streamed as text, rendered from Markdown (safe HTML)."""

    type: Literal["markdown"] = "markdown"
    session_id: str
    html: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ReadOnly:
    """The session is live elsewhere: it is shown from its log, following it as it grows.

    `free` turns true once the other side has let go: the page may then take it over (open
    it again with `loadSession`).
    """

    type: Literal["readOnly"] = "readOnly"
    session_id: str
    free: bool = False


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class PermissionsReport:
    """A session's permission rules as the agent reports them (`tether.settings.report`), or
    why there is no report (an agent without the `_tether/permissions` extension)."""

    type: Literal["permissionsReport"] = "permissionsReport"
    session_id: str
    report: Opt[dict[str, Any]] = None
    error: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ChildEntry:
    """One step of an agent's transcript: an ACP update, or the Markdown of its last message."""

    update: Opt[dict[str, Any]] = None
    markdown: Opt[str] = None
    """The agent message just completed, rendered (as `MessageHtml` is for the session)."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ChildUpdates:
    """More of an agent's session, read from its log: the entries since the last message.

    `done` says the agent has ended (nothing more will come); `error` why it cannot be shown.
    """

    type: Literal["childUpdates"] = "childUpdates"
    session_id: str
    entries: tuple[ChildEntry, ...] = ()
    done: bool = False
    error: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ErrorMessage:
    """Something the user should see: a refused request, an agent error, the agent exiting."""

    type: Literal["error"] = "error"
    message: str


ServerMessage = Annotated[
    Ready
    | Sessions
    | Opening
    | Opened
    | Menus
    | AgentUpdate
    | PermissionAsked
    | PermissionClosed
    | PromptEnd
    | MessageHtml
    | ReadOnly
    | PermissionsReport
    | ChildUpdates
    | ErrorMessage,
    Field(discriminator="type"),
]
SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Serializes any message to the browser."""
