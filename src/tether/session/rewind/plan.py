"""What a rewind, an undo or a redo would restore, read from the log's checkpoints.

Tether restores only what its own tools changed: the paths its steps (and earlier restores)
changed since the checkpoint. A path that someone else changed too — after tether's last
change to it, or between prompts — is a conflict: it is listed with a short diff and
restored only when the person says to take the checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tether.checkpoints import (
    Blob,
    Change,
    DiskState,
    FileState,
    LineCount,
    SnapshotStore,
    Unsnapshotted,
    disk_bytes,
    disk_state,
)
from tether.content import TextContent
from tether.errors import CheckpointError, RewindError, UnreadableFile
from tether.session.log.events import Event, TurnStart, UserMessageEvent
from tether.session.log.workspace_events import CheckpointEvent, RestoreAction, RestoreEvent
from tether.session.rewind.conflicts import Conflict

__all__ = [
    "PromptChanges",
    "RestorePlan",
    "counted",
    "plan_redo",
    "plan_rewind",
    "plan_undo",
    "prompt_changes",
    "prompt_listing",
    "undo_target",
]

_DIFF_ROWS = 12
_DIFF_BYTES = 256 * 1024


@dataclass(frozen=True)
class RestorePlan:
    """What a restore would do: changes to apply, conflicts to decide, paths already right."""

    action: RestoreAction
    prompt: int
    changes: tuple[Change, ...]
    conflicts: tuple[Conflict, ...] = ()
    unchanged: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    """Paths whose earlier version no checkpoint holds (without git: never edited by tether)."""

    @property
    def paths(self) -> tuple[str, ...]:
        """Every path the plan is about, sorted."""
        return tuple(sorted({c.path for c in self.changes} | {c.path for c in self.conflicts}))


@dataclass(frozen=True)
class PromptChanges:
    """One prompt of a session as `/rewind` lists it: its text and what its tools changed."""

    number: int
    text: str
    files: tuple[LineCount, ...] = ()
    restorable: bool = False
    """A checkpoint before it exists."""


@dataclass
class _Since:
    """What changed after a checkpoint: tether's last tree per path, and changes by others."""

    last: dict[str, str] = field(default_factory=dict)
    outside: dict[str, str] = field(default_factory=dict)


def prompt_changes(events: Sequence[Event], store: SnapshotStore | None) -> list[PromptChanges]:
    """Every prompt of the log, the files its tools changed, their lines added and deleted."""
    prompts = _prompt_texts(events)
    anchors = {n: _anchor(events, n) for n in prompts}
    ends: dict[int, str] = {}
    files: dict[int, dict[str, None]] = {}
    for event in events:
        if isinstance(event, CheckpointEvent) and event.step > 0:
            ends[event.prompt] = event.tree
            files.setdefault(event.prompt, {}).update(dict.fromkeys(event.own()))
    listed = []
    for number, text in prompts.items():
        anchor = anchors[number]
        changed = list(files.get(number, {}))
        counts = {p: LineCount(p, None, None) for p in changed}
        if store is not None and anchor is not None and number in ends and changed:
            for count in store.line_counts(anchor[1], ends[number]):
                if count.path in counts:
                    counts[count.path] = count
        listed.append(
            PromptChanges(number, text, tuple(counts[p] for p in changed), anchor is not None)
        )
    return listed


