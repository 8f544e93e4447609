"""A session's rewind, undo and redo: plans read from its log, restores recorded in it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from pathlib import Path

from tether.checkpoints import CheckpointError, SnapshotStore
from tether.session.errors import SessionBusy
from tether.session.log.eventlog import EventLog
from tether.session.log.events import CommandEvent, Event
from tether.session.replay import command_updates, restore_update
from tether.session.rewind.checkpointing import Checkpoints
from tether.session.rewind.plan import (
    PromptChanges,
    RestorePlan,
    RewindError,
    plan_redo,
    plan_rewind,
    plan_undo,
    prompt_changes,
)
from tether.session.rewind.restoring import apply_plan
from tether.session.updates import ClientUpdate, FilesRestored

__all__ = ["Rewinder"]


class Rewinder:
    """Plans and carries out restores of one session's workspace (never while it prompts).

    plan = await session.rewind.plan_undo()      # what would change, and the conflicts
    notice = await session.rewind.restore(plan)  # done and logged; conflicts kept
    """

    def __init__(self, log_: EventLog, checkpoints: Checkpoints, busy: Callable[[], bool]) -> None:
        self._log = log_
        self._checkpoints = checkpoints
        self._busy = busy

    @property
    def root(self) -> Path:
        """The workspace root the checkpoints save."""
        return self._checkpoints.root

    async def prompts(self) -> list[PromptChanges]:
        """The session's prompts, what each one's tools changed, and whether it can be rewound."""
        store = None
        if self._checkpoints.enabled:
            try:
                store = self._checkpoints.store()
            except CheckpointError:
                store = None
        events = list(self._log.events)
        return await asyncio.to_thread(prompt_changes, events, store)

    async def plan_rewind(self, prompt: int) -> RestorePlan:
        """What rewinding the files to before prompt `prompt` would do (nothing is changed)."""
        return await self._plan(lambda events, store: plan_rewind(events, store, prompt))

    async def plan_undo(self) -> RestorePlan:
        """What undoing the last prompt's changes would do."""
        return await self._plan(plan_undo)

    async def plan_redo(self) -> RestorePlan:
        """What redoing the last undo would do; `RewindError` when files changed since."""
        return await self._plan(plan_redo)

    async def restore(
        self, plan: RestorePlan, take: Collection[str] = (), command: str | None = None
    ) -> FilesRestored:
        """Carry out a plan (its conflicts in `take` too, the others kept) and record it,
        after the `command` the person typed for it, so a replay shows what they asked."""
        self._idle()
        if command is not None:
            self._log.append(CommandEvent(text=command))
        event = await apply_plan(self._log, self._checkpoints, plan, take)
        return restore_update(event)

    def answer(
        self,
        command: str | None,
        said: str,
        fork: str | None = None,
        prompt: int | None = None,
    ) -> list[ClientUpdate]:
        """Record tether's answer in words to `command` (or to the one `restore` logged, when
        `None`); the updates that show it, live as on replay."""
        self._idle()
        event = self._log.append(CommandEvent(text=command, said=said, fork=fork, prompt=prompt))
        return [u for u in command_updates(event) if u.kind != "user_text"]

    async def _plan(self, make: Callable[[list[Event], SnapshotStore], RestorePlan]) -> RestorePlan:
        self._idle()
        if not self._checkpoints.enabled:
            raise RewindError("checkpoints are off for this session")
        try:
            store = self._checkpoints.store()
        except CheckpointError as exc:
            raise RewindError(str(exc)) from exc
        events = list(self._log.events)
        try:
            return await asyncio.to_thread(make, events, store)
        except CheckpointError as exc:
            raise RewindError(str(exc)) from exc

    def _idle(self) -> None:
        if self._busy():
            raise SessionBusy(
                f"session {self._log.header.id} is running a prompt; wait for it to end"
            )
