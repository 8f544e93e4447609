"""The updates a client saw live, derived again from the log alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from tether.content import ImageContent, TextContent
from tether.session._gc import gc_paused
from tether.session.calls import PreparedCall, finished, prepare
from tether.session.events import (
    AssistantChunk,
    AssistantMessageEvent,
    Event,
    SessionConfigEvent,
    SessionTitle,
    ToolCallEvent,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)
from tether.session.shown import EmbeddedResource, ResourceLink
from tether.session.updates import (
    AgentText,
    TitleChanged,
    TurnEnded,
    TurnFailed,
    Update,
    UserImage,
    UserResource,
    UserText,
)
from tether.tools.registry import ToolRegistry

__all__ = ["replay", "user_updates"]


def replay(events: Iterable[Event], tools: ToolRegistry) -> list[Update]:
    """Every update of the log, in order; progress updates are live only and never come back."""
    with gc_paused():
        return _replay(events, tools)


def _replay(events: Iterable[Event], tools: ToolRegistry) -> list[Update]:
    updates: list[Update] = []
    calls: dict[str, PreparedCall] = {}
    for event in events:
        match event:
            case UserMessageEvent():
                updates.extend(user_updates(event))
            case AssistantChunk():
                updates.append(AgentText(text=event.text))
            case ToolCallEvent():
                call = calls[event.tool_call_id] = prepare(tools, event)
                updates.append(call.started())
            case ToolResultEvent():
                updates.append(finished(calls[event.tool_call_id], event))
            case SessionTitle():
                updates.append(TitleChanged(title=event.title))
            case TurnEnd():
                if event.stop_reason == "error":
                    updates.append(TurnFailed(message=event.error or "the model failed"))
                else:
                    updates.append(TurnEnded(stop_reason=event.stop_reason))
            case TurnStart() | AssistantMessageEvent() | SessionConfigEvent():
                pass
            case _:
                assert_never(event)
    return updates


def user_updates(event: UserMessageEvent) -> list[Update]:
    """One update per block of the person's prompt, as they sent it."""
    updates: list[Update] = []
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
