"""The updates a client saw live, derived again from the log alone."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import assert_never

from tether.content import ImageContent, TextContent
from tether.session._gc import gc_paused
from tether.session.calls import PreparedCall, finished, prepare
from tether.session.log.events import (
    AssistantChunk,
    AssistantMessageEvent,
    AssistantThinking,
    CompactionEvent,
    Event,
    HookRunEvent,
    JobEvent,
    SessionConfigEvent,
    SessionTitle,
    ToolCallEvent,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UsageEvent,
    UserMessageEvent,
)
from tether.session.log.shown import EmbeddedResource, ResourceLink
from tether.session.log.workspace_events import (
    CheckpointEvent,
    CommandEvent,
    RestoreEvent,
    TrustEvent,
)
from tether.session.notices import (
    CheckpointSaved,
    CommandAnswered,
    FilesRestored,
    HookRan,
    TrustSettled,
)
from tether.session.thoughts import ThoughtClock
from tether.session.updates import (
    AgentText,
    ClientUpdate,
    ContextCompacted,
    TitleChanged,
    TurnEnded,
    TurnFailed,
    UsageChanged,
    UserImage,
    UserResource,
    UserText,
    agent_text,
)
from tether.session.usage import sum_costs
from tether.tools.registry import ToolRegistry

__all__ = [
    "Replayer",
    "checkpoint_notice",
    "command_updates",
    "context_updates",
    "hook_update",
    "replay",
    "replayed",
    "restore_update",
    "user_updates",
]


def replay(
    events: Sequence[Event],
    tools: ToolRegistry,
    cwd: str | None,
    window: int | None = None,
    compact_at: float | None = None,
) -> list[ClientUpdate]:
    """Every update of the log, in order; progress updates are live only and never come back.

    Cards name the workspace `cwd` (the log header's) as the live ones did. Budget updates need
    the context `window` (and say the compaction point `compact_at` when given); without it
    only the compaction notices come back.
    """
    with gc_paused():
        return list(replayed(events, tools, cwd, window, compact_at))


def replayed(
    events: Iterable[Event],
    tools: ToolRegistry,
    cwd: str | None,
    window: int | None = None,
    compact_at: float | None = None,
) -> Iterator[ClientUpdate]:
    """`replay`'s updates one by one, as each event makes them: a long log's are never all held
    (and neither are its events, when `events` lets each go once it is read). How the collector
    runs meanwhile is the caller's choice (`replay` pauses it; `tether show` keeps it running)."""
    replayer = Replayer(tools, cwd, window, compact_at)
    yield from replayer.replaying(events)
    yield from replayer.end()


def context_updates(
    event: UsageEvent | CompactionEvent,
    previous: Event | None,
    window: int | None,
    compact_at: float | None = None,
    spent: float | None = None,
) -> list[ClientUpdate]:
    """The budget and notice updates of a usage or compaction event, live and on replay;
    `spent` is what the session's responses cost up to it (`None`: unknown).

    A usage report counts for the budget only when it answers a turn of the conversation
    (it follows the `assistant/message`); a summarisation request's report does not.
    """
    updates: list[ClientUpdate] = []
    match event:
        case UsageEvent():
            if window is not None and isinstance(previous, AssistantMessageEvent):
                used = event.input_tokens + event.output_tokens
                updates.append(
                    UsageChanged(used=used, size=window, compact_at=compact_at, cost_usd=spent)
                )
        case CompactionEvent():
            updates.append(
                ContextCompacted(
                    method=event.method,
                    before_tokens=event.before_tokens,
                    after_tokens=event.after_tokens,
                )
            )
            if window is not None:
                after = event.after_tokens
                updates.append(
                    UsageChanged(used=after, size=window, compact_at=compact_at, cost_usd=spent)
                )
        case _:
            assert_never(event)
    return updates


class Replayer:
    """`replay` a log as it grows: `feed` turns the events appended since into their updates,
    keeping what a later event needs (its call, the thought running, trust not yet shown).

    Fed a log in any number of pieces, then `end`ed, it gives what `replay` gives for the
    whole (a follower that never ends it shows a session still going, as it was live).
    """

    def __init__(
        self,
        tools: ToolRegistry,
        cwd: str | None,
        window: int | None = None,
        compact_at: float | None = None,
    ) -> None:
        self.tools = tools
        self.cwd = cwd
        self.window = window
        """The context window budget updates are measured against (`None`: none are made)."""
        self.compact_at = compact_at
        self._calls: dict[str, PreparedCall] = {}
        self._previous: Event | None = None
        self._saved: list[CheckpointEvent] = []
        self._partial_said = False
        self._thought = ThoughtClock()
        self._trust: list[ClientUpdate] = []
        self._costs: list[float | None] = []

    def feed(self, events: Sequence[Event]) -> list[ClientUpdate]:
        """The updates of `events`, which follow those fed before."""
        updates: list[ClientUpdate] = []
        for event in events:
            updates.extend(self.feed_one(event))
        return updates

    def feed_one(self, event: Event) -> list[ClientUpdate]:
        """`feed` of one event (a replay feeds a log's events one by one)."""
        if self._thought.open or isinstance(event, AssistantThinking):
            updates = [*self._thought.step(event, self._previous), *self._updates(event)]
        else:
            # No thought to close and none to begin: the clock has nothing to say.
            updates = self._updates(event)
        self._previous = event
        return updates

    def replaying(self, events: Iterable[Event]) -> Iterator[ClientUpdate]:
        """`feed`'s updates of `events`, one by one as each event makes them."""
        feed_one, started, finished_ = self.feed_one, self._started, self._finished
        thinking = self._thought.open
        for event in events:
            # While no thought runs (none to close before them), a log's most frequent events
            # are replayed here as `feed_one` replays them, without its lists: the thousands of
            # chunks a reply streams in, each step's message (which says nothing more), and
            # each call and its result. Only `feed_one` starts or ends a thought, so whether
            # one runs is looked at again after it alone.
            if thinking:
                yield from feed_one(event)
                thinking = self._thought.open
                continue
            if type(event) is AssistantChunk:
                yield agent_text(event.text)
            elif type(event) is ToolCallEvent:
                yield started(event)
            elif type(event) is ToolResultEvent:
                yield finished_(event)
            elif type(event) is not AssistantMessageEvent:
                yield from feed_one(event)
                thinking = self._thought.open
                continue
            self._previous = event

    def end(self) -> list[ClientUpdate]:
        """What closes the log where it stops: a thought cut off, trust never shown."""
        # A log that stops mid-thought.
        updates: list[ClientUpdate] = [*self._thought.step(None, self._previous), *self._trust]
        self._trust.clear()
        return updates

    def _updates(self, event: Event) -> list[ClientUpdate]:
        # Cases are tried in order, one class check each: a log's most frequent kinds first
        # (its chunks and messages mostly take `replaying`'s quick way, and come here only
        # while a thought runs or when fed by `feed`).
        match event:
            case ToolCallEvent():
                return [self._started(event)]
            case ToolResultEvent():
                return [self._finished(event)]
            case AssistantMessageEvent() | AssistantThinking() | SessionConfigEvent():
                pass
            case UserMessageEvent():
                # The trust asked at this prompt was answered once the person had sent it.
                updates = [*user_updates(event), *self._trust]
                self._trust.clear()
                return updates
            case AssistantChunk():
                return [AgentText(text=event.text)]
            case SessionTitle():
                return [TitleChanged(title=event.title)]
            case TurnEnd():
                notice = checkpoint_notice(self._saved, self._partial_said)
                self._partial_said = self._partial_said or bool(notice and notice.partial)
                self._saved.clear()
                return [notice, _ended(event)] if notice else [_ended(event)]
            case UsageEvent() | CompactionEvent():
                self._costs += [event.cost_usd] if isinstance(event, UsageEvent) else []
                spent = sum_costs(self._costs)
                return context_updates(event, self._previous, self.window, self.compact_at, spent)
            case HookRunEvent():
                return [hook_update(event)]
            case JobEvent():
                # The bash tool's job machinery loads with a log's first background job.
                from tether.session.jobcards import job_update

                return [job_update(event)]
            case CheckpointEvent():
                self._saved.append(event)
            case RestoreEvent():
                return [restore_update(event)]
            case CommandEvent():
                return command_updates(event)
            case TrustEvent():
                # Logged before the prompt it was asked at; shown after it, as it was live.
                self._trust.append(TrustSettled(root=event.root, decision=event.decision))
            case TurnStart():
                self._saved.clear()
            case _:
                assert_never(event)
        return []

    def _started(self, event: ToolCallEvent) -> ClientUpdate:
        """The update of a call, kept for its result."""
        call = prepare(self.tools, event, self.cwd, replaying=True)
        self._calls[event.tool_call_id] = call
        return call.started()

    def _finished(self, event: ToolResultEvent) -> ClientUpdate:
        """The update of a call's result."""
        return finished(self._calls[event.tool_call_id], event)


def _ended(event: TurnEnd) -> TurnEnded | TurnFailed:
    if event.stop_reason == "error":
        return TurnFailed(message=event.error or "the model failed")
    return TurnEnded(stop_reason=event.stop_reason)


def checkpoint_notice(
    saved: Sequence[CheckpointEvent], partial_said: bool
) -> CheckpointSaved | None:
    """The notice closing a prompt: the files its steps changed, files left out for their
    size, and (once per session) that without git only edit and write are covered."""
    if not saved:
        # A prompt whose steps saved nothing: no notice, and none of the three passes below.
        return None
    files = list(dict.fromkeys(p for e in saved for p in e.own()))
    skipped = tuple(dict.fromkeys(p for e in saved for p in e.skipped or ()))
    partial = not partial_said and any(e.store == "preimages" for e in saved)
    if not (files or skipped or partial):
        return None
    return CheckpointSaved(
        prompt=saved[-1].prompt, files=tuple(files), skipped=skipped, partial=partial
    )


def command_updates(event: CommandEvent) -> list[ClientUpdate]:
    """The person's command as they typed it, then tether's answer when it was words."""
    updates: list[ClientUpdate] = []
    if event.text is not None:
        updates.append(UserText(text=event.text))
    if event.said is not None:
        updates.append(CommandAnswered(text=event.said, fork=event.fork, prompt=event.prompt))
    return updates


def restore_update(event: RestoreEvent) -> FilesRestored:
    """The notice of a restore."""
    return FilesRestored(
        action=event.action, prompt=event.prompt, restored=event.restored, kept=event.kept
    )


def hook_update(event: HookRunEvent) -> HookRan:
    """The notice of a hook's run, live and on replay."""
    failed = event.error is not None or event.exit_code not in (0, 2)
    said = [event.error, event.reason, event.system_message, event.note]
    if failed and not event.error and not event.reason and event.stderr:
        said[1] = event.stderr
    message = "; ".join(part.strip() for part in said if part and part.strip())
    return HookRan(
        event=event.event,
        command=event.command,
        duration_ms=event.duration_ms,
        exit_code=event.exit_code,
        decision=event.decision,
        message=message or None,
        failed=failed,
        added_context=bool(event.context),
        tool_call_id=event.tool_call_id,
    )


def user_updates(event: UserMessageEvent) -> list[ClientUpdate]:
    """One update per block of the person's prompt, as they sent it."""
    updates: list[ClientUpdate] = []
    for block in event.shown or event.content:
        match block:
            case TextContent():
                updates.append(UserText(text=block.text))
            case ImageContent():
                updates.append(UserImage(data=block.data, mime_type=block.mime_type))
            case ResourceLink() | EmbeddedResource():
                updates.append(UserResource(block=block))
            case _:
                assert_never(block)
    return updates
