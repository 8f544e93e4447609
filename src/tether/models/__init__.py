"""Models: the protocol the loop talks to, and the shipped implementations."""

from tether.models.base import (
    Completed,
    ContextOverflow,
    Model,
    ModelError,
    ModelEvent,
    ModelRequest,
    TextDelta,
    Usage,
)
from tether.models.messages import (
    AssistantMessage,
    FinishReason,
    Message,
    ToolCall,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)

__all__ = [
    "AssistantMessage",
    "Completed",
    "ContextOverflow",
    "FinishReason",
    "Message",
    "Model",
    "ModelError",
    "ModelEvent",
    "ModelRequest",
    "TextDelta",
    "ToolCall",
    "ToolResultMessage",
    "ToolSpec",
    "Usage",
    "UserMessage",
]
