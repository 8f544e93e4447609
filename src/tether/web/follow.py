"""A session another tab or process holds, shown read-only: replayed from its log, then
followed as the log grows, until its writer lets go and the page may take it over. Each look
reads and replays only what was appended since the last (`LogTail`, `Replayer`): following
a long session costs what it adds, not its length. Cards are the agent's: the default tools
present the calls of tether's own tools, and an MCP call by the card its log kept
(`tether.mcp.card.McpCard`), so the follower needs neither the agent nor its servers.

Only tether's own logs can be followed (the server reads the same `$TETHER_HOME` as the
agent it runs); for any other agent a held session stays an error. Following needs no
agent, so a page can show a held session before its own agent has started.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.acp.calls import SessionCalls
from tether.errors import SessionError, SessionLocked
from tether.models.windows import DEFAULT_WINDOW, context_window
from tether.session import AgentText, SessionStore
from tether.session.limits import DEFAULT_COMPACT_AT
from tether.session.log.eventlog import LogTail, lock_log
from tether.session.log.events import Event, configured
from tether.session.replay import Replayer
from tether.tools.defaults import default_tools
from tether.web.client import PageClient, SendToPage
from tether.web.protocol import ReadOnly

__all__ = ["POLL_S", "FollowedBudget", "LogFollower", "held_elsewhere"]

log = logging.getLogger(__name__)

POLL_S = 0.4
"""How often the log's size and lock are looked at."""


@dataclass(frozen=True)
class FollowedBudget:
    """What a followed session's budget is measured against: the agents' `--context-window`
    (else the window of the model the log names, else the default) and `--compact-at`."""

    window: int | None = None
    compact_at: float = DEFAULT_COMPACT_AT

    def window_for(self, events: Sequence[Event]) -> int:
        """The window of the session that logged `events`."""
        if self.window is not None:
            return self.window
        model = configured(events, "model")
        return context_window(model) if model is not None else DEFAULT_WINDOW


class LogFollower:
    """Relays one held session's updates to the page; `run` until cancelled."""

    def __init__(
        self,
        store: SessionStore,
        session_id: str,
        client: PageClient,
        send: SendToPage,
        budget: FollowedBudget | None = None,
    ) -> None:
        self.store = store
        self._budget = budget or FollowedBudget()
        self.session_id = session_id
        self._client = client
        self._send = send
        self._tail = LogTail(store.path(session_id))
        self._replayer: Replayer | None = None
        self._calls: SessionCalls | None = None
        self._size = -1

    @classmethod
    def possible(cls, store: SessionStore, session_id: str) -> bool:
        """Whether the session is one of this store's logs."""
        try:
            return store.path(session_id).is_file()
        except (ValueError, SessionError):
            return False

    async def run(self, *, let_go_within: float = 0.0) -> bool:
        """Replay, announce read-only, then follow the log and the lock until cancelled.

        Returns `True`, early, when the writer lets go within `let_go_within` seconds (a tab
        being reloaded: its old agent was closing); the caller may then open it for real.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + let_go_within
        await self._catch_up()
        free = self._free()
        await self._send(ReadOnly(session_id=self.session_id, free=free))
        while True:
            await asyncio.sleep(POLL_S)
            await self._catch_up()
            now_free = self._free()
            if now_free and loop.time() < deadline:
                return True
            if now_free != free:
                free = now_free
                await self._send(ReadOnly(session_id=self.session_id, free=free))

    async def _catch_up(self) -> None:
        path = self.store.path(self.session_id)
        try:
            size = path.stat().st_size
        except OSError:
            return
        if size == self._size:
            return
        self._size = size
        try:
            events = self._tail.more()
        except SessionError as exc:
            log.warning("cannot follow session %s: %s", self.session_id, exc)
            return
        header = self._tail.header
        if header is None:
            return
        if self._replayer is None or self._calls is None:
            window = self._budget.window_for(events)
            self._replayer = Replayer(default_tools(), header.cwd, window, self._budget.compact_at)
            # Mapped as the agent maps them (a finished todo call is also the plan); the calls
            # started before are remembered for their titles.
            self._calls = SessionCalls(Path(header.cwd))
        elif configured(events, "model") is not None:
            self._replayer.window = self._budget.window_for(events)  # another model now
        updates = self._replayer.feed(events)
        for update in updates:
            for acp in self._calls.acp(update):
                await self._client.session_update(self.session_id, acp)
        # A message still streaming on the other side is rendered once it is complete.
        if updates and not isinstance(updates[-1], AgentText):
            await self._client.end_message(self.session_id)

    def _free(self) -> bool:
        return not held_elsewhere(self.store, self.session_id)


def held_elsewhere(store: SessionStore, session_id: str) -> bool:
    """Whether another process (or another agent of this server) writes the session now."""
    try:
        lock = lock_log(store.path(session_id))
    except SessionLocked:
        return True
    except (OSError, ValueError, SessionError):
        return False
    lock.close()
    return False