def plan_rewind(
    events: Sequence[Event], store: SnapshotStore, prompt: int, action: RestoreAction = "rewind"
) -> RestorePlan:
    """Restore what tether changed since before prompt `prompt`."""
    prompts = _prompt_texts(events)
    if prompt not in prompts:
        raise RewindError(
            f"there is no prompt {prompt}: the session has "
            + (f"prompts 1-{len(prompts)}" if prompts else "no prompts yet")
        )
    anchor = _anchor(events, prompt)
    if anchor is None:
        raise RewindError(f"no checkpoint was saved before prompt {prompt} (checkpoints were off)")
    index, tree = anchor
    since = _since(events[index + 1 :])
    paths = sorted(since.last)
    target = store.states(tree, paths)
    unknown = [p for p in paths if p not in target]
    for p in unknown:
        target.update(store.origins(since.last[p], [p]))
    expected: dict[str, FileState] = {}
    for last in set(since.last.values()):
        mine = [p for p in paths if since.last[p] == last]
        expected.update(store.states(last, mine))
    changes: list[Change] = []
    conflicts: list[Conflict] = []
    unchanged: list[str] = []
    missing: list[str] = []
    for path in paths:
        if path not in target or path not in expected:
            missing.append(path)
            continue
        now = disk_state(store.root, path)
        wanted = target[path]
        if now == wanted:
            unchanged.append(path)
        elif path in since.outside:
            conflicts.append(_conflict(store, path, since.outside[path], now, wanted))
        elif now != expected[path]:
            conflicts.append(
                _conflict(store, path, "changed after tether last changed it", now, wanted)
            )
        else:
            changes.append(Change(path, expected[path], wanted))
    return RestorePlan(
        action, prompt, tuple(changes), tuple(conflicts), tuple(unchanged), tuple(missing)
    )


def undo_target(events: Sequence[Event]) -> int | None:
    """The prompt `/undo` would undo: the last one not undone yet whose tools changed files."""
    position = _position(events)[0]
    changed = {
        e.prompt
        for e in events
        if isinstance(e, CheckpointEvent) and e.own() and e.prompt <= position
    }
    return max(changed, default=None)


def plan_undo(events: Sequence[Event], store: SnapshotStore) -> RestorePlan:
    """Restore the files to before the last prompt whose changes are not undone yet."""
    prompt = undo_target(events)
    if prompt is None:
        raise RewindError("nothing to undo: no prompt changed files since the last undo")
    return plan_rewind(events, store, prompt, "undo")


def plan_redo(events: Sequence[Event], store: SnapshotStore) -> RestorePlan:
    """Put back what the last undo restored, while none of those files changed since."""
    stack = _position(events)[1]
    if not stack:
        raise RewindError("nothing to redo: no undo since the last prompt or rewind")
    undo = stack[-1]
    paths = list(undo.restored)
    after = store.states(undo.tree, paths)
    target = store.states(undo.before, paths)
    changed = [
        p
        for p in paths
        if p not in after or p not in target or disk_state(store.root, p) != after[p]
    ]
    if changed:
        raise RewindError(
            f"cannot redo: {_listed(changed)} changed since the undo "
            "(use /rewind to choose file by file)"
        )
    changes = tuple(Change(p, after[p], target[p]) for p in paths if after[p] != target[p])
    return RestorePlan("redo", undo.prompt, changes)


def _position(events: Sequence[Event]) -> tuple[int, list[RestoreEvent]]:
    """How many prompts' changes are in place (undo moves it back), and the undos to redo."""
    position = 0
    stack: list[tuple[RestoreEvent, int]] = []
    for event in events:
        if isinstance(event, TurnStart):
            position += 1
            stack.clear()
        elif isinstance(event, RestoreEvent):
            match event.action:
                case "undo":
                    stack.append((event, position))
                    position = event.prompt - 1
                case "redo":
                    if stack:
                        position = stack.pop()[1]
                case "rewind":
                    position = event.prompt - 1
                    stack.clear()
    return position, [undo for undo, _ in stack]


def _anchor(events: Sequence[Event], prompt: int) -> tuple[int, str] | None:
    """Where the workspace before prompt `prompt` was saved: the event's index and tree.

    The save before a prompt is its step-0 checkpoint; when nothing had changed it was not
    recorded, and the last save before the prompt began holds the same workspace.
    """
    started = 0
    last: tuple[int, str] | None = None
    for index, event in enumerate(events):
        if isinstance(event, TurnStart):
            started += 1
            if started > prompt:
                break
            if started == prompt:
                continue
        elif isinstance(event, CheckpointEvent):
            if event.prompt == prompt and event.step == 0:
                return index, event.tree
            if started < prompt:
                last = index, event.tree
        elif isinstance(event, RestoreEvent) and started < prompt:
            last = index, event.tree
    return last if started >= prompt else None


