"""A session's rewind, undo, redo and fork: one service every surface calls.

`Rewinder.run` does one checkpoint command (`/rewind [N]`, `/undo`, `/redo`, `/fork [N]`)
and says what came of it: a `Listing` of the prompts, the files `Restored`, or the session
`Forked`. A surface keeps only its own asking (a `ConflictAsker`) and printing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, assert_never

from tether.checkpoints import SnapshotStore
from tether.errors import CheckpointError, RewindError, SessionBusy
from tether.session.log.eventlog import EventLog
from tether.session.log.events import Event
from tether.session.log.store import SessionStore
from tether.session.log.workspace_events import CommandEvent
from tether.session.notices import FilesRestored
from tether.session.replay import command_updates, restore_update
from tether.session.rewind.checkpointing import Checkpoints
from tether.session.rewind.conflicts import ConflictAsker, settle
from tether.session.rewind.plan import (
    PromptChanges,
    RestorePlan,
    plan_redo,
    plan_rewind,
    plan_undo,
    prompt_changes,
    prompt_listing,
)
from tether.session.rewind.restoring import apply_plan, recover_restore
from tether.session.updates import ClientUpdate

__all__ = ["Forked", "Listing", "Restored", "RewindCommand", "Rewinder"]

log = logging.getLogger(__name__)


class RewindCommand(Protocol):
    """A checkpoint command as a surface parsed it (`tether.commands.CheckpointCommand`)."""

    @property
    def action(self) -> Literal["rewind", "undo", "redo", "fork"]:
        """Which command."""
        ...

    @property
    def prompt(self) -> int | None:
        """The prompt number given (`None`: `/rewind` lists, `/fork` takes it all)."""
        ...


@dataclass(frozen=True)
class Listing:
    """`/rewind` alone: the session's prompts, what each changed, and that said in words."""

    prompts: tuple[PromptChanges, ...]
    text: str


@dataclass(frozen=True)
class Restored:
    """Files were put back (`kept` the conflicting ones left alone); recorded in the log."""

    notice: FilesRestored


@dataclass(frozen=True)
class Forked:
    """A new session continues this one from before prompt `prompt` (`None`: as it is now)."""

    session_id: str
    source_id: str
    prompt: int | None


class Rewinder:
    """Plans and carries out restores of one session's workspace (never while it prompts).

    plan = await session.rewind.plan_undo()      # what would change, and the conflicts
    notice = await session.rewind.restore(plan)  # done and logged; conflicts kept
    """

    def __init__(
        self,
        log_: EventLog,
        checkpoints: Checkpoints,
        busy: Callable[[], bool],
        store: SessionStore,
    ) -> None:
        self._log = log_
        self._store = store
        self._checkpoints = checkpoints
        self._busy = busy

    async def run(
        self, command: RewindCommand, conflicts: ConflictAsker, *, typed: str | None = None
    ) -> Restored | Listing | Forked:
        """Do one checkpoint command; `RewindError` (or `SessionBusy`) when it cannot be done.

        A restore asks `conflicts` about each file someone else changed too and never
        overwrites one without a yes. `typed` is the command as the person typed it, logged
        before a restore so a replay shows what they asked (a surface logs its other answers
        with `answer`).
        """
        prompt = command.prompt
        match command.action:
            case "rewind" if prompt is None:
                prompts = await self.prompts()
                return Listing(tuple(prompts), prompt_listing(self._log.header.id, prompts))
            case "fork":
                return self.fork(prompt)
            case "undo":
                plan = await self.plan_undo()
            case "redo":
                plan = await self.plan_redo()
            case "rewind":
                assert prompt is not None  # the first case took the listing
                plan = await self.plan_rewind(prompt)
            case _:
                assert_never(command.action)
        take = await settle(plan.conflicts, conflicts)
        return Restored(await self.restore(plan, take, command=typed))

    def fork(self, prompt: int | None) -> Forked:
        """A new session that continues this one from before prompt `prompt` (`None`: from
        now); this one is untouched. `RewindError` names the prompts there are."""
        source = self._log.header.id
        forked = self._store.fork(source, prompt)
        forked.close()
        return Forked(forked.header.id, source, prompt)

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
        """Record tether's answer in words to `command` (`None`: to no command); the updates
        that show it, live as on replay. A restore that logged `command` and then failed is
        answered without logging the command twice."""
        self._idle()
        last = self._log.events[-1] if self._log.events else None
        if isinstance(last, CommandEvent) and last.text == command and last.said is None:
            command = None
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

    def recover(self) -> None:
        """Finish a restore a crash cut short (a file changed since is left alone); when it
        cannot be finished, say so in the log of warnings and go on: the session still opens."""
        try:
            recover_restore(self._log, self._checkpoints)
        except CheckpointError as exc:
            log.warning(
                "session %s: an interrupted restore could not be finished: %s",
                self._log.header.id,
                exc,
            )

    def _idle(self) -> None:
        if self._busy():
            raise SessionBusy(
                f"session {self._log.header.id} is running a prompt; wait for it to end"
            )
