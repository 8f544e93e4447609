"""Carrying out a restore plan, and finishing one a crash cut short: `checkpoint/restore` events.

A restore saves the workspace first (what changed outside tether since the last checkpoint
is recorded as such), applies the plan's changes through the store's journal, saves the
workspace again, appends the event, and only then drops the journal. A session opened
after a crash finishes the journal's changes and records the event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from pathlib import Path

from pydantic import JsonValue

from tether.checkpoints import Restored, finish, recover, restore
from tether.errors import CheckpointError, RewindError
from tether.session.log.eventlog import EventLog
from tether.session.log.workspace_events import RESTORE_ACTIONS, RestoreEvent
from tether.session.rewind.checkpointing import Checkpoints
from tether.session.rewind.plan import RestorePlan

__all__ = ["apply_plan", "journal_path", "recover_restore"]


def journal_path(log_: EventLog) -> Path:
    """Where a session's restore journal lives: beside its log."""
    return log_.path.with_name(f"{log_.path.stem}.restore.json")


async def apply_plan(
    log_: EventLog, checkpoints: Checkpoints, plan: RestorePlan, take: Collection[str] = ()
) -> RestoreEvent:
    """Restore what `plan` says, conflicts in `take` too (the rest are kept); record it."""
    store = checkpoints.store()
    journal = journal_path(log_)
    chosen = [*plan.changes, *(c.take for c in plan.conflicts if c.path in take and c.take)]
    kept = sorted(
        {c.path for c in plan.conflicts if c.path not in take or c.take is None} | set(plan.missing)
    )

    def work() -> tuple[str, tuple[str, ...], Restored, str]:
        before = store.snapshot(checkpoints.tree)
        note: JsonValue = {
            "logged": len(log_.events),
            "action": plan.action,
            "prompt": plan.prompt,
            "before": before.tree,
            "outside": list(before.changed),
            "kept": list(kept),
        }
        done = restore(store, chosen, journal, note)
        after = store.snapshot(before.tree)
        return before.tree, before.changed, done, after.tree

    try:
        before, outside, done, after = await asyncio.to_thread(work)
    except (CheckpointError, OSError) as exc:
        raise RewindError(f"the restore failed: {exc}") from exc
    event = RestoreEvent(
        action=plan.action,
        prompt=plan.prompt,
        before=before,
        outside=outside,
        tree=after,
        restored=done.restored,
        kept=tuple(sorted({*kept, *done.kept})),
    )
    return _record(log_, checkpoints, event, journal)


def recover_restore(log_: EventLog, checkpoints: Checkpoints) -> RestoreEvent | None:
    """Finish a restore a killed process left half done, and record it; `None` if none was."""
    journal = journal_path(log_)
    if not journal.exists():
        return None
    store = checkpoints.store()
    found = recover(store, journal)
    if found is None:
        return None
    done, note = found
    try:
        assert isinstance(note, dict)
        action = next(a for a in RESTORE_ACTIONS if a == note["action"])
        prompt, before, logged = note["prompt"], note["before"], note["logged"]
        outside, kept = note["outside"], note["kept"]
        assert isinstance(prompt, int) and isinstance(before, str) and isinstance(logged, int)
        assert isinstance(outside, list) and isinstance(kept, list)
    except (AssertionError, KeyError, StopIteration) as exc:
        raise CheckpointError(f"the restore journal {journal} has no usable note") from exc
    # The session holds its log: an event after the one last logged when the restore began
    # can only be the restore's own.
    recorded = any(isinstance(e, RestoreEvent) for e in log_.events[logged:])
    if recorded:  # killed after the event was appended, before the journal went
        finish(journal)
        return None
    event = RestoreEvent(
        action=action,
        prompt=prompt,
        before=before,
        outside=tuple(str(p) for p in outside),
        tree=store.snapshot(before).tree,
        restored=done.restored,
        kept=tuple(sorted({*(str(p) for p in kept), *done.kept})),
    )
    return _record(log_, checkpoints, event, journal)


def _record(
    log_: EventLog, checkpoints: Checkpoints, event: RestoreEvent, journal: Path
) -> RestoreEvent:
    stored = log_.append(event)
    log_.sync()
    checkpoints.restored(stored)
    finish(journal)
    return stored
