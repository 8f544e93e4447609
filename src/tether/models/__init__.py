"""Models: the protocol the loop talks to, and the shipped implementations."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.models.base import (
        Completed,
        Model,
        ModelEvent,
        ModelRequest,
        TextDelta,
        ThinkingDelta,
        Usage,
    )
    from tether.models.messages import (
        AssistantMessage,
        FinishReason,
        Message,
        Thinking,
        ThinkingLevel,
        ToolCall,
        ToolResultMessage,
        ToolSpec,
        UserMessage,
    )

__all__ = [
    "AssistantMessage",
    "Completed",
    "FinishReason",
    "Message",
    "Model",
    "ModelEvent",
    "ModelRequest",
    "TextDelta",
    "Thinking",
    "ThinkingDelta",
    "ThinkingLevel",
    "ToolCall",
    "ToolResultMessage",
    "ToolSpec",
    "Usage",
    "UserMessage",
]

__getattr__ = lazy_names(
    __name__,
    {
        "Completed": "tether.models.base",
        "Model": "tether.models.base",
        "ModelEvent": "tether.models.base",
        "ModelRequest": "tether.models.base",
        "TextDelta": "tether.models.base",
        "ThinkingDelta": "tether.models.base",
        "Usage": "tether.models.base",
        "AssistantMessage": "tether.models.messages",
        "FinishReason": "tether.models.messages",
        "Message": "tether.models.messages",
        "Thinking": "tether.models.messages",
        "ThinkingLevel": "tether.models.messages",
        "ToolCall": "tether.models.messages",
        "ToolResultMessage": "tether.models.messages",
        "ToolSpec": "tether.models.messages",
        "UserMessage": "tether.models.messages",
    },
)
