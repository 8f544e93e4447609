"""Updates as camelCase JSON (for `tether show --json` and clients that want plain data)."""

from __future__ import annotations

from typing import Any, assert_never

from tether.session.shown import SHOWN_BLOCK
from tether.session.updates import (
    AgentText,
    ContextCompacted,
    TitleChanged,
    ToolCallFinished,
    ToolCallProgress,
    ToolCallStarted,
    TurnEnded,
    TurnFailed,
    Update,
    UsageChanged,
    UserImage,
    UserResource,
    UserText,
)
from tether.views import dump_view

__all__ = ["update_to_json"]


def update_to_json(update: Update) -> dict[str, Any]:
    """One update as a JSON object tagged by `kind`, cards in their wire form."""
    data: dict[str, Any] = {"kind": update.kind}
    match update:
        case UserText() | AgentText():
            data["text"] = update.text
        case UserImage():
            data.update(data=update.data, mimeType=update.mime_type)
        case UserResource():
            data["block"] = SHOWN_BLOCK.dump_python(update.block, mode="json", by_alias=True)
        case ToolCallStarted():
            data.update(
                toolCallId=update.tool_call_id,
                name=update.name,
                rawInput=update.raw_input,
                view=dump_view(update.view),
            )
        case ToolCallProgress():
            data.update(toolCallId=update.tool_call_id, view=dump_view(update.view))
        case ToolCallFinished():
            data.update(
                toolCallId=update.tool_call_id,
                status=update.status,
                view=dump_view(update.view),
                result=update.result.to_json(),
            )
            if update.permission is not None:
                data["permission"] = update.permission
        case TitleChanged():
            data["title"] = update.title
        case TurnEnded():
            data["stopReason"] = update.stop_reason
        case TurnFailed():
            data["message"] = update.message
        case UsageChanged():
            data.update(used=update.used, size=update.size)
        case ContextCompacted():
            data.update(
                method=update.method,
                beforeTokens=update.before_tokens,
                afterTokens=update.after_tokens,
                text=update.text,
            )
        case _:
            assert_never(update)
    return data
