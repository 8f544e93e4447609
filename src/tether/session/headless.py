"""What a headless run says to a program: its `init` line, every update, then its `result`.

`tether run --output-format stream-json` writes one JSON object per line: a `RunInit`, then
every `ClientUpdate` as it happens (dumped by `CLIENT_UPDATE`, as `tether show --json` lists
them, with `type` added: `stream_line`), then a `RunResult`. Every line's `type` tells what it
is (`init`, an update's kind, `result`), so a reader switches on that one field.
`--output-format json` writes the `RunResult` alone. The lines' schema is generated from these
types and pinned in `schema/run-stream.schema.json`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, TypeAdapter

from tether.policy import PolicyMode
from tether.session.children import final_message
from tether.session.log.events import AssistantMessageEvent, Event, TurnEnd, TurnEndReason
from tether.session.updates import CLIENT_UPDATE, ClientUpdate
from tether.session.usage import usage_report
from tether.tools.delegate import TokenUsage
from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "RUN_INIT",
    "RUN_RESULT",
    "RunInit",
    "RunResult",
    "RunSandbox",
    "RunUsage",
    "prompt_result",
    "run_stream_schema",
    "run_stream_schema_text",
    "stream_line",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class RunSandbox:
    """How the run's commands are confined: the sandbox mode, and whether it has a network."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    mode: str
    allow_network: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class RunInit:
    """The first line: the session, where it works, and what it works with."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    type: Literal["init"] = "init"
    session_id: str
    cwd: str
    model: str
    mode: PolicyMode
    sandbox: RunSandbox
    tools: list[str]
    """The tools the model is offered (MCP servers' tools included)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RunUsage:
    """Tokens spent, as the providers reported them (the agents' included)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    input_tokens: int
    output_tokens: int
    cached_read_tokens: Opt[int] = None
    cached_write_tokens: Opt[int] = None
    cost_usd: Opt[float] = None
    """What it cost in US dollars at the catalog's prices; absent when a price is unknown."""

    @classmethod
    def of(cls, usage: TokenUsage) -> RunUsage:
        """The wire form of `usage`; cache counts only when the provider reported some."""
        return cls(
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cached_read_tokens=usage.cached_read_tokens or None,
            cached_write_tokens=usage.cached_write_tokens or None,
            cost_usd=usage.cost_usd,
        )

    @property
    def total(self) -> int:
        """Input and output tokens together."""
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, kw_only=True, slots=True)
class RunResult:
    """The last line: how the prompt ended, its final text, what it cost and how long it took."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    type: Literal["result"] = "result"
    session_id: str
    stop_reason: TurnEndReason
    is_error: bool
    """Whether the run failed: the exit status is not 0 (see `tether run`)."""
    result: str
    """The model's final text: its last message that said anything."""
    usage: RunUsage
    duration_ms: int
    num_turns: int
    """Model responses in this prompt."""
    error: Opt[str] = None
    """Why the model failed, when it did."""


RUN_INIT: TypeAdapter[RunInit] = TypeAdapter(RunInit)
"""Serializes the `init` line."""
RUN_RESULT: TypeAdapter[RunResult] = TypeAdapter(RunResult)
"""Serializes (and, for programs reading it back, validates) the `result` line."""


def prompt_result(
    session_id: str, events: Sequence[Event], *, duration_ms: int, is_error: bool
) -> RunResult:
    """The result of the prompt whose events (from its `turn/start` on) are `events`."""
    ends = [e for e in events if isinstance(e, TurnEnd)]
    end = ends[-1] if ends else None
    return RunResult(
        session_id=session_id,
        # A prompt that never reached its end (a slash command that ran no turn) ended normally.
        stop_reason=end.stop_reason if end is not None else "end_turn",
        is_error=is_error,
        result=final_message(events),
        usage=RunUsage.of(usage_report(events).total),
        duration_ms=duration_ms,
        num_turns=sum(isinstance(e, AssistantMessageEvent) for e in events),
        error=end.error if end is not None else None,
    )


def stream_line(update: ClientUpdate) -> dict[str, Any]:
    """An update as a stream-json line: its JSON with `type` first, the same as its `kind`."""
    document: dict[str, Any] = CLIENT_UPDATE.dump_python(update, mode="json", by_alias=True)
    return {"type": document["kind"], **document}


def run_stream_schema() -> dict[str, Any]:
    """The JSON Schema of one line of `--output-format stream-json`: init, an update, result."""
    defs: dict[str, Any] = {}
    refs = []
    for name, adapter in (
        ("RunInit", RUN_INIT),
        ("ClientUpdate", CLIENT_UPDATE),
        ("RunResult", RUN_RESULT),
    ):
        schema = adapter.json_schema(
            by_alias=True, ref_template="#/$defs/{model}", mode="serialization"
        )
        defs.update(schema.pop("$defs", {}))
        defs[name] = schema
        if adapter is CLIENT_UPDATE:
            _typed_like_kind(defs, schema)
        refs.append({"$ref": f"#/$defs/{name}"})
    for definition in defs.values():
        # A tag has a Python default for convenience, but every line carries it: any property
        # fixed to one value (`type` first, then `kind`; a card's `card`, then its `shape` or
        # `kind`).
        properties = definition.get("properties", {})
        tags = sorted(
            (n for n, p in properties.items() if "const" in p),
            key=lambda n: (n != "type", n != "card"),
        )
        required = [n for n in definition.get("required", []) if n not in tags]
        if tags or required:
            definition["required"] = [*tags, *required]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tether run --output-format stream-json: one line",
        "oneOf": refs,
        "$defs": dict(sorted(defs.items())),
    }


def _typed_like_kind(defs: dict[str, Any], union: dict[str, Any]) -> None:
    """Give each update of the union a `type` property fixed to its `kind` (see `stream_line`)."""
    for ref in union["discriminator"]["mapping"].values():
        properties = defs[ref.removeprefix("#/$defs/")]["properties"]
        kind = properties["kind"]["const"]
        properties["type"] = {"const": kind, "title": "Type", "type": "string"}


def run_stream_schema_text() -> str:
    """The schema as the exact text stored in the repository."""
    return json.dumps(run_stream_schema(), indent=2, sort_keys=True) + "\n"
