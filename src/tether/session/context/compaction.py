"""Compaction: the model's view of a long session, shortened by `context/compaction` events.

The log and its cards never change. A `prune` event stubs the old tool results up to its
`throughSeq`; a `summary` event replaces every message up to its `throughSeq` with the
summary. A loaded session rebuilds the same view from the same events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

from tether import views
from tether.content import ContentBlock, TextContent
from tether.models.messages import Message, UserMessage
from tether.session.calls import PreparedCall, stored_result
from tether.session.context.history import History, derive_history
from tether.session.log.events import (
    AssistantMessageEvent,
    CompactionEvent,
    CompactionMethod,
    Event,
    ToolCallEvent,
    ToolResultEvent,
    UserMessageEvent,
)
from tether.tools.present import call_view, result_view

__all__ = [
    "COMPACT_COMMAND",
    "KEEP_TURNS",
    "MIN_PRUNED_CHARS",
    "SUMMARY_INTRO",
    "SUMMARY_PROMPT",
    "ModelView",
    "Stub",
    "compact_command",
    "model_view",
    "prune_point",
    "stub_text",
    "summary_point",
    "summary_request_messages",
]

KEEP_TURNS = 3
"""Prune leaves the tool results of this many latest model turns as they were."""
MIN_PRUNED_CHARS = 400
"""A result shorter than this keeps its text: its stub would save next to nothing."""

SUMMARY_PROMPT = """\
Summarise the conversation so far for your own later use: the text you write will replace \
it, and you will continue the work from your summary alone. Do not call tools. Keep:
- what the user asked for, in their words where it matters, and every constraint they gave;
- what has been done: files read, created or changed (with paths) and commands run, with results;
- what was learned: key facts about the code, decisions made and why, errors met and fixes;
- what is left to do, and the next step.
Be complete about facts and brief in wording."""

SUMMARY_INTRO = (
    "This session continues an earlier conversation that was summarised to save context. "
    "The summary:"
)

COMPACT_COMMAND = "/compact"
"""A prompt that is exactly this, optionally followed by a focus, compacts by summary now."""

Stub = Callable[[ToolCallEvent, ToolResultEvent], str]
"""The one-line text that stands for a pruned result."""


def model_view(events: Sequence[Event], stub: Stub) -> list[Message]:
    """The conversation as the model sees it now: the history with every compaction applied."""
    kept, summary = _compacted(events, stub)
    return _with_summary(derive_history(kept), summary)


class ModelView:
    """`model_view` of a session's growing log, kept as it grows.

    A request costs the events added since the one before, not the whole session: the
    history is extended event by event. A compaction, a hook that blocked its prompt, or a
    list of events that is not the one seen before makes it again from the start.
    """

    def __init__(self, stub: Stub) -> None:
        self._stub = stub
        self._seen: Sequence[Event] | None = None
        self._count = 0
        self._last: Event | None = None
        self._history = History()
        self._summary: CompactionEvent | None = None

    def messages(self, events: Sequence[Event]) -> list[Message]:
        """`model_view(events, stub)`, from what was read of `events` before."""
        if not self._continues(events):
            self._make(events)
        else:
            for event in events[self._count :]:
                if isinstance(event, CompactionEvent) or not self._history.feed(event):
                    self._make(events)
                    break
        self._seen, self._count = events, len(events)
        self._last = events[-1] if events else None
        return _with_summary(self._history.messages(), self._summary)

    def _continues(self, events: Sequence[Event]) -> bool:
        """Whether `events` is the list read before, grown at its end only."""
        if events is not self._seen or len(events) < self._count:
            return False
        return self._count == 0 or events[self._count - 1] is self._last

    def _make(self, events: Sequence[Event]) -> None:
        kept, self._summary = _compacted(events, self._stub)
        self._history = History(kept)


def _compacted(events: Sequence[Event], stub: Stub) -> tuple[list[Event], CompactionEvent | None]:
    """The events the model's history is made of, pruned results stubbed; and the summary."""
    summary: CompactionEvent | None = None
    pruned_through = 0
    for event in events:
        if isinstance(event, CompactionEvent):
            if event.method == "summary":
                summary = event
            else:
                pruned_through = max(pruned_through, event.through_seq)
    start = summary.through_seq if summary else 0
    calls: dict[str, ToolCallEvent] = {}
    kept: list[Event] = []
    for event in events:
        if isinstance(event, ToolCallEvent):
            calls[event.tool_call_id] = event
        if event.seq <= start:
            continue
        if isinstance(event, ToolResultEvent) and event.seq <= pruned_through:
            call = calls.get(event.tool_call_id)
            if call is not None and _prunable(event):
                stubbed = (TextContent(text=stub(call, event)),)
                kept.append(dataclasses.replace(event, content=stubbed))
                continue
        kept.append(event)
    return kept, summary


