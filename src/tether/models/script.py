"""`script:FILE`: a deterministic, offline model that replays a JSON script, one turn per request.

    {"turns": [
      {"text": "optional text",
       "toolCalls": [{"id": "c1", "name": "read", "arguments": {"path": "a.py"}}]},
      {"text": "done"}
    ]}

`arguments` may be a raw string (to test malformed JSON). Requests past the last turn get an
empty final message. A turn may also give `stopReason` (`max_tokens`, `refusal`) or `error`
(the request fails with that message), to script how a real model ends or fails, and
`usage` (`{"inputTokens": N, "outputTokens": N}`, optionally `cachedReadTokens` and
`cachedWriteTokens`, `reasoningTokens`): what the response reports it cost; without it
nothing is reported. `thinking` is what the model thinks before it answers (streamed as
reasoning, kept on the message with the signature `script`).

A `task` call's child session runs a script of its own, named by the call's id under
`tasks` (a script in turn, whose own `tasks` script its children):

    {"turns": [{"toolCalls": [{"id": "t1", "name": "task",
                               "arguments": {"description": "find it", "prompt": "..."}}]},
               {"text": "It is in a.py."}],
     "tasks": {"t1": {"turns": [{"text": "a.py:3 defines it."}]}}}

A child whose call has no script gets an empty one (its one reply is an empty message).
An agent file can name a script of its own instead (`model: script:FILE`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError
from pydantic.alias_generators import to_camel

from tether.bounded import read_bounded_text
from tether.errors import ModelError, UnreadableFile
from tether.models.base import Completed, ModelEvent, ModelRequest, TextDelta, ThinkingDelta, Usage
from tether.models.messages import AssistantMessage, Thinking, ToolCall

__all__ = ["CHUNKS", "ScriptModel", "ScriptTurn", "split_text"]

_MAX_SCRIPT_BYTES = 64 * 1024 * 1024
"""A script is read whole; larger than this it is refused rather than filling memory."""

CHUNKS = 3
"""How many deltas a turn's text streams in (fewer when it has fewer words)."""

_STRICT = ConfigDict(
    alias_generator=to_camel, validate_by_name=True, extra="forbid", frozen=True, defer_build=True
)
"""A script's types build their schemas when a script is read: the sessions import this module
(to know a scripted model when they see one), and most sessions never read a script."""


class ScriptToolCall(BaseModel):
    """One scripted tool call; a dict `arguments` is sent as its JSON text."""

    model_config = _STRICT

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    arguments: str | dict[str, JsonValue] = Field(default_factory=dict)

    def raw_arguments(self) -> str:
        """The argument text the model sends."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


class ScriptUsage(BaseModel):
    """The token usage a scripted turn reports."""

    model_config = _STRICT

    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)
    cached_read_tokens: int | None = Field(default=None, ge=0)
    cached_write_tokens: int | None = Field(default=None, ge=0)
    reasoning_tokens: int | None = Field(default=None, ge=0)


class ScriptTurn(BaseModel):
    """One scripted reply."""

    model_config = _STRICT

    text: str = ""
    thinking: str = ""
    tool_calls: tuple[ScriptToolCall, ...] = ()
    stop_reason: Literal["end_turn", "max_tokens", "refusal"] | None = None
    error: str | None = None
    usage: ScriptUsage | None = None


class _Script(BaseModel):
    model_config = _STRICT

    turns: tuple[ScriptTurn, ...]
    tasks: dict[str, _Script] = Field(default_factory=dict)


class ScriptModel:
    """Replays scripted turns in order; every request takes the next one."""

    def __init__(
        self,
        turns: Sequence[ScriptTurn],
        name: str = "script",
        tasks: Mapping[str, _Script] | None = None,
    ) -> None:
        self.name = name
        self.turns = tuple(turns)
        self._tasks = dict(tasks or {})
        self.requests: list[ModelRequest] = []
        """Every request received, in order (what the model was shown)."""

    @classmethod
    def from_file(cls, path: Path) -> ScriptModel:
        """Load a script; a missing or malformed file is a `ModelError` naming it."""
        try:
            text = read_bounded_text(path, limit=_MAX_SCRIPT_BYTES)
        except (OSError, UnreadableFile) as exc:
            raise ModelError(f"cannot read model script {path}: {exc}") from exc
        return cls.from_json(text, source=str(path))

    @classmethod
    def from_json(cls, text: str, source: str = "<script>") -> ScriptModel:
        """Parse a script from its JSON text."""
        try:
            script = _Script.model_validate_json(text)
        except ValidationError as exc:
            details = "; ".join(_describe(error) for error in exc.errors(include_url=False))
            raise ModelError(f"bad model script {source}: {details}") from exc
        return cls(script.turns, name=f"script:{source}", tasks=script.tasks)

    def for_task(self, call_id: str) -> ScriptModel:
        """The model of the child session that the `task` call `call_id` starts."""
        script = self._tasks.get(call_id)
        turns = script.turns if script is not None else ()
        tasks = script.tasks if script is not None else None
        return ScriptModel(turns, name=f"{self.name}#{call_id}", tasks=tasks)

    async def aclose(self) -> None:
        """Nothing to close: a script holds no connection."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        """Stream the next turn: its text in a few deltas, then the whole message."""
        index = len(self.requests)
        self.requests.append(request)
        turn = self.turns[index] if index < len(self.turns) else ScriptTurn()
        if turn.error is not None:
            raise ModelError(turn.error)
        for piece in split_text(turn.thinking):
            yield ThinkingDelta(piece)
            await asyncio.sleep(0)
        for piece in split_text(turn.text):
            yield TextDelta(piece)
            # A real stream waits for its next chunk: others get the event loop meanwhile.
            await asyncio.sleep(0)
        calls = tuple(ToolCall(c.id, c.name, c.raw_arguments()) for c in turn.tool_calls)
        reason = turn.stop_reason or ("tool_use" if calls else "end_turn")
        thought = (Thinking(turn.thinking, signature="script", source=self.name),)
        message = AssistantMessage(
            text=turn.text,
            tool_calls=calls,
            stop_reason=reason,
            thinking=thought if turn.thinking else (),
        )
        yield Completed(message, _usage(turn.usage))


def split_text(text: str, parts: int = CHUNKS) -> list[str]:
    """`text` cut at word boundaries into at most `parts` pieces that join back exactly."""
    if not text:
        return []
    words = text.split(" ")
    size = -(-len(words) // parts)
    pieces = [" ".join(words[i : i + size]) for i in range(0, len(words), size)]
    # Keep the separating spaces, so the pieces concatenate to the original text.
    return [piece + " " for piece in pieces[:-1]] + pieces[-1:]


def _usage(usage: ScriptUsage | None) -> Usage | None:
    if usage is None:
        return None
    return Usage(
        usage.input_tokens,
        usage.output_tokens,
        usage.cached_read_tokens,
        usage.cached_write_tokens,
        usage.reasoning_tokens,
    )


def _describe(error: Any) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "(top level)"
    return f"{where}: {error['msg']}"
