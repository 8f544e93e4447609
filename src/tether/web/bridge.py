"""One agent subprocess spoken to over ACP, relayed to one browser tab.

Each WebSocket gets its own agent process: updates and permission requests then have
exactly one page to go to, and closing the tab ends the agent (stdin closed, then
terminate/kill after a grace period, as the SDK's transport does).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from acp import PROTOCOL_VERSION, RequestError, spawn_agent_process, text_block
from acp.client.connection import ClientSideConnection
from acp.schema import (
    ClientCapabilities,
    FileSystemCapabilities,
    Implementation,
    LoadSessionResponse,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionModeState,
)
from pydantic import ValidationError

from tether.acp.config import SANDBOX_OPTION
from tether.acp.errors import is_session_locked
from tether.session import SessionStore
from tether.web.children import ChildWatches
from tether.web.client import PageClient, SendToPage
from tether.web.follow import LogFollower
from tether.web.protocol import (
    Answer,
    Cancel,
    ClientMessage,
    ErrorMessage,
    ListSessions,
    LoadSession,
    ModeChoice,
    ModeState,
    NewSession,
    Opened,
    Opening,
    Prompt,
    PromptEnd,
    Ready,
    Sessions,
    SessionSummary,
    SetMode,
    SetSandbox,
    UnwatchChild,
    WatchChild,
)

__all__ = ["Bridge"]

log = logging.getLogger(__name__)

STDIO_LIMIT = 50 * 1024 * 1024
"""Longest JSON-RPC line taken from the agent; a 50 KB read card exceeds asyncio's 64 KiB."""

LOAD_RETRIES = 6
"""Tries to open a session whose lock another (closing) agent process still holds."""
LOAD_RETRY_DELAY_S = 0.5
EXIT_WAIT_S = 1.0
"""How long a failed handshake waits for the agent's exit code before reporting."""


def _tether_version() -> str:
    try:
        return version("tether")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


