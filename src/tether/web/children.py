"""Agents' sessions on the page: a task card opens its child's transcript, read from its log.

A child session is an ordinary log in the server's `$TETHER_HOME` (its header names its
parent). The page asks for it when a task card is opened (`watchChild`); the server replays
the log, mapped to ACP updates as the agent maps them and enriched as the agent's own are,
then follows it as it grows while the child runs (its writer holds the log's lock), reading
and replaying only what each look finds appended (`LogTail`, `Replayer`), and says `done`
once it has ended. Nothing here writes: a child is shown, never continued.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import assert_never

from tether.acp.calls import SessionCalls
from tether.errors import SessionError
from tether.session import AgentText, ClientUpdate, SessionStore, TitleChanged, UsageChanged
from tether.session.log.eventlog import LogTail
from tether.session.replay import Replayer
from tether.tools.defaults import default_tools
from tether.web.client import SendToPage
from tether.web.enrich import enrich_update
from tether.web.follow import POLL_S, held_elsewhere
from tether.web.markdown import markdown_html
from tether.web.protocol import ChildEntry, ChildUpdates, UnwatchChild, WatchChild

__all__ = ["MAX_WATCHED", "ChildEntries", "ChildWatches"]

log = logging.getLogger(__name__)

MAX_WATCHED = 16
"""Agents' sessions one page follows at once; opening another stops the oldest."""


class ChildWatches:
    """The agents' sessions one page follows, each until it ends, is folded, or the page goes."""

    def __init__(self, store: Callable[[], SessionStore], send: SendToPage) -> None:
        self._store = store
        self._send = send
        self._watching: dict[str, asyncio.Task[None]] = {}

    def watch(self, session_id: str) -> None:
        """Send the child's transcript so far, then what it adds, until it ends."""
        if session_id in self._watching:
            self._watching[session_id].cancel()  # opened again: everything from the start
        while len(self._watching) >= MAX_WATCHED:
            self.unwatch(next(iter(self._watching)))
        task = asyncio.create_task(self._follow(session_id))
        self._watching[session_id] = task
        task.add_done_callback(lambda done: self._forget(session_id, done))

    def watch_or_unwatch(self, message: WatchChild | UnwatchChild) -> None:
        """Do what the page asked."""
        match message:
            case WatchChild(session_id=session_id):
                self.watch(session_id)
            case UnwatchChild(session_id=session_id):
                self.unwatch(session_id)
            case _:
                assert_never(message)

    def unwatch(self, session_id: str) -> None:
        """Stop following a child (its card was folded)."""
        task = self._watching.pop(session_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        """Stop following every child (the page went away)."""
        tasks = list(self._watching.values())
        self._watching.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget(self, session_id: str, done: asyncio.Task[None]) -> None:
        if self._watching.get(session_id) is done:
            del self._watching[session_id]

    async def _follow(self, session_id: str) -> None:
        store = self._store()
        try:
            header = store.header(session_id)
        except (SessionError, ValueError, OSError) as exc:
            await self._send(ChildUpdates(session_id=session_id, done=True, error=str(exc)))
            return
        if header.parent is None:
            error = f"session {session_id} is not an agent's session"
            await self._send(ChildUpdates(session_id=session_id, done=True, error=error))
            return
        tail = LogTail(store.path(session_id))
        replayer = Replayer(default_tools(), header.cwd)
        entries = ChildEntries(Path(header.cwd))
        size = -1
        while True:
            # Whether it ran is looked at before the log is read: what it wrote before it
            # let go is then in what is read.
            done = not held_elsewhere(store, session_id)
            try:
                now = store.path(session_id).stat().st_size
            except OSError:
                now = size
            if now != size or done:
                size = now
                try:
                    updates = replayer.feed(tail.more())
                except SessionError as exc:
                    log.warning("cannot show the agent session %s: %s", session_id, exc)
                    updates = None
                if updates is not None:
                    more = entries.add(updates)
                    if done:
                        more += entries.add(replayer.end()) + entries.end()
                    if more or done:
                        await self._send(
                            ChildUpdates(session_id=session_id, entries=more, done=done)
                        )
            if done:
                return
            await asyncio.sleep(POLL_S)


class ChildEntries:
    """A child's updates as the page's entries, made as they come: ACP updates, each
    message's Markdown after it, once something follows it (or at the `end`)."""

    def __init__(self, cwd: Path) -> None:
        self._calls = SessionCalls(cwd)
        self._text: list[str] = []

    def add(self, updates: list[ClientUpdate]) -> tuple[ChildEntry, ...]:
        """The entries of `updates`, which follow those added before."""
        entries: list[ChildEntry] = []
        for update in updates:
            if isinstance(update, AgentText):
                self._text.append(update.text)
            elif not isinstance(update, UsageChanged | TitleChanged):
                entries.extend(self._end_message())
            for acp in self._calls.acp(update):
                dumped = acp.model_dump(mode="json", by_alias=True, exclude_none=True)
                entries.append(ChildEntry(update=enrich_update(dumped)))
        return tuple(entries)

    def end(self) -> tuple[ChildEntry, ...]:
        """The last message's Markdown, the child having ended."""
        return tuple(self._end_message())

    def _end_message(self) -> list[ChildEntry]:
        text = "".join(self._text)
        self._text.clear()
        return [ChildEntry(markdown=markdown_html(text))] if text.strip() else []