def _since(events: Iterable[Event]) -> _Since:
    since = _Since()
    for event in events:
        if isinstance(event, CheckpointEvent):
            since.last.update(dict.fromkeys(event.own(), event.tree))
            when = "before" if event.step == 0 else "during"
            for path in event.others():
                since.outside[path] = f"changed outside tether {when} prompt {event.prompt}"
        elif isinstance(event, RestoreEvent):
            for path in event.outside:
                since.outside[path] = f"changed outside tether before the {event.action}"
            since.last.update(dict.fromkeys(event.restored, event.tree))
    return since


def _conflict(
    store: SnapshotStore, path: str, reason: str, now: DiskState, wanted: FileState
) -> Conflict:
    if isinstance(now, Unsnapshotted):
        return Conflict(path, f"{reason}; it is now {now.what}", "", None)
    return Conflict(path, reason, _short_diff(store, path, now, wanted), Change(path, now, wanted))


def _short_diff(store: SnapshotStore, path: str, now: FileState, wanted: FileState) -> str:
    """A few rows of what taking the checkpoint would do to the file as it is now."""
    links = [s for s in (now, wanted) if s is not None and s.mode == "120000"]
    if links:
        return "(a symbolic link)"
    note = "(taking the checkpoint deletes the file)\n" if wanted is None else ""
    try:
        new = store.content(wanted.oid) if wanted is not None else b""
        # The file was checked a moment ago but is the workspace's: it may have become a
        # FIFO, a huge file or a link (or a folder on its way one) since; never follow that.
        old = disk_bytes(store.root, path, _DIFF_BYTES) if now is not None else b""
    except UnreadableFile as exc:
        return note + f"(not shown: {exc})"
    except (OSError, CheckpointError):
        return "(cannot be read)"
    if len(old) > _DIFF_BYTES or len(new) > _DIFF_BYTES or b"\0" in old[:8192] + new[:8192]:
        return note + "(binary or large file)"
    from tether.linediff import row_hunks  # the diff engine, with the first rewind shown

    before = old.decode(errors="replace") if now is not None else None
    rows = [
        f"{row.op}{row.text}"
        for hunk in row_hunks(before, new.decode(errors="replace"))
        for row in hunk.rows
        if row.op != " "
    ]
    if isinstance(now, Blob) and wanted is not None and now.mode != wanted.mode and not rows:
        return f"(mode {now.mode} → {wanted.mode})"
    more = len(rows) - _DIFF_ROWS
    return note + "\n".join(rows[:_DIFF_ROWS] + ([f"… {more} more lines"] if more > 0 else []))


def _prompt_texts(events: Sequence[Event]) -> dict[int, str]:
    """Each prompt's number and the first line of what the person typed."""
    texts: dict[int, str] = {}
    number = 0
    for event in events:
        if isinstance(event, TurnStart):
            number += 1
            texts[number] = ""
        elif isinstance(event, UserMessageEvent) and number and not texts[number]:
            texts[number] = _first_line(event)
    return texts


def _first_line(event: UserMessageEvent) -> str:
    blocks = event.shown or event.content
    text = "".join(b.text for b in blocks if isinstance(b, TextContent))
    lines = text.strip().splitlines()
    line = lines[0].strip() if lines else "(no text)"
    return line if len(line) <= 80 else line[:79].rstrip() + "…"


def _listed(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:5])
    return shown if len(paths) <= 5 else f"{shown} and {len(paths) - 5} more"


def prompt_listing(session_id: str, prompts: Sequence[PromptChanges]) -> str:
    """What `/rewind` prints: each prompt, the files its tools changed, `+N -M` lines."""
    if not prompts:
        return f"session {session_id} has no prompts yet"
    lines = [f"prompts of session {session_id} (/rewind N restores the files to before N):"]
    for prompt in prompts:
        files = ", ".join(counted(f) for f in prompt.files[:6])
        if len(prompt.files) > 6:
            files += f" and {len(prompt.files) - 6} more"
        if not prompt.restorable:
            files = "(no checkpoint before it)"
        lines.append(f"  {prompt.number:>3}  {prompt.text[:48]:<48}  {files or '(no changes)'}")
    return "\n".join(lines)


def counted(count: LineCount) -> str:
    """`a.py +3 -1` (or `(binary)`): a path and the lines a prompt added and deleted in it."""
    if count.added is None or count.deleted is None:
        return f"{count.path} (binary)"
    return f"{count.path} +{count.added} -{count.deleted}"
