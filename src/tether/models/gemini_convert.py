"""Gemini's wire format: our history to `contents`, streamed responses to a message.

A reply is a `model` content: its text, then a `function_call` part per call; results are
`function_response` parts in the `user` content after it (a prompt that follows joins it).
Gemini signs its reasoning with thought signatures on the parts it returned; each is kept
(base64, on a `Thinking` whose `itemId` names its part: `call:ID` or `text`) and goes back on
that same part, as Gemini requires for function calling. Thought summaries are shown, never
sent back.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.genai.types import GenerateContentResponse

from tether.content import ContentBlock, TextContent
from tether.jsontext import parse_json
from tether.models.assembly import Assembly, Delta, PartialCall
from tether.models.base import Usage
from tether.models.messages import AssistantMessage, Message, ToolResultMessage, ToolSpec
from tether.models.openai_convert import tool_text

__all__ = ["GeminiAssembler", "to_gemini_contents", "to_gemini_tools"]


def _parts(content: Sequence[ContentBlock]) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, TextContent):
            if block.text:
                parts.append({"text": block.text})
        else:
            data = base64.b64decode(block.data)
            parts.append({"inline_data": {"mime_type": block.mime_type, "data": data}})
    return parts


def _args(arguments: str) -> dict[str, Any]:
    """A call's arguments as the object Gemini takes; anything else is sent as `{}`."""
    try:
        value = parse_json(arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _model(message: AssistantMessage) -> dict[str, Any]:
    signed = {
        part.item_id: base64.b64decode(part.signature)
        for part in message.thinking
        if part.item_id and part.signature
    }
    parts: list[dict[str, Any]] = []
    if message.text:
        text: dict[str, Any] = {"text": message.text}
        if "text" in signed:
            text["thought_signature"] = signed["text"]
        parts.append(text)
    for call in message.tool_calls:
        part: dict[str, Any] = {
            "function_call": {"id": call.id, "name": call.name, "args": _args(call.arguments)}
        }
        if f"call:{call.id}" in signed:
            part["thought_signature"] = signed[f"call:{call.id}"]
        parts.append(part)
    return {"role": "model", "parts": parts}


def _response(message: ToolResultMessage) -> dict[str, Any]:
    key = "error" if message.is_error else "output"
    return {
        "function_response": {
            "id": message.tool_call_id,
            "name": message.name,
            "response": {key: tool_text(message)},
        }
    }


def to_gemini_contents(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The request's `contents`: model and user turns, results and prompts after a reply joined."""
    out: list[dict[str, Any]] = []
    user: list[dict[str, Any]] | None = None
    for message in messages:
        if isinstance(message, AssistantMessage):
            turn = _model(message)
            if turn["parts"]:
                out.append(turn)
                user = None
            continue
        if user is None:
            user = []
            out.append({"role": "user", "parts": user})
        if isinstance(message, ToolResultMessage):
            user.append(_response(message))
            user.extend(_parts([b for b in message.content if not isinstance(b, TextContent)]))
        else:
            user.extend(_parts(message.content))
    return out


def to_gemini_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """The request's `tools`: one tool holding every function declaration."""
    if not tools:
        return []
    declarations = [
        {"name": t.name, "description": t.description, "parameters_json_schema": t.schema}
        for t in tools
    ]
    return [{"function_declarations": declarations}]


@dataclass
class GeminiAssembler(Assembly):
    """Builds one `AssistantMessage` from streamed `GenerateContentResponse`s."""

    stop_reasons = MappingProxyType(
        {
            "STOP": "end_turn",
            "MAX_TOKENS": "max_tokens",
            "SAFETY": "refusal",
            "RECITATION": "refusal",
            "PROHIBITED_CONTENT": "refusal",
            "BLOCKLIST": "refusal",
            "SPII": "refusal",
        }
    )

    def feed(self, chunk: GenerateContentResponse) -> list[Delta]:
        """Take one streamed response; returns the text and reasoning it added."""
        added: list[Delta] = []
        used = chunk.usage_metadata
        if used is not None and used.prompt_token_count is not None:
            thoughts = used.thoughts_token_count
            self.usage = Usage(
                input_tokens=used.prompt_token_count,
                # Gemini counts thinking apart from the answer; both are output.
                output_tokens=(used.candidates_token_count or 0) + (thoughts or 0),
                cached_read_tokens=used.cached_content_token_count,
                reasoning_tokens=thoughts,
            )
        for candidate in (chunk.candidates or [])[:1]:
            content = candidate.content
            for part in (content.parts if content is not None else None) or []:
                added += self._part(part)
            if candidate.finish_reason is not None:
                reason = candidate.finish_reason
                self.stop = str(getattr(reason, "value", reason))
                self.complete = True
        return added

    def _part(self, part: Any) -> list[Delta]:
        added: list[Delta] = []
        where = "text"
        if part.thought and part.text:
            added += self.think(part.text)
        elif part.text:
            added += self.add(part.text)
        if part.function_call is not None:
            slot = len(self.calls)
            call_id = part.function_call.id or f"call_{slot}"
            whole = json.dumps(part.function_call.args or {})
            self.calls[slot] = PartialCall(call_id, part.function_call.name or "", whole=whole)
            where = f"call:{call_id}"
        if part.thought_signature:
            # Kept whole, on its own slot after the thought's: it goes back on its part.
            signed = self.thought(1 + len(self.thoughts))
            signed.item_id = where
            signed.signature = base64.b64encode(part.thought_signature).decode()
        return added

    def message(self) -> AssistantMessage:
        """The message; calls make it `tool_use` (Gemini says `STOP` for them)."""
        message = super().message()
        if message.tool_calls and message.stop_reason == "end_turn":
            return replace(message, stop_reason="tool_use")
        return message
