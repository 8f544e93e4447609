"""The conversation the model sees, derived from the log (so a loaded session continues).

Hooks add to it from their `hook/run` events: a run's `context` follows its call's result
when it names a call, else it is said to the model as the person's words would be; a prompt
a `UserPromptSubmit` hook blocked is left out, with what its hooks added.

A turn that ended before the model's reply was whole (cancelled, failed, or left open by a
stopped process) keeps what the model had streamed, and the next thing said to the model
starts with one line saying so and where (as Claude Code's `[Request interrupted by user]`):
otherwise the model reads two prompts as one and may redo what was stopped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
from tether.session.log.workspace_events import (
    CheckpointEvent,
    CommandEvent,
    RestoreEvent,
    TrustEvent,
)

__all__ = ["NO_RESULT", "History", "derive_history", "interruption_note", "restore_reminder"]

NO_RESULT = "No result was recorded for this call."
"""What the model sees for a call whose result never reached the log."""


def derive_history(events: Iterable[Event]) -> list[Message]:
    """User messages, assistant messages, and each message's results in the model's order."""
    logged = list(events)
    building = _Building(dropped=_dropped_prompts(logged))
    for event in logged:
        building.take(event)
    building.close()
    return building.messages


class History:
    """`derive_history` of a log that grows: each event is read once, as it is added.

    `messages()` is what `derive_history` gives for the events fed so far. An event that
    changes what came before (a `UserPromptSubmit` hook that blocks its prompt) is refused by
    `feed`, and the history must be made again from all the events.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        logged = list(events)
        self._building = _Building(dropped=_dropped_prompts(logged))
        for event in logged:
            self._building.take(event)

    def feed(self, event: Event) -> bool:
        """Add one event; False (and nothing added) when it rewrites what came before."""
        if _drops_a_prompt(event):
            return False
        self._building.take(event)
        return True

    def messages(self) -> list[Message]:
        """The history so far, the open message's results included (a new list)."""
        return [*self._building.messages, *self._building.pending()]


