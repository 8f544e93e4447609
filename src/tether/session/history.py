"""The conversation the model sees, derived from the log (so a loaded session continues).

Hooks add to it from their `hook/run` events: a run's `context` follows its call's result
when it names a call, else it is said to the model as the person's words would be; a prompt
a `UserPromptSubmit` hook blocked is left out, with what its hooks added.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import assert_never

from tether.content import ContentBlock, TextContent
from tether.models.messages import (
    AssistantMessage,
    Message,
    Thinking,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from tether.session.events import (
    AssistantChunk,
    AssistantMessageEvent,
    AssistantThinking,
    CheckpointEvent,
    CompactionEvent,
    Event,
    HookRunEvent,
    RestoreEvent,
    SessionConfigEvent,
    SessionTitle,
    ToolCallEvent,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UsageEvent,
    UserMessageEvent,
)

__all__ = ["NO_RESULT", "derive_history", "restore_reminder"]

NO_RESULT = "No result was recorded for this call."
"""What the model sees for a call whose result never reached the log."""


def derive_history(events: Iterable[Event]) -> list[Message]:
    """User messages, assistant messages, and each message's results in the model's order."""
    logged = list(events)
    dropped = _dropped_prompts(logged)
    messages: list[Message] = []
    open_message: AssistantMessageEvent | None = None
    results: dict[str, ToolResultEvent] = {}
    added: dict[str, list[str]] = {}
    """What hooks added after each call's result, by call id."""
    prompt_dropped = False

    def close() -> None:
        # Results are appended as calls finish; the model sees them in its own call order.
        if open_message is not None:
            messages.extend(
                _result(call.id, call.name, results, added) for call in open_message.tool_calls
            )

    def say(content: tuple[ContentBlock, ...]) -> None:
        nonlocal open_message
        close()
        open_message = None
        previous = messages[-1] if messages else None
        if isinstance(previous, UserMessage):
            # A cancelled turn may leave no reply; two prompts in a row become one.
            messages[-1] = UserMessage(content=previous.content + content)
        else:
            messages.append(UserMessage(content=content))

    for event in logged:
        match event:
            case UserMessageEvent():
                prompt_dropped = event.seq in dropped
                if not prompt_dropped:
                    say(event.content)
            case HookRunEvent(context=str() as context) if context:
                if event.tool_call_id is not None:
                    added.setdefault(event.tool_call_id, []).append(context)
                elif not (prompt_dropped and event.event == "UserPromptSubmit"):
                    say((TextContent(text=context),))
            case HookRunEvent():
                pass
            case RestoreEvent():
                # The model must not believe its changes are still there.
                say((TextContent(text=restore_reminder(event)),))
            case AssistantMessageEvent():
                close()
                open_message, results = event, {}
                calls = tuple(ToolCall(c.id, c.name, c.arguments) for c in event.tool_calls)
                thinking = tuple(
                    Thinking(p.text, p.signature, p.redacted, p.source, p.item_id)
                    for p in event.thinking or ()
                )
                messages.append(
                    AssistantMessage(event.text, calls, event.stop_reason, thinking=thinking)
                )
            case ToolResultEvent():
                results[event.tool_call_id] = event
            case (
                TurnStart()
                | AssistantChunk()
                | AssistantThinking()
                | ToolCallEvent()
                | TurnEnd()
                | SessionTitle()
                | SessionConfigEvent()
                | CheckpointEvent()
            ):
                pass
            case UsageEvent() | CompactionEvent():
                pass  # compaction is applied over this history (see `compaction.model_view`)
            case _:
                assert_never(event)
    close()
    return messages


def restore_reminder(event: RestoreEvent) -> str:
    """What the model is told when files were restored under it."""
    if event.action == "redo":
        where = f"to how prompt {event.prompt} left them (a redo)"
    else:
        why = "an undo" if event.action == "undo" else "a rewind"
        where = f"to how they were before prompt {event.prompt} ({why})"
    names = ", ".join(event.restored[:20]) + (" and more" if len(event.restored) > 20 else "")
    return (
        f"<system-reminder>The person restored {len(event.restored)} file(s) {where}: "
        f"{names or '(none)'}. Changes made to them since are gone; read a file again "
        "before you edit it.</system-reminder>"
    )


def _result(
    call_id: str,
    name: str,
    results: dict[str, ToolResultEvent],
    added: dict[str, list[str]],
) -> ToolResultMessage:
    event = results.get(call_id)
    if event is None:
        return ToolResultMessage(call_id, name, (TextContent(text=NO_RESULT),), is_error=True)
    content = event.content
    if event.reminder:
        content = (*content, TextContent(text=event.reminder))
    content = (*content, *(TextContent(text=text) for text in added.get(call_id, ())))
    return ToolResultMessage(call_id, name, content, event.is_error)


def _dropped_prompts(events: Sequence[Event]) -> set[int]:
    """The seqs of prompts a `UserPromptSubmit` hook blocked (or stopped)."""
    dropped: set[int] = set()
    prompt: int | None = None
    for event in events:
        if isinstance(event, UserMessageEvent):
            prompt = event.seq
        elif (
            isinstance(event, HookRunEvent)
            and event.event == "UserPromptSubmit"
            and event.decision in ("block", "stop")
            and prompt is not None
        ):
            dropped.add(prompt)
    return dropped
