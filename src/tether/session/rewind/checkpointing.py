"""When a session saves its workspace, and the `checkpoint` events that record it.

Before each prompt the workspace is saved (while the model thinks: the first tool waits for
it), and again after each step whose calls may change files (edit, write, bash, MCP tools
that are not read-only). A step that changed nothing records nothing, and the save before a
prompt is recorded only when something changed since the last one (or it is the first).
Snapshots run in a worker thread; events are appended on the session's loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

from tether.checkpoints import Snapshot, SnapshotStore, open_store
from tether.errors import CheckpointError, ToolError
from tether.session.log.eventlog import EventLog
from tether.session.log.events import Event, ToolCallRecord, TurnStart
from tether.session.log.workspace_events import CheckpointEvent, RestoreEvent
from tether.session.notices import CheckpointSaved
from tether.session.replay import checkpoint_notice
from tether.tools.invocation import parse_arguments
from tether.tools.registry import ToolRegistry
from tether.tools.result import ToolResult
from tether.tools.workspace import Workspace

__all__ = ["Checkpoints", "last_tree"]

log = logging.getLogger(__name__)


class Checkpoints:
    """A session's checkpoints: opens the workspace's store on first use, records the events."""

    def __init__(
        self,
        log_: EventLog,
        workspace: Workspace,
        tools: ToolRegistry,
        home: Path,
        *,
        enabled: bool = True,
    ) -> None:
        self._log = log_
        self._workspace = workspace
        self._tools = tools
        self._home = home
        self.enabled = enabled
        self._store: SnapshotStore | None = None
        self._tree = last_tree(log_.events)
        self._skipped = {
            path for e in log_.events if isinstance(e, CheckpointEvent) for path in e.skipped or ()
        }
        self._prompt = 0
        self._before: asyncio.Task[Snapshot | None] | None = None
        self._unsaved: int | None = None
        """A step whose calls ran and whose checkpoint is not recorded yet."""
        self._named: frozenset[str] | None = None
        """The files that step's tools named as the only ones they change (`None`: any)."""

    @property
    def root(self) -> Path:
        """The workspace root."""
        return self._workspace.cwd

    @property
    def tree(self) -> str | None:
        """The workspace as last saved in this log."""
        return self._tree

    def store(self) -> SnapshotStore:
        """The snapshot store, opened on first use (`CheckpointError` when it cannot be)."""
        if self._store is None:
            try:
                self._store = open_store(self._home, self._workspace.cwd)
            except OSError as exc:
                raise CheckpointError(f"cannot open the snapshot store: {exc}") from exc
        return self._store

    def begin(self, prompt: int) -> None:
        """A prompt starts: save the workspace as it is before it, in the background."""
        if not self.enabled:
            return
        self._prompt = prompt
        self._unsaved = None
        # Only the snapshot runs meanwhile: its event is appended when the first step's
        # tools are about to run (or the prompt ends), so the log's order does not race.
        self._before = asyncio.create_task(self._snapshot_now())

    async def before_step(self, step: int, calls: Sequence[ToolCallRecord]) -> None:
        """Before a step's calls run: the prompt's first save is done, and what `edit` and
        `write` will change is kept when the store saves only that."""
        if not self.enabled:
            return
        paths, anything = self._writes(calls)
        if not paths and not anything:
            return
        await self._settle_before()
        if self.enabled and self._store is not None and self._store.kind == "git":
            # What changed while the model answered is no step's doing: saved as such, so
            # that a restore treats it as someone else's change (a conflict), not as tether's.
            snapshot = await self._snapshot_now()
            if snapshot is not None:
                self._record(step, snapshot, outside=snapshot.changed)
        self._unsaved = step
        self._named = None if anything else frozenset(paths)
        if self.enabled and paths and self._store is not None and self._store.kind == "preimages":
            store = self._store
            try:
                await asyncio.to_thread(store.track, self._tree, paths)
            except Exception as exc:  # a checkpoint must never break the prompt it serves
                self._fail(exc)

    async def after_step(self) -> None:
        """After a step's calls: save the workspace if they may have changed it."""
        if self._unsaved is not None and self.enabled:
            step, self._unsaved = self._unsaved, None
            await self._save(step)

    async def settle(self) -> None:
        """Before a prompt ends (also when cancelled or failed): every save recorded."""
        await self._settle_before()
        await self.after_step()

    def notice(self) -> CheckpointSaved | None:
        """The notice closing the current prompt, made from the log as a replay makes it."""
        events = self._log.events
        start = next(
            (i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], TurnStart)), 0
        )
        saved = [e for e in events[start:] if isinstance(e, CheckpointEvent)]
        if not saved:
            return None
        said = any(
            isinstance(e, CheckpointEvent) and e.store == "preimages" for e in events[:start]
        )
        return checkpoint_notice(saved, said)

    def restored(self, event: RestoreEvent) -> None:
        """A restore was recorded: later checkpoints compare with the workspace after it."""
        self._tree = event.tree

    async def _settle_before(self) -> None:
        if self._before is not None:
            task, self._before = self._before, None
            snapshot = await task
            if snapshot is not None:
                self._record(0, snapshot)

    def _writes(self, calls: Sequence[ToolCallRecord]) -> tuple[tuple[str, ...], bool]:
        """The files the calls name as changing (relative to the workspace root), and whether
        some call may change any file."""
        paths: list[str] = []
        anything = False
        for call in calls:
            tool = self._tools.get(call.name)
            if tool is None:
                continue
            args = parse_arguments(tool, call.arguments)
            if isinstance(args, ToolResult):
                continue  # it will not run
            named = tool.writes(args)
            if named is None:
                anything = True
                continue
            for raw in named:
                try:
                    path = self._workspace.resolve(raw)
                except ToolError:
                    continue  # the call itself reports the bad path
                if path.is_relative_to(self._workspace.cwd) and path != self._workspace.cwd:
                    paths.append(path.relative_to(self._workspace.cwd).as_posix())
        return tuple(paths), anything

    async def _save(self, step: int) -> None:
        snapshot = await self._snapshot_now()
        if snapshot is not None:
            named, self._named = self._named, None
            # A step whose every tool named what it writes changed only those files: any
            # other one changed meanwhile was changed by someone else.
            others = () if named is None else tuple(p for p in snapshot.changed if p not in named)
            self._record(step, snapshot, outside=others)

    async def _snapshot_now(self) -> Snapshot | None:
        try:
            return await asyncio.to_thread(self._snapshot)
        except (CheckpointError, OSError) as exc:
            self._fail(exc)
        except Exception as exc:  # a checkpoint must never break the prompt it serves
            log.exception("a checkpoint failed")
            self._fail(exc)
        return None

    def _record(self, step: int, snapshot: Snapshot, *, outside: Sequence[str] = ()) -> None:
        first = self._tree is None
        if not first and snapshot.tree == self._tree:
            return  # nothing changed: no new checkpoint
        assert self._store is not None
        new_skipped = tuple(p for p in snapshot.skipped if p not in self._skipped)
        self._skipped.update(new_skipped)
        self._log.append(
            CheckpointEvent(
                prompt=self._prompt,
                step=step,
                tree=snapshot.tree,
                changed=snapshot.changed,
                outside=tuple(outside) or None,
                skipped=new_skipped or None,
                store="preimages" if self._store.kind == "preimages" else None,
            )
        )
        self._tree = snapshot.tree

    def _snapshot(self) -> Snapshot:
        return self.store().snapshot(self._tree)

    def _fail(self, exc: Exception) -> None:
        log.warning("checkpoints are off for this session: %s", exc)
        self.enabled = False


def last_tree(events: Sequence[Event]) -> str | None:
    """The workspace as last saved in a log (a checkpoint's tree, or a restore's)."""
    for event in reversed(events):
        if isinstance(event, CheckpointEvent | RestoreEvent):
            return event.tree
    return None