@dataclass
class _Building:
    """The history as far as the events read so far make it."""

    dropped: set[int]
    """Prompts a `UserPromptSubmit` hook blocked (their seqs)."""
    messages: list[Message] = field(default_factory=list)
    open_message: AssistantMessageEvent | None = None
    """The latest assistant message, whose results are still being collected."""
    results: dict[str, ToolResultEvent] = field(default_factory=dict)
    added: dict[str, list[str]] = field(default_factory=dict)
    """What hooks added after each call's result, by call id."""
    prompt_dropped: bool = False
    partial: list[str] = field(default_factory=list)
    """Text the model streamed since its last whole message in this turn."""
    replied: bool = False
    """Whether the model finished a message in this turn."""
    note: str | None = None
    """The interruption line the next user message starts with."""

    def take(self, event: Event) -> None:
        """Add what one event changes."""
        match event:
            case UserMessageEvent():
                self.prompt_dropped = event.seq in self.dropped
                if not self.prompt_dropped:
                    self.say(event.content)
            case HookRunEvent(context=str() as context) if context:
                if event.tool_call_id is not None:
                    self.added.setdefault(event.tool_call_id, []).append(context)
                elif not (self.prompt_dropped and event.event == "UserPromptSubmit"):
                    self.say((TextContent(text=context),))
            case RestoreEvent():
                # The model must not believe its changes are still there.
                self.say((TextContent(text=restore_reminder(event)),))
            case AssistantMessageEvent():
                self.partial.clear()
                self.replied = True
                self.close()
                self.open_message, self.results = event, {}
                calls = tuple(ToolCall(c.id, c.name, c.arguments) for c in event.tool_calls)
                thinking = tuple(
                    Thinking(p.text, p.signature, p.redacted, p.source, p.item_id)
                    for p in event.thinking or ()
                )
                self.messages.append(
                    AssistantMessage(event.text, calls, event.stop_reason, thinking=thinking)
                )
            case ToolResultEvent():
                self.results[event.tool_call_id] = event
            case TurnStart():
                self.partial.clear()
                self.replied = False
            case AssistantChunk():
                self.partial.append(event.text)
            case TurnEnd():
                self.ended(event)
            case (
                HookRunEvent()
                | JobEvent()
                | AssistantThinking()
                | ToolCallEvent()
                | SessionTitle()
                | SessionConfigEvent()
                | CheckpointEvent()
                | CommandEvent()
                | TrustEvent()
            ):
                pass
            case UsageEvent() | CompactionEvent():
                pass  # compaction is applied over this history (see `compaction.model_view`)
            case _:
                assert_never(event)

    def pending(self) -> list[Message]:
        """What `close` would add now, without closing."""
        if self.open_message is None:
            return []
        return [
            _result(call.id, call.name, self.results, self.added)
            for call in self.open_message.tool_calls
        ]

    def close(self) -> None:
        """Add the open message's results, in the model's call order (they finish in any)."""
        if self.open_message is not None:
            self.messages.extend(
                _result(call.id, call.name, self.results, self.added)
                for call in self.open_message.tool_calls
            )
        self.open_message = None

    def say(self, content: tuple[ContentBlock, ...]) -> None:
        """Add words said to the model (a prompt, a hook's context, a reminder)."""
        self.close()
        if self.note is not None:
            content = (TextContent(text=self.note), *content)
            self.note = None
        previous = self.messages[-1] if self.messages else None
        if isinstance(previous, UserMessage):
            # Providers want turns to alternate: words said in a row join one user message,
            # each its own block (the interruption line between two prompts keeps them apart).
            self.messages[-1] = UserMessage(content=previous.content + content)
        else:
            self.messages.append(UserMessage(content=content))

    def ended(self, end: TurnEnd) -> None:
        """A turn ended: if it was cut short, keep what the model said and note where."""
        if end.stop_reason not in ("cancelled", "error"):
            return
        cut = "".join(self.partial)
        where = _where(end, cut, self.open_message, self.replied)
        if where is None:
            return  # stopped after the model's last word: nothing was cut short
        if cut.strip():
            # What the model had said stays said, so it does not repeat or contradict it.
            self.close()
            self.messages.append(AssistantMessage(cut.rstrip()))
        self.note = interruption_note(end, where)


def interruption_note(end: TurnEnd, where: str) -> str:
    """The one line that tells the model its previous turn was cut short, and where."""
    if end.stop_reason == "error":
        reason = " ".join((end.error or "the model failed").split())
        if len(reason) > 200:
            reason = reason[:199] + "…"
        return f"[Request failed {where}: {reason}]"
    return f"[Request interrupted by user {where}]"


def _where(
    end: TurnEnd, cut: str, open_message: AssistantMessageEvent | None, replied: bool
) -> str | None:
    """Where a turn stopped, in words; None when the model had finished its reply."""
    if cut:
        return "while the model was replying"
    if open_message is not None and open_message.tool_calls:
        # A model error comes from the request after the calls; a cancel, most often from
        # a call still running (Claude Code's words for it).
        return "after tool use" if end.stop_reason == "error" else "for tool use"
    if not replied:
        return "before the model replied"
    return None


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


def _drops_a_prompt(event: Event) -> bool:
    """Whether `event` is a `UserPromptSubmit` hook that blocked (or stopped) its prompt."""
    return (
        isinstance(event, HookRunEvent)
        and event.event == "UserPromptSubmit"
        and event.decision in ("block", "stop")
    )


def _dropped_prompts(events: Sequence[Event]) -> set[int]:
    """The seqs of prompts a `UserPromptSubmit` hook blocked (or stopped)."""
    dropped: set[int] = set()
    prompt: int | None = None
    for event in events:
        if isinstance(event, UserMessageEvent):
            prompt = event.seq
        elif _drops_a_prompt(event) and prompt is not None:
            dropped.add(prompt)
    return dropped
