"""Messages-API wire format: our history to request messages, stream events to a message.

Tool results become `tool_result` blocks in the user message that follows the assistant's
`tool_use` blocks; consecutive results share one user message, and a user turn that follows
them joins that message after the results, as the API requires.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    from anthropic.types import (
        ContentBlockParam,
        ImageBlockParam,
        MessageParam,
        RedactedThinkingBlockParam,
        TextBlockParam,
        ThinkingBlockParam,
        ToolParam,
        ToolResultBlockParam,
    )

from tether.content import ContentBlock, ImageContent, TextContent
from tether.jsontext import parse_json
from tether.models.assembly import Assembly, Delta, PartialCall
from tether.models.base import Usage
from tether.models.messages import (
    AssistantMessage,
    Message,
    Thinking,
    ToolResultMessage,
    ToolSpec,
)

__all__ = ["EventAssembler", "to_anthropic_messages", "to_anthropic_tools"]

ImageType = Literal["image/jpeg", "image/png", "image/gif", "image/webp"]


def _image(image: ImageContent) -> ImageBlockParam:
    """A base64 image block."""
    media_type = cast(ImageType, image.mime_type)
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": media_type, "data": image.data},
    }


def _blocks(content: Sequence[ContentBlock]) -> list[TextBlockParam | ImageBlockParam]:
    """Text and image blocks; empty text is dropped because the API rejects it."""
    blocks: list[TextBlockParam | ImageBlockParam] = []
    for block in content:
        if isinstance(block, TextContent):
            if block.text:
                blocks.append({"type": "text", "text": block.text})
        else:
            blocks.append(_image(block))
    return blocks


def _input(arguments: str) -> dict[str, object]:
    """A tool call's input object; arguments that were not a JSON object are sent as `{}`.

    The API only takes objects here; the call's result already told the model what was wrong.
    """
    try:
        value = parse_json(arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _thought(part: Thinking) -> ThinkingBlockParam | RedactedThinkingBlockParam | None:
    """A reasoning block as the API wants it back: verbatim, with its signature; else none."""
    if part.redacted is not None:
        return {"type": "redacted_thinking", "data": part.redacted}
    if part.signature:
        return {"type": "thinking", "thinking": part.text, "signature": part.signature}
    return None  # unsigned reasoning (cut short, or another wire's) is refused by the API


def _assistant(message: AssistantMessage) -> list[ContentBlockParam]:
    """An assistant turn: its reasoning blocks, its text, then its tool calls."""
    content: list[ContentBlockParam] = []
    for part in message.thinking:
        block = _thought(part)
        if block is not None:
            content.append(block)
    if message.text:
        content.append({"type": "text", "text": message.text})
    content.extend(
        {"type": "tool_use", "id": call.id, "name": call.name, "input": _input(call.arguments)}
        for call in message.tool_calls
    )
    return content


def _result(message: ToolResultMessage) -> ToolResultBlockParam:
    """A tool result block."""
    block: ToolResultBlockParam = {"type": "tool_result", "tool_use_id": message.tool_call_id}
    content = _blocks(message.content)
    if content:
        block["content"] = content
    if message.is_error:
        block["is_error"] = True
    return block


def to_anthropic_messages(messages: Sequence[Message]) -> list[MessageParam]:
    """The request's `messages`: user and assistant turns alternating, results grouped."""
    out: list[MessageParam] = []
    user: list[ContentBlockParam] | None = None
    for message in messages:
        if isinstance(message, AssistantMessage):
            content = _assistant(message)
            # An empty assistant turn is rejected by the API and says nothing; leave it out,
            # so the user turns around it join into one.
            if content:
                out.append({"role": "assistant", "content": content})
                user = None
            continue
        if user is None:
            user = []
            out.append({"role": "user", "content": user})
        if isinstance(message, ToolResultMessage):
            user.append(_result(message))
        else:
            user.extend(_blocks(message.content))
    return out


def to_anthropic_tools(tools: Sequence[ToolSpec]) -> list[ToolParam]:
    """The request's `tools`."""
    return [
        {
            "name": tool.name,
            "description": tool.description,
            "input_schema": tool.schema,
        }
        for tool in tools
    ]


