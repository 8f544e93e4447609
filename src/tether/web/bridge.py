"""One agent subprocess spoken to over ACP, relayed to one browser tab.

Each WebSocket gets its own agent process: updates and permission requests then have
exactly one page to go to, and closing the tab ends the agent (stdin closed, then
terminate/kill after a grace period; `tether.web.agent_process`).

The page's messages are read from the start, while the agent still starts: a session
another tab or process holds is then shown read-only at once (following its log needs no
agent); everything else waits for the agent.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from acp import RequestError, text_block
from acp.client.connection import ClientSideConnection
from pydantic import ValidationError

from tether.acp.errors import is_session_locked
from tether.session import SessionStore, data_dir
from tether.web.agent_process import RunningAgent, agent_process
from tether.web.children import ChildWatches
from tether.web.client import PageClient, SendToPage
from tether.web.failures import describe, failure, reason
from tether.web.follow import FollowedBudget, LogFollower, held_elsewhere
from tether.web.handshake import initialize
from tether.web.keys import AgentKeys, SavedSignIn
from tether.web.listing import permissions_report, session_list
from tether.web.protocol import (
    Answer,
    Cancel,
    ClientMessage,
    DeleteSession,
    ErrorMessage,
    ForkSession,
    ListPermissions,
    ListSessions,
    LoadSession,
    Menus,
    NewSession,
    Opened,
    Opening,
    Prompt,
    PromptEnd,
    RenameSession,
    SetConfigOption,
    SetMode,
    SignIn,
    SignOut,
    UnwatchChild,
    WatchChild,
)
from tether.web.signin import AUTH_REQUIRED, SignIns

__all__ = ["Bridge"]

log = logging.getLogger(__name__)

STDIO_LIMIT = 50 * 1024 * 1024
"""Longest JSON-RPC line taken from the agent; a 50 KB read card exceeds asyncio's 64 KiB."""

LET_GO_WITHIN_S = 3.0
"""A session a reloaded tab reclaims is taken back at once if its writer lets go this soon:
the tab's old agent holds the lock for a moment while it shuts down."""
EXIT_WAIT_S = 30.0
"""How long an agent that closed its output during the handshake has to exit, so its exit code
can be reported (one that keeps running is reported as not initialized, then stopped)."""