class Bridge:
    """Runs an ACP agent command and serves one page's messages against it."""

    def __init__(self, command: Sequence[str], cwd: Path, send: SendToPage) -> None:
        if not command:
            raise ValueError("the agent command is empty")
        self._command = list(command)
        self._cwd = cwd
        self._send = send
        self._client = PageClient(send)
        self._tasks: set[asyncio.Task[None]] = set()
        self._following: asyncio.Task[bool] | None = None
        self._children = ChildWatches(SessionStore.default, send)

    async def run(self, incoming: AsyncIterator[ClientMessage]) -> None:
        """Start the agent, then handle the page's messages until the page or the agent goes."""
        program, *args = self._command
        try:
            spawned = spawn_agent_process(
                self._client,
                program,
                *args,
                env=dict(os.environ),
                cwd=self._cwd,
                # stderr goes to the server's own stderr: an unread pipe would fill and stall
                # the agent; the limit admits large cards on one JSON-RPC line.
                transport_kwargs={"stderr": None, "limit": STDIO_LIMIT},
            )
            async with spawned as (conn, process):
                await self._serve(conn, process, incoming)
        except OSError as exc:
            await self._send(ErrorMessage(message=f"cannot start the agent {program!r}: {exc}"))
        finally:
            self._client.withdraw()
            self._stop_following()
            await self._children.close()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(
        self,
        conn: ClientSideConnection,
        process: asyncio.subprocess.Process,
        incoming: AsyncIterator[ClientMessage],
    ) -> None:
        exited = asyncio.ensure_future(process.wait())
        try:
            initialized = asyncio.ensure_future(self._initialize(conn))
            await asyncio.wait({initialized, exited}, return_when=asyncio.FIRST_COMPLETED)
            failure = initialized.exception() if initialized.done() else None
            if not initialized.done() or failure is not None:
                initialized.cancel()
                # A closed pipe usually means the agent died: its exit code says more.
                await asyncio.wait({exited}, timeout=EXIT_WAIT_S)
                message = (
                    f"the agent exited (code {exited.result()})"
                    if exited.done()
                    else f"the agent did not initialize: {failure}"
                )
                await self._send(ErrorMessage(message=message))
                return
            reader = asyncio.ensure_future(self._dispatch_all(conn, incoming))
            await asyncio.wait({reader, exited}, return_when=asyncio.FIRST_COMPLETED)
            if exited.done():
                reader.cancel()
                await self._send(ErrorMessage(message=f"the agent exited (code {exited.result()})"))
            else:
                reader.result()
        finally:
            exited.cancel()

    def _stop_following(self) -> None:
        if self._following is not None:
            self._following.cancel()
            self._following = None

    async def _initialize(self, conn: ClientSideConnection) -> None:
        init = await conn.initialize(
            protocol_version=PROTOCOL_VERSION,
            client_capabilities=ClientCapabilities(
                fs=FileSystemCapabilities(read_text_file=False, write_text_file=False),
                terminal=False,
            ),
            client_info=Implementation(name="tether-web", version=_tether_version()),
        )
        caps = init.agent_capabilities
        session_caps = caps.session_capabilities if caps else None
        info = init.agent_info
        await self._send(
            Ready(
                agent_name=(info.title or info.name) if info else self._command[0],
                agent_version=info.version if info else None,
                cwd=str(self._cwd),
                can_load=bool(caps and caps.load_session),
                can_list=bool(session_caps and session_caps.list is not None),
            )
        )

    async def _dispatch_all(
        self, conn: ClientSideConnection, incoming: AsyncIterator[ClientMessage]
    ) -> None:
        async for message in incoming:
            if isinstance(message, Answer):
                # Answered inline: a prompt's task is waiting on exactly this.
                self._client.answer(message.request_id, message.option_id)
                continue
            if isinstance(message, WatchChild | UnwatchChild):
                # Read from the logs, not asked of the agent.
                self._children.watch_or_unwatch(message)
                continue
            task = asyncio.create_task(self._handle(conn, message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _handle(self, conn: ClientSideConnection, message: ClientMessage) -> None:
        try:
            await self._dispatch(conn, message)
        except (RequestError, ConnectionError, ValidationError) as exc:
            if isinstance(message, Prompt):
                # Said once, in the prompt's end, where the page offers to retry.
                await self._client.end_message(message.session_id)
                await self._send(
                    PromptEnd(
                        session_id=message.session_id,
                        stop_reason="error",
                        error=_failure(exc) or _describe(message, exc),
                    )
                )
                return
            await self._send(ErrorMessage(message=_describe(message, exc)))

    async def _load(
        self, conn: ClientSideConnection, session_id: str, cwd: str
    ) -> LoadSessionResponse:
        # After a page reload the old tab's agent may still hold the session's lock for a
        # moment while it shuts down; a short retry spares the user a spurious error.
        attempt = 1
        while True:
            try:
                return await conn.load_session(cwd=cwd, session_id=session_id, mcp_servers=[])
            except RequestError as exc:
                if attempt >= LOAD_RETRIES or not is_session_locked(exc):
                    raise
            attempt += 1
            await asyncio.sleep(LOAD_RETRY_DELAY_S)

    async def _dispatch(self, conn: ClientSideConnection, message: ClientMessage) -> None:
        match message:
            case ListSessions():
                listed = await conn.list_sessions()
                await self._send(
                    Sessions(
                        sessions=tuple(
                            SessionSummary(
                                session_id=s.session_id,
                                cwd=s.cwd,
                                title=s.title,
                                updated_at=s.updated_at,
                            )
                            for s in listed.sessions
                        )
                    )
                )
            case NewSession():
                self._stop_following()
                created = await conn.new_session(cwd=str(self._cwd), mcp_servers=[])
                await self._send(Opening(session_id=created.session_id, replay=False))
                await self._send(
                    Opened(
                        session_id=created.session_id,
                        modes=_modes(created.modes),
                        sandbox=_sandbox(created.config_options),
                    )
                )
            case LoadSession(session_id=session_id, cwd=cwd):
                self._stop_following()
                await self._send(Opening(session_id=session_id, replay=True))
                try:
                    loaded = await self._load(conn, session_id, cwd or str(self._cwd))
                except RequestError as exc:
                    store = SessionStore.default()
                    if not is_session_locked(exc) or not LogFollower.possible(store, session_id):
                        raise
                    # Held by another tab or process: show it read-only, following its log.
                    follower = LogFollower(store, session_id, self._client, self._send)
                    self._following = asyncio.create_task(follower.run())
                    return
                await self._client.end_message(session_id)
                await self._send(
                    Opened(
                        session_id=session_id,
                        modes=_modes(loaded.modes),
                        sandbox=_sandbox(loaded.config_options),
                    )
                )
            case Prompt(session_id=session_id, text=text):
                response = await conn.prompt(session_id=session_id, prompt=[text_block(text)])
                await self._client.end_message(session_id)
                await self._send(PromptEnd(session_id=session_id, stop_reason=response.stop_reason))
            case Cancel(session_id=session_id):
                await conn.cancel(session_id=session_id)
                self._client.withdraw(session_id)
            case SetMode(session_id=session_id, mode_id=mode_id):
                await conn.set_session_mode(session_id=session_id, mode_id=mode_id)
            case SetSandbox(session_id=session_id, value=value):
                await conn.set_config_option(
                    config_id=SANDBOX_OPTION, session_id=session_id, value=value
                )
            case Answer() | WatchChild() | UnwatchChild():  # handled inline by the reader
                pass


def _modes(state: SessionModeState | None) -> ModeState | None:
    if state is None:
        return None
    return ModeState(
        current_mode_id=state.current_mode_id,
        available_modes=tuple(
            ModeChoice(id=m.id, name=m.name, description=m.description)
            for m in state.available_modes
        ),
    )


def _sandbox(options: Sequence[object] | None) -> ModeState | None:
    """The agent's `sandbox` select as the page's menu, or `None` when it offers none."""
    for option in options or ():
        if isinstance(option, SessionConfigOptionSelect) and option.id == SANDBOX_OPTION:
            return ModeState(
                current_mode_id=option.current_value,
                available_modes=tuple(
                    ModeChoice(id=c.value, name=c.name, description=c.description)
                    for c in option.options
                    if isinstance(c, SessionConfigSelectOption)
                ),
            )
    return None


def _failure(exc: Exception) -> str | None:
    """The agent's own account of a failed prompt (tether: the model's error), if it gave one."""
    if isinstance(exc, RequestError) and isinstance(exc.data, dict):
        detail = exc.data.get("details")
        if isinstance(detail, str) and detail:
            return detail
    return None


def _describe(message: ClientMessage, exc: Exception) -> str:
    what = {
        "listSessions": "listing sessions",
        "newSession": "starting a session",
        "loadSession": "opening the session",
        "prompt": "the prompt",
        "cancel": "cancelling",
        "setMode": "changing the mode",
        "setSandbox": "changing the sandbox",
        "answer": "answering",
    }[message.type]
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{what} failed: the agent's answer does not follow ACP ({where}: {first['msg']})"
    if isinstance(exc, RequestError):
        detail = exc.data.get("details") if isinstance(exc.data, dict) else None
        text = f"{exc}" + (f" ({detail})" if detail else "")
        return f"{what} failed: {text}"
    return f"{what} failed: the agent connection closed"