def _object(value: object) -> Mapping[str, Any]:
    """`value` when it is a JSON object, else an empty one (a field sent as `null` is absent)."""
    return value if isinstance(value, dict) else {}


def _count(value: object) -> int | None:
    """A token count, when the server gave a number."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _given(value: int | None, before: int | None) -> int | None:
    """A count from the latest event, else the one known before."""
    return value if value is not None else before


_Counts = tuple[int, int, int | None, int | None]
"""Anthropic's own counts: uncached input, output, cache reads, cache writes."""


@dataclass
class EventAssembler(Assembly):
    """Builds one `AssistantMessage` from raw stream events."""

    _raw: _Counts | None = None

    stop_reasons = MappingProxyType(
        {
            "end_turn": "end_turn",
            "stop_sequence": "end_turn",
            "pause_turn": "end_turn",
            "tool_use": "tool_use",
            "max_tokens": "max_tokens",
            "model_context_window_exceeded": "max_tokens",
            "refusal": "refusal",
        }
    )

    def feed(self, event: Mapping[str, Any]) -> list[Delta]:
        """Take one event (its JSON); returns the text and reasoning it added (possibly none)."""
        kind = event.get("type")
        index = event.get("index")
        slot = index if isinstance(index, int) else 0
        if kind == "content_block_start":
            block = _object(event.get("content_block"))
            block_type = block.get("type")
            if block_type == "text":
                return self.add(_text(block.get("text")))
            if block_type == "thinking":
                self.thought(slot).signature = _text(block.get("signature")) or None
                return self.think(_text(block.get("thinking")), slot)
            if block_type == "redacted_thinking":
                self.thought(slot).redacted = _text(block.get("data"))
            elif block_type == "tool_use":
                # The input may come whole here; `input_json_delta` pieces replace it.
                given = block.get("input")
                whole = json.dumps(given) if given else "{}"
                call_id, name = _text(block.get("id")), _text(block.get("name"))
                self.calls[slot] = PartialCall(call_id, name, whole=whole)
        elif kind == "content_block_delta":
            delta = _object(event.get("delta"))
            delta_type = delta.get("type")
            if delta_type == "text_delta":
                return self.add(_text(delta.get("text")))
            if delta_type == "thinking_delta":
                return self.think(_text(delta.get("thinking")), slot)
            if delta_type == "signature_delta":
                # Sent whole, once, at the block's end; kept verbatim.
                self.thought(slot).signature = _text(delta.get("signature"))
            elif delta_type == "input_json_delta" and slot in self.calls:
                self.calls[slot].pieces.append(_text(delta.get("partial_json")))
        elif kind == "message_start":
            start = _object(_object(event.get("message")).get("usage"))
            self._counted(
                (
                    _count(start.get("input_tokens")) or 0,
                    _count(start.get("output_tokens")) or 0,
                    _count(start.get("cache_read_input_tokens")),
                    _count(start.get("cache_creation_input_tokens")),
                )
            )
        elif kind == "message_delta":
            stop = _object(event.get("delta")).get("stop_reason")
            self.stop = stop if isinstance(stop, str) and stop else self.stop
            self._update_usage(_object(event.get("usage")))
        elif kind == "message_stop":
            self.complete = True
        return []

    def _update_usage(self, delta: Mapping[str, Any]) -> None:
        """Counts in `message_delta` are cumulative: each one given replaces the start's."""
        before = self._raw or (0, 0, None, None)
        self._counted(
            (
                _given(_count(delta.get("input_tokens")), before[0]) or 0,
                _count(delta.get("output_tokens")) or 0,
                _given(_count(delta.get("cache_read_input_tokens")), before[2]),
                _given(_count(delta.get("cache_creation_input_tokens")), before[3]),
            )
        )

    def _counted(self, raw: _Counts) -> None:
        # Anthropic's `input_tokens` leaves out what the cache read and wrote; the usage
        # counts the whole prompt, as OpenAI's `prompt_tokens` does, with the cache's parts.
        self._raw = raw
        fresh, output, read, write = raw
        self.usage = Usage(
            input_tokens=fresh + (read or 0) + (write or 0),
            output_tokens=output,
            cached_read_tokens=read,
            cached_write_tokens=write,
        )
