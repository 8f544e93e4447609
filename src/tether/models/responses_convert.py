"""OpenAI Responses wire format: our history to input items, stream events to a message.

A reply becomes its items in order: reasoning items (the model's own, sent back with their
id and encrypted content, as `store: false` requires), its text as an assistant message, then
a `function_call` item per call; each result is a `function_call_output` item. Results can
only carry text, so images follow as one user message after the run of outputs, as in
`openai_convert`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from openai.types.responses import (
        FunctionToolParam,
        ResponseInputItemParam,
        ResponseStreamEvent,
    )

from tether.content import ContentBlock, ImageContent, TextContent
from tether.errors import ModelError
from tether.models.assembly import Assembly, Delta, PartialCall
from tether.models.base import Usage
from tether.models.messages import (
    AssistantMessage,
    Message,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)
from tether.models.openai_convert import tool_text

__all__ = ["ResponseAssembler", "to_responses_input", "to_responses_tools"]


def _user(content: Sequence[ContentBlock]) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, TextContent):
            parts.append({"type": "input_text", "text": block.text})
        else:
            url = f"data:{block.mime_type};base64,{block.data}"
            parts.append({"type": "input_image", "image_url": url, "detail": "auto"})
    return {"role": "user", "content": parts}


def _assistant(message: AssistantMessage) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for part in message.thinking:
        # Only a reasoning item the server made can go back: its id and encrypted content.
        if part.item_id and part.signature:
            summary = [{"type": "summary_text", "text": part.text}] if part.text else []
            items.append(
                {
                    "type": "reasoning",
                    "id": part.item_id,
                    "summary": summary,
                    "encrypted_content": part.signature,
                }
            )
    if message.text:
        items.append({"role": "assistant", "content": message.text})
    items.extend(
        {
            "type": "function_call",
            "call_id": call.id,
            "name": call.name,
            "arguments": call.arguments or "{}",
        }
        for call in message.tool_calls
    )
    return items


def to_responses_input(messages: Sequence[Message]) -> list[ResponseInputItemParam]:
    """The request's `input`: the history as items, in order."""
    out: list[dict[str, Any]] = []
    images: list[ContentBlock] = []

    def flush_images() -> None:
        if images:
            out.append(_user([TextContent(text="Images from the tool results:"), *images]))
            images.clear()

    for message in messages:
        if isinstance(message, ToolResultMessage):
            out.append(
                {
                    "type": "function_call_output",
                    "call_id": message.tool_call_id,
                    "output": tool_text(message),
                }
            )
            images.extend(b for b in message.content if isinstance(b, ImageContent))
            continue
        flush_images()
        if isinstance(message, UserMessage):
            out.append(_user(message.content))
        else:
            out.extend(_assistant(message))
    flush_images()
    return cast("list[ResponseInputItemParam]", out)


def to_responses_tools(tools: Sequence[ToolSpec]) -> list[FunctionToolParam]:
    """The request's `tools` as function tools (not strict: our schemas allow optional fields)."""
    return [
        {
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.schema,
            "strict": False,
        }
        for tool in tools
    ]


@dataclass
class ResponseAssembler(Assembly):
    """Builds one `AssistantMessage` from Responses stream events."""

    def feed(self, event: ResponseStreamEvent) -> list[Delta]:
        """Take one event; returns the text and reasoning it added (possibly none)."""
        match event.type:
            case "response.output_text.delta":
                return self.add(event.delta)
            case "response.reasoning_summary_text.delta" | "response.reasoning_text.delta":
                return self.think(event.delta, event.output_index)
            case "response.reasoning_summary_part.added" if event.summary_index > 0:
                return self.think("\n\n", event.output_index)
            case "response.function_call_arguments.delta":
                if event.output_index in self.calls:
                    self.calls[event.output_index].pieces.append(event.delta)
            case "response.output_item.added" | "response.output_item.done":
                self._item(event.output_index, event.item)
            case "response.completed" | "response.incomplete":
                response = event.response
                self.complete = True
                details = response.incomplete_details
                self.stop = details.reason if details is not None and details.reason else None
                if response.usage is not None:
                    used = response.usage
                    self.usage = Usage(
                        input_tokens=used.input_tokens,
                        output_tokens=used.output_tokens,
                        cached_read_tokens=used.input_tokens_details.cached_tokens,
                        reasoning_tokens=used.output_tokens_details.reasoning_tokens,
                    )
            case "response.failed":
                error = event.response.error
                raise ModelError(error.message if error is not None else "the response failed")
            case _:
                pass  # created, in progress, content parts, annotations: nothing of ours
        return []

    def _item(self, index: int, item: Any) -> None:
        """An output item opened or finished: a call's id and name, a reasoning item's data."""
        if item.type == "function_call":
            partial = self.calls.setdefault(index, PartialCall())
            partial.id, partial.name = item.call_id, item.name
            if item.arguments:
                partial.whole = item.arguments
                partial.pieces = [item.arguments]
        elif item.type == "reasoning":
            thought = self.thought(index)
            thought.item_id = item.id
            # Kept verbatim from the finished item: the one `added` carries may be partial.
            thought.signature = item.encrypted_content or thought.signature
            if not thought.pieces and item.summary:
                thought.pieces = ["\n\n".join(s.text for s in item.summary)]

    def message(self) -> AssistantMessage:
        """The message; calls make it `tool_use`, a cut by length `max_tokens`."""
        message = super().message()
        if message.tool_calls:
            return replace(message, stop_reason="tool_use")
        if self.stop == "max_output_tokens":
            return replace(message, stop_reason="max_tokens")
        if self.stop == "content_filter":
            return replace(message, stop_reason="refusal")
        return message