class Bridge:
    """Runs an ACP agent command and serves one page's messages against it."""

    def __init__(
        self,
        command: Sequence[str],
        cwd: Path,
        send: SendToPage,
        budget: FollowedBudget | None = None,
        keys: AgentKeys | None = None,
    ) -> None:
        if not command:
            raise ValueError("the agent command is empty")
        self._command = list(command)
        self._budget = budget or FollowedBudget()
        """How a session shown read-only measures its budget (the agents' own flags)."""
        self._cwd = cwd
        self._send = send
        self._client = PageClient(send)
        self._tasks: set[asyncio.Task[None]] = set()
        self._following: asyncio.Task[None] | None = None
        self._connected: asyncio.Future[ClientSideConnection] | None = None
        """Resolved once the agent is initialized."""
        self._children = ChildWatches(SessionStore.default, send)
        self._sign_ins = SignIns(self._command, keys or AgentKeys(data_dir()), send)
        self._restart: asyncio.Future[None] | None = None
        """Resolved when a sign-in needs the agent started again with its keys."""

    async def run(self, incoming: AsyncIterator[ClientMessage]) -> None:
        """Start the agent, then handle the page's messages until the page or the agent goes
        (an agent restarted to take a sign-in's keys serves on)."""
        queue: asyncio.Queue[ClientMessage | None] = asyncio.Queue()
        pump = asyncio.create_task(self._pump(incoming, queue))
        try:
            while await self._run_agent(queue):
                # What the old agent ran is gone with it; the page opens its session again.
                self._client.withdraw()
                await self._cancel_tasks()
        finally:
            pump.cancel()
            self._client.withdraw()
            self._stop_following()
            await self._children.close()
            await self._cancel_tasks()

    async def _cancel_tasks(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _run_agent(self, queue: asyncio.Queue[ClientMessage | None]) -> bool:
        """Run the agent until it or the page ends (False), or it must restart (True)."""
        program = self._command[0]
        loop = asyncio.get_running_loop()
        self._connected = loop.create_future()
        self._restart = loop.create_future()
        saved = await self._sign_ins.saved()
        started = served = False
        try:
            spawned = agent_process(
                self._client,
                self._command,
                env={**os.environ, **(saved.env if saved is not None else {})},
                cwd=self._cwd,
                # The limit admits large cards on one JSON-RPC line.
                limit=STDIO_LIMIT,
            )
            async with spawned as agent:
                started = True
                restart = await self._serve(agent, queue, saved)
                served = True
                return restart
        except OSError as exc:
            if not started:
                await self._send(ErrorMessage(message=f"cannot start the agent {program!r}: {exc}"))
            elif not served:
                await self._send(ErrorMessage(message=f"the agent connection failed: {exc}"))
            else:
                # Closing the pipes of an agent that has ended (a write it never read broke
                # them); the page was told why it ended.
                log.debug("the agent's connection closed with an error: %s", exc)
        return False

    async def _serve(
        self,
        agent: RunningAgent,
        queue: asyncio.Queue[ClientMessage | None],
        saved: SavedSignIn | None,
    ) -> bool:
        conn = agent.conn
        exited = asyncio.ensure_future(agent.exited())
        initialized = asyncio.ensure_future(self._initialize(conn, saved))
        reader: asyncio.Future[None] | None = None
        try:
            await asyncio.wait({initialized, exited}, return_when=asyncio.FIRST_COMPLETED)
            failure = initialized.exception() if initialized.done() else None
            if not initialized.done() or failure is not None:
                initialized.cancel()
                if isinstance(failure, ConnectionError):
                    # Its output closed: the agent is ending, and its exit code says why. The
                    # end of its output is often read before the exit is, on a busy machine
                    # long before; its input is closed so it is not left waiting on us.
                    agent.close_input()
                    await asyncio.wait({exited}, timeout=EXIT_WAIT_S)
                message = (
                    f"the agent exited (code {exited.result()})"
                    if exited.done()
                    else f"the agent did not initialize: {failure}"
                )
                await self._send(ErrorMessage(message=message))
                return False
            if self._connected is not None:
                self._connected.set_result(conn)
            await self._sign_ins.started(conn, saved)
            reader = asyncio.ensure_future(self._dispatch_all(conn, queue))
            assert self._restart is not None  # made with the connection, in _run_agent
            ended: set[asyncio.Future[Any]] = {reader, exited, self._restart}
            await asyncio.wait(ended, return_when=asyncio.FIRST_COMPLETED)
            if self._restart.done():
                reader.cancel()
                return True
            if exited.done():
                reader.cancel()
                await self._send(ErrorMessage(message=f"the agent exited (code {exited.result()})"))
            else:
                reader.result()
            return False
        finally:
            # Stopped with the server too (this cancelled): none is left running, or failing
            # with nobody to hear it, once the agent is gone.
            started = [task for task in (exited, initialized, reader) if task is not None]
            for task in started:
                task.cancel()
            await asyncio.gather(*started, return_exceptions=True)

    def _stop_following(self) -> None:
        if self._following is not None:
            self._following.cancel()
            self._following = None

    async def _initialize(self, conn: ClientSideConnection, saved: SavedSignIn | None) -> None:
        ready = await initialize(conn, self._command, self._cwd, saved)
        self._sign_ins.ready = ready
        await self._send(ready)

    async def _pump(
        self, incoming: AsyncIterator[ClientMessage], queue: asyncio.Queue[ClientMessage | None]
    ) -> None:
        """Read the page from the start; what needs the agent waits in `queue` for it."""
        async for message in incoming:
            if isinstance(message, Answer):
                # Answered inline: a prompt's task is waiting on exactly this.
                self._client.answer(message.request_id, message.option_id)
            elif isinstance(message, WatchChild | UnwatchChild):
                # Read from the logs, not asked of the agent.
                self._children.watch_or_unwatch(message)
            elif not (isinstance(message, LoadSession) and self._follow_early(message)):
                await queue.put(message)
        await queue.put(None)

    def _follow_early(self, message: LoadSession) -> bool:
        """Before the agent is up, show a session held elsewhere read-only at once."""
        if self._connected is None or self._connected.done():
            return False
        store = SessionStore.default()
        if not LogFollower.possible(store, message.session_id):
            return False
        if not held_elsewhere(store, message.session_id):
            return False
        self._start_following(store, message)
        return True

    def _start_following(self, store: SessionStore, message: LoadSession) -> None:
        self._stop_following()
        self._following = asyncio.create_task(self._follow(store, message))

    async def _follow(self, store: SessionStore, message: LoadSession) -> None:
        """Follow a held session; one the tab reclaims is opened here once its writer goes."""
        session_id, cwd = message.session_id, message.cwd
        await self._send(Opening(session_id=session_id, replay=True))
        follower = LogFollower(store, session_id, self._client, self._send, self._budget)
        grace = LET_GO_WITHIN_S if message.reclaim else 0.0
        if not await follower.run(let_go_within=grace) or self._connected is None:
            return
        conn = await self._connected
        self._following = None  # opening it must not cancel this very task
        await self._handle(conn, LoadSession(session_id=session_id, cwd=cwd))

    async def _dispatch_all(
        self, conn: ClientSideConnection, queue: asyncio.Queue[ClientMessage | None]
    ) -> None:
        while (message := await queue.get()) is not None:
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
                        # The page says "The prompt failed:"; this is the why, once.
                        error=failure(exc) or reason(exc),
                        sign_in=isinstance(exc, RequestError) and exc.code == AUTH_REQUIRED,
                    )
                )
                return
            await self._send(ErrorMessage(message=describe(message, exc)))
            if isinstance(message, SetMode | SetConfigOption):
                # The menu shows back what the agent still holds.
                menus = self._client.menus.get(message.session_id)
                await self._send(Menus(session_id=message.session_id, menus=menus))

    async def _dispatch(self, conn: ClientSideConnection, message: ClientMessage) -> None:
        match message:
            case ListSessions() | RenameSession() | DeleteSession():
                await self._send(await session_list(conn, message))
            case NewSession():
                self._stop_following()
                created = await conn.new_session(cwd=str(self._cwd), mcp_servers=[])
                session_id = created.session_id
                await self._send(Opening(session_id=session_id, replay=False))
                menus = self._client.menus.opened(session_id, created.modes, created.config_options)
                await self._send(Opened(session_id=session_id, menus=menus))
            case LoadSession(session_id=session_id, cwd=cwd):
                self._stop_following()
                await self._send(Opening(session_id=session_id, replay=True))
                try:
                    loaded = await conn.load_session(
                        cwd=cwd or str(self._cwd), session_id=session_id, mcp_servers=[]
                    )
                except RequestError as exc:
                    store = SessionStore.default()
                    if not is_session_locked(exc) or not LogFollower.possible(store, session_id):
                        raise
                    # Held by another tab or process: show it read-only, following its log.
                    self._start_following(store, message)
                    return
                await self._client.end_message(session_id)
                menus = self._client.menus.opened(session_id, loaded.modes, loaded.config_options)
                await self._send(Opened(session_id=session_id, menus=menus))
            case ForkSession(session_id=session_id, prompt=prompt):
                forked = await conn.fork_session(
                    session_id=session_id,
                    cwd=str(self._cwd),
                    mcp_servers=[],
                    tether={"prompt": prompt} if prompt is not None else {},
                )
                # The fork is open in the agent: loading it replays its history to the page.
                await self._dispatch(conn, LoadSession(session_id=forked.session_id))
            case Prompt(session_id=session_id, text=text):
                response = await conn.prompt(session_id=session_id, prompt=[text_block(text)])
                await self._client.end_message(session_id)
                await self._send(PromptEnd(session_id=session_id, stop_reason=response.stop_reason))
            case Cancel(session_id=session_id):
                await conn.cancel(session_id=session_id)
                self._client.withdraw(session_id)
            case SetMode(session_id=session_id, mode_id=mode_id):
                await conn.set_session_mode(session_id=session_id, mode_id=mode_id)
                menus = self._client.menus.mode_changed(session_id, mode_id)
                await self._send(Menus(session_id=session_id, menus=menus))
            case SetConfigOption(session_id=session_id, config_id=config_id, value=value):
                answer = await conn.set_config_option(
                    config_id=config_id, session_id=session_id, value=value
                )
                menus = self._client.menus.options_changed(session_id, answer.config_options)
                await self._send(Menus(session_id=session_id, menus=menus))
            case ListPermissions(session_id=session_id):
                await self._send(await permissions_report(conn, session_id))
            case SignIn() | SignOut():
                if await self._sign_ins.handle(conn, message) and self._restart is not None:
                    self._restart.set_result(None)
            case Answer() | WatchChild() | UnwatchChild():  # handled inline by the reader
                pass
