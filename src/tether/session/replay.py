"""The updates a client saw live, derived again from the log alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from tether.content import ImageContent, TextContent
from tether.session._gc import gc_paused
from tether.session.calls import PreparedCall, finished, prepare
from tether.session.jobcards import job_update
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
)
from tether.session.usage import sum_costs
from tether.tools.registry import ToolRegistry

__all__ = [
    "checkpoint_notice",
    "command_updates",
    "context_updates",
    "hook_update",
    "replay",
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
        return _replay(events, tools, cwd, window, compact_at)


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


def _replay(
    events: Sequence[Event],
    tools: ToolRegistry,
    cwd: str | None,
    window: int | None,
    compact_at: float | None,
) -> list[ClientUpdate]:
    updates: list[ClientUpdate] = []
    calls: dict[str, PreparedCall] = {}
    previous: Event | None = None
    saved: list[CheckpointEvent] = []
    partial_said = False
    thought = ThoughtClock()
    trust: list[ClientUpdate] = []
    costs: list[float | None] = []
    for event in events:
        updates.extend(thought.step(event, previous))
        match event:
            case UserMessageEvent():
                # The trust asked at this prompt was answered once the person had sent it.
                updates.extend([*user_updates(event), *trust])
                trust.clear()
            case AssistantChunk():
                updates.append(AgentText(text=event.text))
            case ToolCallEvent():
                call = calls[event.tool_call_id] = prepare(tools, event, cwd)
                updates.append(call.started())
            case ToolResultEvent():
                updates.append(finished(calls[event.tool_call_id], event))
            case SessionTitle():
                updates.append(TitleChanged(title=event.title))
            case TurnEnd():
                notice = checkpoint_notice(saved, partial_said)
                partial_said = partial_said or (notice is not None and notice.partial)
                updates.extend([notice, _ended(event)] if notice else [_ended(event)])
                saved.clear()
            case UsageEvent() | CompactionEvent():
                costs += [event.cost_usd] if isinstance(event, UsageEvent) else []
                spent = sum_costs(costs)
                updates.extend(context_updates(event, previous, window, compact_at, spent))
            case HookRunEvent() | JobEvent():
                updates.append(
                    hook_update(event) if isinstance(event, HookRunEvent) else job_update(event)
                )
            case CheckpointEvent():
                saved.append(event)
            case RestoreEvent():
                updates.append(restore_update(event))
            case CommandEvent():
                updates.extend(command_updates(event))
            case TrustEvent():
                # Logged before the prompt it was asked at; shown after it, as it was live.
                trust.append(TrustSettled(root=event.root, decision=event.decision))
            case TurnStart():
                saved.clear()
            case AssistantMessageEvent() | AssistantThinking() | SessionConfigEvent():
                pass
            case _:
                assert_never(event)
        previous = event
    updates.extend(thought.step(None, previous))  # a log that stops mid-thought
    updates.extend(trust)
    return updates


def _ended(event: TurnEnd) -> TurnEnded | TurnFailed:
    if event.stop_reason == "error":
        return TurnFailed(message=event.error or "the model failed")
    return TurnEnded(stop_reason=event.stop_reason)


def checkpoint_notice(
    saved: Sequence[CheckpointEvent], partial_said: bool
) -> CheckpointSaved | None:
    """The notice closing a prompt: the files its steps changed, files left out for their
    size, and (once per session) that without git only edit and write are covered."""
    files = list(dict.fromkeys(p for e in saved for p in e.own()))
    skipped = tuple(dict.fromkeys(p for e in saved for p in e.skipped or ()))
    partial = not partial_said and any(e.store == "preimages" for e in saved)
    if not (files or skipped or partial) or not saved:
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
