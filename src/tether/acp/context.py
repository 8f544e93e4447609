"""What every ACP handler shares: the store, the connection, and the sessions open here.

Handlers (`lifecycle`, `turns`, `switches`, ...) are plain functions of an `AgentContext`;
`TetherAgent` routes each ACP method to one of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from acp import RequestError, update_agent_message_text
from acp.interfaces import Client

from tether.acp.calls import SessionCalls
from tether.acp.commands import available_commands
from tether.acp.errors import INTERNAL_ERROR, RESOURCE_NOT_FOUND, invalid_params
from tether.acp.mapping import AcpUpdate
from tether.acp.mcp import ClientServer, SessionMcp
from tether.acp.outbox import Outbox
from tether.acp.permissions import AcpAsker
from tether.commands import load_commands
from tether.errors import ModelError, SettingsError
from tether.models.base import Model
from tether.policy import PolicyMode
from tether.session import ClientUpdate, Session, SessionConfig, SessionStore
from tether.settings import Settings, SettingsFlags, load_settings
from tether.surface import Launch, first_model, session_config
from tether.tools.workspace import Workspace

__all__ = ["AgentContext", "OpenSession"]


@dataclass
class OpenSession:
    """A session open on this connection, with the calls its client saw and its MCP servers."""

    session: Session
    calls: SessionCalls
    mcp: SessionMcp | None = None
    trust_asked: bool = False
    """Whether the workspace's trust was settled for this session (asked at most once)."""
    preparing: asyncio.Event | None = None
    """Set to stop a slash command's `` !`cmd` `` lines while they run before its prompt."""

    async def close(self) -> None:
        """Stop its MCP servers, run its `SessionEnd` hooks, then sync its log and drop its
        lock."""
        if self.mcp is not None:
            await self.mcp.close()
        await self.session.aclose()


class AgentContext:
    """The state of one ACP agent: how to build sessions, and the ones open on its connection."""

    def __init__(
        self,
        *,
        store: SessionStore,
        launch: Launch,
        mode: PolicyMode | None = None,
        flags: SettingsFlags | None = None,
    ) -> None:
        self.store = store
        self.launch = launch
        """What the command line adds to every session: the endpoint, the key, the limits."""
        self.mode = mode
        """The mode `--mode` starts sessions in; `None`: each workspace's settings say."""
        self.flags = replace(flags or SettingsFlags(), mode=mode)
        """What the command line sets: the last layer of every session's settings."""
        self.open: dict[str, OpenSession] = {}
        self._client: Client | None = None
        self._outbox: Outbox | None = None
        self._beside: set[asyncio.Task[None]] = set()

    def connect(self, client: Client) -> None:
        """Keep the connection to the client."""
        self._client = client
        self._outbox = Outbox(client)

    @property
    def client(self) -> Client:
        """The connected client (for requests: permissions, MCP approvals)."""
        return self._connection()[0]

    @property
    def outbox(self) -> Outbox:
        """The ordered queue of `session/update`s to the client."""
        return self._connection()[1]

    def settings(self, cwd: Path) -> Settings:
        """The settings of workspace `cwd`; a file that cannot be used is -32602."""
        root = Workspace.at(cwd).cwd
        try:
            return load_settings(root, self.store.root, flags=self.flags)
        except SettingsError as exc:
            raise invalid_params(
                f"Cannot use the settings of {root}: {exc}", {"reason": "settings"}
            ) from exc

    def config(
        self, session_id: str, cwd: Path, extra_roots: list[Path]
    ) -> tuple[SessionConfig, SessionCalls]:
        """The config of session `session_id` in `cwd`, and the calls its asker repeats."""
        calls = SessionCalls(Workspace.at(cwd).cwd)
        settings = self.settings(cwd)
        try:
            model = first_model(settings, self.launch)
        except ModelError as exc:
            raise RequestError(INTERNAL_ERROR, f"Cannot start the model: {exc}") from exc
        asker = AcpAsker(self.client, self.outbox, session_id, calls)
        config = session_config(settings, self.launch, asker=asker, model=model, roots=extra_roots)
        return config, calls

    def switch_model(self, spec: str) -> Model:
        """The model a `--model` spec names, at this agent's endpoint (`ModelError` if none)."""
        return self.launch.model(spec)

    def register(self, session: Session, calls: SessionCalls) -> OpenSession:
        """Hold `session` open on this connection."""
        opened = self.open[session.id] = OpenSession(session, calls)
        # A background command's card changes between prompts too: it goes out as it comes.
        session.job_cards.listener = lambda update: self.post(opened, update)
        return opened

    def opened(self, session_id: str) -> OpenSession:
        """The open session `session_id`; an unknown or unopened one is -32002."""
        opened = self.open.get(session_id)
        if opened is None:
            raise RequestError(
                RESOURCE_NOT_FOUND,
                f"Session not open: {session_id} (create it with session/new "
                "or open it with session/load first)",
                {"sessionId": session_id},
            )
        return opened

    async def start_mcp(self, opened: OpenSession, servers: list[ClientServer]) -> None:
        """Start the client's and the user's MCP servers for `opened`."""
        opened.mcp = await SessionMcp.start(
            opened.session, self.store.root, servers, self.notifier(opened)
        )

    def notifier(self, opened: OpenSession) -> Callable[[str], None]:
        """A callback that shows a warning in `opened`'s conversation."""

        # Posted, not flushed: a new session's id reaches the client with the answer first.
        def notify(notice: str) -> None:
            self.outbox.post(opened.session.id, update_agent_message_text(f"Warning: {notice}\n"))

        return notify

    def advertise(self, opened: OpenSession) -> None:
        """Tell the client the slash commands of `opened`'s workspace."""
        # Posted, not flushed: it goes out after the answer that makes the session known.
        commands = load_commands(opened.session.cwd, self.store.root)
        self.outbox.post(opened.session.id, available_commands(commands))

    def post(self, opened: OpenSession, update: ClientUpdate) -> None:
        """Queue the ACP updates of one session update."""
        for acp in opened.calls.acp(update):
            self.outbox.post(opened.session.id, acp)

    def post_acp(self, opened: OpenSession, update: AcpUpdate) -> None:
        """Queue one ACP update of `opened`."""
        self.outbox.post(opened.session.id, update)

    async def flush(self) -> None:
        """Return once every queued update is on the wire."""
        await self.outbox.flush()

    def beside(self, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` beside the requests (asking an endpoint for its models); it ends, at the
        latest, when the connection closes."""
        task = asyncio.create_task(work)
        self._beside.add(task)
        task.add_done_callback(self._beside.discard)

    async def close(self) -> None:
        """Release every open session (sync their logs, drop their locks)."""
        for task in list(self._beside):
            task.cancel()
        if self._beside:
            await asyncio.wait(self._beside)
        for opened in list(self.open.values()):
            await opened.close()
        self.open.clear()
        if self._outbox is not None:
            await self._outbox.close()

    def _connection(self) -> tuple[Client, Outbox]:
        if self._client is None or self._outbox is None:
            raise RuntimeError("the agent is not connected to a client")
        return self._client, self._outbox