def _with_summary(messages: list[Message], summary: CompactionEvent | None) -> list[Message]:
    if summary is None:
        return messages
    text = f"{SUMMARY_INTRO}\n\n<summary>\n{summary.summary or ''}\n</summary>"
    return _prepend(UserMessage((TextContent(text=text),)), messages)


def summary_request_messages(view: Sequence[Message], focus: str | None) -> list[Message]:
    """The messages of a summarisation request: the view to replace, then the prompt."""
    prompt = SUMMARY_PROMPT
    if focus:
        prompt += f"\n\nThe user asks you to focus on: {focus}"
    ask = UserMessage((TextContent(text=prompt),))
    if view and isinstance(view[-1], UserMessage):
        return [*view[:-1], UserMessage(view[-1].content + ask.content)]
    return [*view, ask]


def prune_point(events: Sequence[Event]) -> int | None:
    """The seq through which results may be pruned (all but the last turns), if it adds any."""
    turns = [e.seq for e in events if isinstance(e, AssistantMessageEvent)]
    if len(turns) <= KEEP_TURNS:
        return None
    through = turns[-KEEP_TURNS] - 1
    done = max(_last_through(events, "prune"), _last_through(events, "summary"))
    new = [
        e
        for e in events
        if isinstance(e, ToolResultEvent) and done < e.seq <= through and _prunable(e)
    ]
    return through if new else None


def summary_point(events: Sequence[Event], *, everything: bool) -> int | None:
    """The seq through which a summary would replace messages; `None` when nothing is new.

    It keeps the latest model turn when there is older conversation to summarise.
    """
    if not events:
        return None
    done = _last_through(events, "summary")
    last = events[-1].seq
    turns = [e.seq for e in events if isinstance(e, AssistantMessageEvent) and e.seq > done]
    if not everything and turns and turns[-1] - 1 > done and _has_message(events, done, turns[-1]):
        return turns[-1] - 1
    return last if _has_message(events, done, last + 1) else None


def stub_text(call: PreparedCall, event: ToolResultEvent, cwd: Path) -> str:
    """`[read greet.py lines 1-12 of 12: pruned to save context; read it again if needed]`."""
    view = result_view(call.tool, call.args, stored_result(event), call.context)
    if isinstance(view, views.ReadResultView):
        path = Path(view.path)
        shown = path.relative_to(cwd) if path.is_relative_to(cwd) else path
        last = view.lines.numbers[-1] if view.lines else view.offset - 1
        return (
            f"[read {shown} lines {view.offset}-{last} of {view.total_lines}: "
            "pruned to save context; read it again if needed]"
        )
    title = call_view(call.name, call.arguments, call.tool, call.args, call.context).title
    return f"[{call.name} {title}: output pruned to save context; run it again if needed]"


def compact_command(content: Sequence[ContentBlock]) -> str | None:
    """The focus of a `/compact [focus]` prompt (`""` for none), or `None` for any other prompt."""
    if len(content) != 1 or not isinstance(content[0], TextContent):
        return None
    text = content[0].text.strip()
    rest = text.removeprefix(COMPACT_COMMAND)
    if rest == text or (rest and not rest[0].isspace()):
        return None
    return rest.strip()


def _prunable(event: ToolResultEvent) -> bool:
    size = sum(
        len(b.text) if isinstance(b, TextContent) else MIN_PRUNED_CHARS for b in event.content
    )
    return size >= MIN_PRUNED_CHARS


def _last_through(events: Sequence[Event], method: CompactionMethod) -> int:
    return max(
        (e.through_seq for e in events if isinstance(e, CompactionEvent) and e.method == method),
        default=0,
    )


def _has_message(events: Sequence[Event], after: int, before: int) -> bool:
    return any(
        isinstance(e, UserMessageEvent | AssistantMessageEvent | ToolResultEvent)
        and after < e.seq < before
        for e in events
    )


def _prepend(first: UserMessage, messages: list[Message]) -> list[Message]:
    if messages and isinstance(messages[0], UserMessage):
        return [UserMessage(first.content + messages[0].content), *messages[1:]]
    return [first, *messages]
