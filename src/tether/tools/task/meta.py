"""What a `task` result stores for its card: the child, how it ended, what it did and spent."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, JsonValue, Strict, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass

from tether.tools.delegate import ChildOutcome, ChildStop, TokenUsage
from tether.wire import WIRE_CONFIG, Opt

__all__ = ["TaskMeta", "TaskUsage", "refusals", "task_meta", "task_meta_from_meta"]

Count = Annotated[int, Strict(), Field(ge=0)]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TaskUsage:
    """A child's tokens, as the log stores them (`cached*` left out when none were counted)."""

    input_tokens: Count
    output_tokens: Count
    cached_read_tokens: Opt[Count] = None
    cached_write_tokens: Opt[Count] = None
    cost_usd: Opt[Annotated[float, Field(ge=0, allow_inf_nan=False)]] = None
    """What the child cost in US dollars; absent when unknown."""

    def usage(self) -> TokenUsage:
        """The same counts as the delegate reports them."""
        return TokenUsage(
            self.input_tokens,
            self.output_tokens,
            self.cached_read_tokens or 0,
            self.cached_write_tokens or 0,
            self.cost_usd,
        )


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TaskMeta:
    """A task result's `meta`: `{agent, sessionId, summary, toolCalls, stopReason, usage,
    error?, refused?}`."""

    agent: Annotated[str, Strict()]
    session_id: Annotated[str, Strict()]
    summary: Annotated[str, Strict()]
    tool_calls: Count
    stop_reason: ChildStop
    usage: TaskUsage
    error: Opt[Annotated[str, Strict()]] = None
    refused: Opt[Count] = None
    """Calls refused in the child (and its children) for want of someone to approve them."""


_META: TypeAdapter[TaskMeta] = TypeAdapter(TaskMeta)


def task_meta(outcome: ChildOutcome, summary: str) -> JsonValue:
    """The stored form of an outcome whose final message, as the model got it, is `summary`."""
    used = outcome.usage
    meta = TaskMeta(
        agent=outcome.agent,
        session_id=outcome.session_id,
        summary=summary,
        tool_calls=outcome.tool_calls,
        stop_reason=outcome.stop_reason,
        usage=TaskUsage(
            input_tokens=used.input_tokens,
            output_tokens=used.output_tokens,
            cached_read_tokens=used.cached_read_tokens or None,
            cached_write_tokens=used.cached_write_tokens or None,
            cost_usd=used.cost_usd,
        ),
        error=outcome.error,
        refused=outcome.refused or None,
    )
    dumped: dict[str, Any] = _META.dump_python(meta, mode="json", by_alias=True)
    return dumped


def refusals(meta: JsonValue) -> int:
    """How many calls a `task` result says its child had refused (0 for any other result)."""
    narrowed = task_meta_from_meta(meta)
    return (narrowed.refused or 0) if narrowed is not None else 0


def task_meta_from_meta(meta: JsonValue) -> TaskMeta | None:
    """A stored task result's meta, narrowed; `None` for anything else (never raises)."""
    if not isinstance(meta, dict):
        return None
    try:
        return _META.validate_python(meta)
    except ValidationError:
        return None
