"""Chat-completions wire format: our history to request messages, stream chunks to a message.

Tool results can only carry text in chat completions (`role: tool`). An image in a tool
result is therefore replaced by a short note in the tool message, and the images themselves
follow in one user message placed after the run of tool messages (the API requires every
tool message to follow its assistant message directly).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from openai.types.chat import (
        ChatCompletionAssistantMessageParam,
        ChatCompletionContentPartParam,
        ChatCompletionFunctionToolParam,
        ChatCompletionMessageFunctionToolCallParam,
        ChatCompletionMessageParam,
        ChatCompletionToolMessageParam,
    )

from tether.content import ContentBlock, ImageContent, TextContent
from tether.models.assembly import Assembly, Delta, PartialCall
from tether.models.base import Usage
from tether.models.messages import (
    AssistantMessage,
    Message,
    ToolResultMessage,
    ToolSpec,
    UserMessage,
)

__all__ = ["ChunkAssembler", "to_openai_messages", "to_openai_tools", "tool_text"]


def _image_part(image: ImageContent) -> ChatCompletionContentPartParam:
    """An image as a data URL, the form every compatible server accepts."""
    return {
        "type": "image_url",
        "image_url": {"url": f"data:{image.mime_type};base64,{image.data}"},
    }


def _user_content(content: Sequence[ContentBlock]) -> str | list[ChatCompletionContentPartParam]:
    """User content: a plain string when it is text only (widest server support), else parts.

    Blocks are separate things said (a prompt, an attached file, a note, the next prompt):
    joined, a blank line keeps them apart, as they are apart in Anthropic's content blocks.
    """
    if all(isinstance(block, TextContent) for block in content):
        texts = (block.text for block in content if isinstance(block, TextContent))
        return "\n\n".join(text for text in texts if text)
    parts: list[ChatCompletionContentPartParam] = []
    for block in content:
        if isinstance(block, TextContent):
            parts.append({"type": "text", "text": block.text})
        else:
            parts.append(_image_part(block))
    return parts


def _assistant(message: AssistantMessage) -> ChatCompletionAssistantMessageParam:
    """An assistant turn with its tool calls, arguments passed back exactly as received."""
    param: ChatCompletionAssistantMessageParam = {"role": "assistant"}
    calls: list[ChatCompletionMessageFunctionToolCallParam] = [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": call.arguments or "{}"},
        }
        for call in message.tool_calls
    ]
    # Servers reject an empty string beside tool calls but want one when there are none.
    param["content"] = message.text if message.text or not calls else None
    if calls:
        param["tool_calls"] = calls
        reasoning = "".join(part.text for part in message.thinking)
        if reasoning:
            # DeepSeek's thinking mode wants the reasoning of a tool-calling reply back in
            # every later request (400 without it) and ignores it on other replies, where
            # its older reasoner refused it: so it goes back here only.
            cast(dict[str, object], param)["reasoning_content"] = reasoning
    return param


def tool_text(result: ToolResultMessage) -> str:
    """A tool result's text, a note in place of each image, and a failure marked as one."""
    pieces: list[str] = []
    for block in result.content:
        if isinstance(block, TextContent):
            pieces.append(block.text)
        else:
            pieces.append(f"[image ({block.mime_type}) attached in the next user message]")
    text = "\n".join(pieces)
    # Tool messages have no error flag, so a failure says so in words the model reads.
    if result.is_error and not text.lower().startswith("error"):
        return f"Error: {text}" if text else "Error"
    return text


def to_openai_messages(
    system: str, messages: Sequence[Message]
) -> list[ChatCompletionMessageParam]:
    """The request's `messages`: system first, then the history in order."""
    out: list[ChatCompletionMessageParam] = []
    if system:
        out.append({"role": "system", "content": system})
    pending_images: list[ChatCompletionContentPartParam] = []

    def flush_images() -> None:
        if pending_images:
            out.append({"role": "user", "content": list(pending_images)})
            pending_images.clear()

    for message in messages:
        if isinstance(message, ToolResultMessage):
            tool: ChatCompletionToolMessageParam = {
                "role": "tool",
                "tool_call_id": message.tool_call_id,
                "content": tool_text(message),
            }
            out.append(tool)
            images = [block for block in message.content if isinstance(block, ImageContent)]
            if images:
                pending_images.append(
                    {"type": "text", "text": f"Images from the {message.name} result:"}
                )
                pending_images.extend(_image_part(image) for image in images)
            continue
        flush_images()
        if isinstance(message, UserMessage):
            out.append({"role": "user", "content": _user_content(message.content)})
        else:
            out.append(_assistant(message))
    flush_images()
    return out


