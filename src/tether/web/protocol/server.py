"""What the server sends the browser: one `ServerMessage` per thing the page shows."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "SERVER_MESSAGE",
    "AgentUpdate",
    "ChildEntry",
    "ChildUpdates",
    "ErrorMessage",
    "Menu",
    "MenuChoice",
    "Menus",
    "MessageHtml",
    "Opened",
    "Opening",
    "PermissionAsked",
    "PermissionButton",
    "PermissionClosed",
    "PermissionsReport",
    "PromptEnd",
    "ReadOnly",
    "Ready",
    "ServerMessage",
    "SessionSummary",
    "Sessions",
    "SignInMethod",
    "SignInResult",
    "SignInVar",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SignInVar:
    """One environment variable a sign-in method asks for. `saved`: the page kept a value
    for it (the value itself never comes back to the browser)."""

    name: str
    label: Opt[str] = None
    secret: bool = True
    optional: bool = False
    saved: bool = False


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SignInMethod:
    """One of the agent's ACP `authMethods`, as the page offers it.

    `kind`: `agent` — the agent signs in by itself when asked (`authenticate`); `env_var` —
    the page asks for `vars`, keeps them and restarts the agent with them, then asks it to
    sign in; `terminal` — it needs a terminal the page does not have: `command` says what to
    run in one.
    """

    id: str
    name: str
    kind: Literal["agent", "env_var", "terminal"]
    description: Opt[str] = None
    link: Opt[str] = None
    """Where to get the credentials (http or https only)."""
    vars: tuple[SignInVar, ...] = ()
    command: Opt[str] = None


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
    can_report_permissions: bool = False
    """The agent reports its rules (tether's `_tether/permissions`): the header offers
    Permissions."""
    sign_in: tuple[SignInMethod, ...] = ()
    """How the agent signs in (its `authMethods`), in its order; none: it needs no sign-in."""
    signed_in: Opt[str] = None
    """The method this agent was signed in with from the page (its variables are kept)."""


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
    (what "Always allow" covers); `key` is the letter that presses it while the question has
    focus, as the terminal asks (none for an option no decision of tether's matches)."""

    option_id: str
    name: str
    kind: str
    detail: Opt[str] = None
    key: Opt[str] = None


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
    sign_in: bool = False
    """The agent refused it until it is signed in (ACP's `auth_required`): the page offers
    the sign-in."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SignInResult:
    """How a sign-in (or a sign-out) the page asked for ended: done, or `error` saying why not."""

    type: Literal["signIn"] = "signIn"
    method_id: str
    error: Opt[str] = None
    signed_out: bool = False
    """The kept variables were forgotten and the agent restarted without them."""


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
    | SignInResult
    | ErrorMessage,
    Field(discriminator="type"),
]
SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
"""Serializes any message to the browser."""
