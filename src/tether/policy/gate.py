"""The policy gate: the session mode decides, a person is asked when it does not.

What passes without asking:

| access                    | ask | accept-edits | auto |
|---------------------------|-----|--------------|------|
| read inside the workspace | yes | yes          | yes  |
| edit inside the workspace | ask | yes          | yes  |
| read or edit outside      | ask | ask          | yes  |
| execute (bash)            | ask | ask          | yes  |
| fetch (web_fetch)         | ask | ask          | yes  |
| mcp (not read-only)       | ask | ask          | yes  |
| unsandboxed (escalation)  | ask | ask          | ask  |
| execute, no sandbox       | ask | ask          | no   |

"Inside" means the resolved path (symlinks followed) lies in a workspace root, and the tool
said so too: either one saying "outside" is enough to ask. An `allow_always` answer lasts for
the rest of the session (the gate's life) and covers the same action on the same resolved
path (`read` and `edit` apart), the exact same command for `execute` (and, apart, for
`unsandboxed`), the same host for `fetch`, or the same MCP tool for `mcp` (an MCP tool
annotated read-only asks as a `read` inside the workspace: never). "No sandbox" is a command
of a sandboxed session whose sandbox cannot start: auto mode refuses it rather than run it
unconfined without being told to (`--sandbox off`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from tether.policy.asker import (
    PermissionAsker,
    PermissionOption,
    PermissionOutcome,
    PermissionRequest,
)
from tether.policy.modes import DEFAULT_MODE, Mode, is_mode
from tether.tools.errors import PermissionDenied
from tether.tools.gate import Access
from tether.tools.workspace import Workspace

__all__ = ["PolicyGate"]

log = logging.getLogger(__name__)

_COMMAND_SHOWN = 200
"""How much of a command a message quotes."""


class PolicyGate:
    """Implements `tether.tools.gate.Gate` for a session: its mode, its asker, its memory."""

    def __init__(
        self, workspace: Workspace, mode: Mode = DEFAULT_MODE, asker: PermissionAsker | None = None
    ) -> None:
        self.workspace = workspace
        self.mode = mode
        self.asker = asker
        """Who answers; `None` in a headless run, where anything that would ask is refused."""
        self._always: set[tuple[str, str]] = set()
        self.on_outcome: Callable[[Access, PermissionOutcome], None] | None = None
        """Told how each access that needed a person was settled (the session logs it)."""

    @property
    def mode(self) -> Mode:
        """The session mode; `session/set_mode` may change it at any time."""
        return self._mode

    @mode.setter
    def mode(self, value: Mode) -> None:
        if not is_mode(value):
            raise ValueError(f"unknown mode {value!r}; expected ask, accept-edits or auto")
        self._mode = value

    async def authorize(self, access: Access) -> None:
        """Return when the access may go ahead; raise `PermissionDenied` saying why not."""
        if access.action == "execute" and access.sandbox_problem and self.mode == "auto":
            self._settled(access, "refused")
            raise PermissionDenied(
                f"The sandbox cannot start ({access.sandbox_problem}), and auto mode does not "
                "run commands unsandboxed; pass --sandbox off explicitly to run them without it"
            )
        reason = self._reason_to_ask(access)
        if reason is None:
            return
        key = _memory_key(access)
        if key in self._always:
            return
        what = _describe(access)
        if self.asker is None:
            self._settled(access, "refused")
            raise PermissionDenied(
                f"Permission to {what} needs approval ({reason}), but there is no one to ask "
                f"in this session; {_hint(access, self._inside(access))}"
            )
        request = PermissionRequest(access=access, options=_options(access), reason=reason)
        try:
            decision = await self.asker.ask(request)
        except PermissionDenied:
            raise  # the asker's own refusal, e.g. the client cancelled the request
        except Exception as exc:
            log.warning("asking for permission to %s failed", what, exc_info=True)
            raise PermissionDenied(f"Permission to {what} could not be asked for: {exc}") from exc
        self._settled(access, decision)
        if decision == "allow_always":
            self._always.add(key)
            return
        if decision == "allow_once":
            return
        raise PermissionDenied(f"Permission to {what} was rejected")

    def _settled(self, access: Access, outcome: PermissionOutcome) -> None:
        if self.on_outcome is not None:
            self.on_outcome(access, outcome)

    def _inside(self, access: Access) -> bool:
        if access.path is None:
            return access.inside
        return access.inside and self.workspace.contains(access.path)

    def _reason_to_ask(self, access: Access) -> str | None:
        """Why this access needs a person in the current mode, or `None` when it passes."""
        if access.action == "unsandboxed":
            return "commands outside the sandbox always need approval"
        if self.mode == "auto":
            return None
        if access.action == "execute":
            return "commands need approval unless the mode is auto"
        if access.action == "fetch":
            return "fetching from the web needs approval unless the mode is auto"
        if access.action == "mcp":
            return "MCP tools that are not read-only need approval unless the mode is auto"
        if not self._inside(access):
            return "it is outside the workspace"
        if access.action == "read" or self.mode == "accept-edits":
            return None
        return "edits need approval in ask mode"


def _memory_key(access: Access) -> tuple[str, str]:
    if access.action in ("execute", "unsandboxed", "mcp"):
        return (access.action, access.command if access.command is not None else access.title)
    if access.action == "fetch":
        return ("fetch", (access.host or access.title).lower())
    return (access.action, str(access.path) if access.path is not None else access.title)


def _describe(access: Access) -> str:
    """`edit PATH`, `read PATH`, ``run `COMMAND` `` or `use TOOL`."""
    if access.action == "mcp":
        return f"use {access.title}"
    if access.action in ("execute", "unsandboxed"):
        command = access.command if access.command is not None else access.title
        if len(command) > _COMMAND_SHOWN:
            command = command[:_COMMAND_SHOWN] + "..."
        where = " outside the sandbox" if access.action == "unsandboxed" else ""
        return f"run `{command}`{where}"
    if access.action == "fetch":
        return access.title[:1].lower() + access.title[1:]
    target = str(access.path) if access.path is not None else access.title
    return f"{access.action} {target}"


def _options(access: Access) -> tuple[PermissionOption, ...]:
    if access.action == "execute":
        scope = "this exact command"
    elif access.action == "unsandboxed":
        scope = "this exact command outside the sandbox"
    elif access.action == "fetch":
        scope = f"fetching from {access.host}" if access.host else "fetching this URL"
    elif access.action == "mcp":
        scope = "this tool"
    elif access.action == "edit":
        scope = "edits to this file"
    else:
        scope = "reading this file"
    return (
        PermissionOption("allow_once", "Allow once"),
        PermissionOption("allow_always", f"Always allow {scope} in this session"),
        PermissionOption("reject", "Reject"),
    )


def _hint(access: Access, inside: bool) -> str:
    if access.action == "unsandboxed":
        return "run with --sandbox off to run commands without the sandbox"
    if access.action == "edit" and inside:
        return "run with --mode accept-edits or --mode auto to allow edits"
    return "run with --mode auto to allow it"
