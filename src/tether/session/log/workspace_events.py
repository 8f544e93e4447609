"""The log's events about the workspace: its checkpoints, the restores made from them, the
commands that asked for those (`/rewind`, `/undo`, `/redo`, `/fork`), and whether it is trusted.

They are members of the log's one `Event` union (`tether.session.log.events`).
"""

from __future__ import annotations

from typing import Literal

from pydantic.dataclasses import dataclass

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "RESTORE_ACTIONS",
    "CheckpointEvent",
    "CommandEvent",
    "RestoreAction",
    "RestoreEvent",
    "TrustEvent",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class CheckpointEvent:
    """The workspace was saved as `tree`: before prompt `prompt` (step 0) or after its step `step`.

    `changed` are the paths that differ from the previous checkpoint: what the step's tools
    did, or for step 0 what changed outside tether since. `outside` are those of `changed`
    that tether's tools did not change: in a save just before step `step`'s tools ran (what
    changed while the model answered), or after a step whose every tool named the files it
    writes, the others. `skipped` names files left out for their size or unreadable, the
    first time each is met; `store` is `preimages` when there was no git and only the files
    `edit` and `write` changed were saved.
    """

    type: Literal["checkpoint"] = "checkpoint"
    seq: int = 0
    time: str = ""
    prompt: int
    step: int
    tree: str
    changed: tuple[str, ...] = ()
    outside: Opt[tuple[str, ...]] = None
    skipped: Opt[tuple[str, ...]] = None
    store: Opt[Literal["preimages"]] = None

    def own(self) -> tuple[str, ...]:
        """The paths tether's tools changed in this save (none before the prompt)."""
        if self.step == 0:
            return ()
        if not self.outside:
            return self.changed
        outside = set(self.outside)
        return tuple(p for p in self.changed if p not in outside)

    def others(self) -> tuple[str, ...]:
        """The paths something other than tether's tools changed in this save."""
        return self.changed if self.step == 0 else (self.outside or ())


RestoreAction = Literal["rewind", "undo", "redo"]
"""Why files were restored: `/rewind`, `/undo` (the last prompt), `/redo` (an undo undone)."""

RESTORE_ACTIONS: tuple[RestoreAction, ...] = ("rewind", "undo", "redo")


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class RestoreEvent:
    """Files were restored: to before prompt `prompt` (rewind, undo) or to its end (redo).

    `before` is the workspace just before (`outside`: what had changed outside tether since
    the last checkpoint), `tree` the workspace after; `restored` are the paths put back,
    `kept` the ones left as they were (changed by someone else, and kept by choice).
    """

    type: Literal["checkpoint/restore"] = "checkpoint/restore"
    seq: int = 0
    time: str = ""
    action: RestoreAction
    prompt: int
    before: str
    outside: tuple[str, ...] = ()
    tree: str
    restored: tuple[str, ...]
    kept: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TrustEvent:
    """The person said whether to trust the workspace `root` (its settings files as they were:
    `fingerprint`): for good, for this session (`allow_once`, kept when it is loaded again),
    or not."""

    type: Literal["workspace/trust"] = "workspace/trust"
    seq: int = 0
    time: str = ""
    root: str
    decision: Literal["allow_always", "allow_once", "reject"]
    fingerprint: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class CommandEvent:
    """A command tether answered itself (`/rewind 3`, `/undo`, `/fork`), never seen by the model.

    `text` is the command as the person typed it (a restore's own event follows); `said` is
    tether's answer when it was words (a listing, a refusal; alone, without `text`, when a
    restore failed after it was logged); `fork` the session a fork made, before `prompt`.
    """

    type: Literal["user/command"] = "user/command"
    seq: int = 0
    time: str = ""
    text: Opt[str] = None
    said: Opt[str] = None
    fork: Opt[str] = None
    prompt: Opt[int] = None