def to_openai_tools(tools: Sequence[ToolSpec]) -> list[ChatCompletionFunctionToolParam]:
    """The request's `tools` as function tools."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.schema,
            },
        }
        for tool in tools
    ]


def _reasoning(delta: Mapping[str, object]) -> str:
    """A delta's reasoning: DeepSeek's and vLLM's `reasoning_content`, or `reasoning`
    (OpenRouter, Ollama, newer vLLM); neither is in OpenAI's own format."""
    for name in ("reasoning_content", "reasoning"):
        value = delta.get(name)
        if isinstance(value, str) and value:
            return value
    return ""


def _object(value: object) -> Mapping[str, Any]:
    """`value` when it is a JSON object, else an empty one: a field a server sent as `null`
    (or as something else) is read as absent."""
    return value if isinstance(value, dict) else {}


def _objects(value: object) -> list[Mapping[str, Any]]:
    """The JSON objects of a list field; anything else in it, or a non-list, is skipped."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _count(value: object) -> int | None:
    """A token count, when the server gave a number."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


@dataclass
class ChunkAssembler(Assembly):
    """Builds one `AssistantMessage` from streamed chunks of the first choice."""

    stop_reasons = MappingProxyType(
        {
            "stop": "end_turn",
            "tool_calls": "tool_use",
            "function_call": "tool_use",
            "length": "max_tokens",
            "content_filter": "refusal",
        }
    )
    slots: dict[int, int] = field(default_factory=dict)
    """The server's call index -> the slot its latest call went to (they differ when a
    server reuses an index for a new call)."""

    def feed(self, chunk: Mapping[str, Any]) -> list[Delta]:
        """Take one chunk (its JSON); returns the text and reasoning it added (possibly none)."""
        added: list[Delta] = []
        usage = _object(chunk.get("usage"))
        if usage:
            # Only the last chunk, which has no choices, carries usage (`include_usage`).
            details = _object(usage.get("prompt_tokens_details"))
            done = _object(usage.get("completion_tokens_details"))
            self.usage = Usage(
                input_tokens=_count(usage.get("prompt_tokens")) or 0,
                output_tokens=_count(usage.get("completion_tokens")) or 0,
                cached_read_tokens=_count(details.get("cached_tokens")),
                reasoning_tokens=_count(done.get("reasoning_tokens")),
            )
        for choice in _objects(chunk.get("choices")):
            if choice.get("index", 0) != 0:
                continue
            delta = _object(choice.get("delta"))
            added += self.think(_reasoning(delta))
            added += self.add(_text(delta.get("content")))
            for call in _objects(delta.get("tool_calls")):
                index = call.get("index")
                self._feed_call(
                    index if isinstance(index, int) else None,
                    _text(call.get("id")),
                    _object(call.get("function")),
                )
            finish = choice.get("finish_reason")
            if finish and isinstance(finish, str):
                # A stream that says why it stopped is whole.
                self.stop = finish
                self.complete = True
        return added

    def _feed_call(self, index: int | None, call_id: str, function: Mapping[str, Any]) -> None:
        """Add one tool-call delta: the id and name come first, arguments in pieces."""
        slot = len(self.calls) - 1 if index is None else self.slots.get(index, index)
        partial = self.calls.get(slot)
        # Some servers give every call index 0; a new id then means a new call, and the
        # pieces that follow under that index belong to it.
        if partial is None or (call_id and partial.id and call_id != partial.id):
            slot = slot if partial is None else max(self.calls) + 1
            partial = self.calls[slot] = PartialCall()
            if index is not None:
                self.slots[index] = slot
        if call_id:
            partial.id = call_id
        name = _text(function.get("name"))
        # The name arrives whole in the first delta; servers that repeat it add nothing.
        if name and not partial.name:
            partial.name = name
        arguments = _text(function.get("arguments"))
        if arguments:
            partial.pieces.append(arguments)

    def message(self) -> AssistantMessage:
        """The assembled message; tool calls make it `tool_use` whatever the server said."""
        message = super().message()
        # Several servers (Ollama, vLLM) say "stop" even when the reply is tool calls.
        if message.tool_calls and message.stop_reason == "end_turn":
            return replace(message, stop_reason="tool_use")
        return message
