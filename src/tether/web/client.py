"""The ACP Client the server plays toward the agent: it relays updates and asks the page."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from acp import RequestError
from acp.interfaces import Agent
from acp.schema import (
    AgentMessageChunk,
    AgentPlanContentUpdate,
    AgentPlanRemovedUpdate,
    AgentPlanUpdate,
    AgentThoughtChunk,
    AllowedOutcome,
    AvailableCommandsUpdate,
    ConfigOptionUpdate,
    CreateElicitationResponse,
    CreateTerminalResponse,
    CurrentModeUpdate,
    DeniedOutcome,
    ElicitationMode,
    EnvVariable,
    KillTerminalResponse,
    PermissionOption,
    ReadTextFileResponse,
    ReleaseTerminalResponse,
    RequestPermissionResponse,
    SessionInfoUpdate,
    TerminalOutputResponse,
    ToolCallProgress,
    ToolCallStart,
    ToolCallUpdate,
    UsageUpdate,
    UserMessageChunk,
    WaitForTerminalExitResponse,
    WriteTextFileResponse,
)

from tether.acp.permissions import OPTIONS
from tether.policy.asker import DECISION_KEYS
from tether.tools.access import PermissionDecision
from tether.web.enrich import enrich_tool_call, enrich_update
from tether.web.markdown import markdown_html
from tether.web.menus import SessionMenus
from tether.web.proposed import with_proposed_diff
from tether.web.protocol import (
    AgentUpdate,
    Menus,
    MessageHtml,
    PermissionAsked,
    PermissionButton,
    PermissionClosed,
    ServerMessage,
)

__all__ = ["PageClient", "SendToPage"]

SendToPage = Callable[[ServerMessage], Awaitable[None]]
"""Delivers one message to the browser tab."""

_NO_FS = "tether web does not serve files or terminals to the agent; the agent uses its own tools"

_ASIDE = frozenset({"usage_update", "available_commands_update"})
"""Updates that may arrive in the middle of a message without ending it (settings changes
never reach the transcript at all)."""


class PageClient:
    """Relays session updates to the page and turns permission requests into buttons.

    It declares no fs or terminal capability, so a well-behaved agent never calls those
    methods; one that does gets a clear method-not-found error rather than silence.
    """

    def __init__(self, send: SendToPage) -> None:
        self._send = send
        self.menus = SessionMenus()
        """Each open session's settings menus, followed through the agent's updates."""
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[str, asyncio.Future[str | None]]] = {}
        self._texts: dict[str, list[str]] = {}
        """The agent message each session is streaming, until it ends and goes as Markdown."""

    async def end_message(self, session_id: str) -> None:
        """Send the message streamed so far as rendered Markdown (the page swaps it in)."""
        pieces = self._texts.pop(session_id, None)
        if pieces and "".join(pieces).strip():
            await self._send(
                MessageHtml(session_id=session_id, html=markdown_html("".join(pieces)))
            )

    def answer(self, request_id: int, option_id: str | None) -> bool:
        """Resolve a pending permission request; False when it is unknown or already closed."""
        entry = self._pending.get(request_id)
        if entry is None or entry[1].done():
            return False
        entry[1].set_result(option_id)
        return True

    def withdraw(self, session_id: str | None = None) -> None:
        """Answer open requests (of one session, or all) as cancelled, as ACP asks after cancel."""
        for sid, future in self._pending.values():
            if (session_id is None or sid == session_id) and not future.done():
                future.set_result(None)

    async def request_permission(
        self,
        session_id: str,
        tool_call: ToolCallUpdate,
        options: list[PermissionOption],
        **kwargs: Any,
    ) -> RequestPermissionResponse:
        """Show the request as buttons and wait for the click (or a cancel)."""
        request_id = next(self._ids)
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = (session_id, future)
        try:
            await self._send(
                PermissionAsked(
                    request_id=request_id,
                    session_id=session_id,
                    tool_call=with_proposed_diff(enrich_tool_call(_dump(tool_call), call=True)),
                    options=tuple(
                        PermissionButton(
                            option_id=o.option_id,
                            name=o.name,
                            kind=o.kind,
                            detail=_label(o),
                            key=key,
                        )
                        for o, key in zip(options, decision_keys(options), strict=True)
                    ),
                )
            )
            chosen = await future
        finally:
            del self._pending[request_id]
        await self._send(PermissionClosed(request_id=request_id, option_id=chosen))
        valid = {o.option_id for o in options}
        if chosen is None or chosen not in valid:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=chosen)
        )

    async def session_update(
        self,
        session_id: str,
        update: UserMessageChunk
        | AgentMessageChunk
        | AgentThoughtChunk
        | ToolCallStart
        | ToolCallProgress
        | AgentPlanUpdate
        | AgentPlanContentUpdate
        | AgentPlanRemovedUpdate
        | AvailableCommandsUpdate
        | CurrentModeUpdate
        | ConfigOptionUpdate
        | SessionInfoUpdate
        | UsageUpdate,
        **kwargs: Any,
    ) -> None:
        """Relay one update; enrichment runs before the first await so order is kept.

        A change of the session's settings (options or mode) goes as its menus instead.
        """
        if isinstance(update, ConfigOptionUpdate | CurrentModeUpdate):
            await self._menus_changed(session_id, update)
            return
        enriched = enrich_update(_dump(update))
        kind = enriched.get("sessionUpdate")
        if (
            isinstance(update, AgentMessageChunk)
            and update.content.type == "text"
            and not _is_notice(update)
        ):
            self._texts.setdefault(session_id, []).append(update.content.text)
        elif kind not in _ASIDE:
            await self.end_message(session_id)
        await self._send(AgentUpdate(session_id=session_id, update=enriched))

    async def _menus_changed(
        self, session_id: str, update: ConfigOptionUpdate | CurrentModeUpdate
    ) -> None:
        # A session not opened yet gets its menus with `opened`, from the agent's answer.
        if not self.menus.get(session_id):
            return
        if isinstance(update, ConfigOptionUpdate):
            menus = self.menus.options_changed(session_id, update.config_options)
        else:
            menus = self.menus.mode_changed(session_id, update.current_mode_id)
        await self._send(Menus(session_id=session_id, menus=menus))

    async def write_text_file(
        self, session_id: str, path: str, content: str, **kwargs: Any
    ) -> WriteTextFileResponse | None:
        """Refused: no fs capability was declared."""
        raise _refused("fs/write_text_file")

    async def read_text_file(
        self,
        session_id: str,
        path: str,
        line: int | None = None,
        limit: int | None = None,
        **kwargs: Any,
    ) -> ReadTextFileResponse:
        """Refused: no fs capability was declared."""
        raise _refused("fs/read_text_file")

    async def create_terminal(  # noqa: PLR0917 - the ACP Client protocol's signature
        self,
        session_id: str,
        command: str,
        args: list[str] | None = None,
        env: list[EnvVariable] | None = None,
        cwd: str | None = None,
        output_byte_limit: int | None = None,
        **kwargs: Any,
    ) -> CreateTerminalResponse:
        """Refused: no terminal capability was declared."""
        raise _refused("terminal/create")

    async def terminal_output(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> TerminalOutputResponse:
        """Refused: no terminal capability was declared."""
        raise _refused("terminal/output")

    async def release_terminal(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> ReleaseTerminalResponse | None:
        """Refused: no terminal capability was declared."""
        raise _refused("terminal/release")

    async def wait_for_terminal_exit(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> WaitForTerminalExitResponse:
        """Refused: no terminal capability was declared."""
        raise _refused("terminal/wait_for_exit")

    async def kill_terminal(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> KillTerminalResponse | None:
        """Refused: no terminal capability was declared."""
        raise _refused("terminal/kill")

    async def create_elicitation(
        self, message: str, mode: ElicitationMode, **kwargs: Any
    ) -> CreateElicitationResponse:
        """Refused: the page has no forms for elicitation."""
        raise RequestError.method_not_found("elicitation/create")

    async def complete_elicitation(self, elicitation_id: str, **kwargs: Any) -> None:
        """Nothing to complete: elicitation is never started."""

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """No extension methods are understood."""
        raise RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """Extension notifications are ignored, as ACP allows."""

    def on_connect(self, conn: Agent) -> None:
        """Nothing to set up: the bridge holds the connection."""


def _refused(method: str) -> RequestError:
    """Method not found, naming the method and why the page does not serve it."""
    error = RequestError.method_not_found(method)
    error.data = {"method": method, "details": _NO_FS}
    return error


def _dump(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def decision_keys(options: Sequence[PermissionOption]) -> list[str | None]:
    """The letter of each option, as `tether.policy.asker.DECISION_KEYS` spells its decision
    (`y`, `a`, `p`, `n`): by its kind, the project-wide "always" told apart by its id, as
    `tether acp` offers it. A letter goes to the first option of its decision only."""
    keys: list[str | None] = []
    for option in options:
        decision: PermissionDecision | None = None
        if option.option_id == OPTIONS["allow_project"][0]:
            decision = "allow_project"
        elif option.kind in ("allow_once", "allow_always"):
            decision = option.kind
        elif option.kind.startswith("reject"):
            decision = "reject"
        key = DECISION_KEYS[decision][0] if decision is not None else None
        keys.append(key if key not in keys else None)
    return keys


def _label(option: PermissionOption) -> str | None:
    """tether's whole label of an option, when its name is the short one."""
    tether = (option.field_meta or {}).get("tether")
    label = tether.get("label") if isinstance(tether, dict) else None
    return label if isinstance(label, str) and label != option.name else None


def _is_notice(chunk: AgentMessageChunk) -> bool:
    """A tether notice (a compaction) is shown apart, not as part of the model's message."""
    tether = (chunk.field_meta or {}).get("tether")
    return isinstance(tether, dict) and "notice" in tether
