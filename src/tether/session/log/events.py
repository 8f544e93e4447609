"""The session log's vocabulary: a header line, then one event per line, camelCase JSON."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, JsonValue, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.content import ContentBlock
from tether.hooks.record import HookDecision
from tether.models.finish import FinishReason
from tether.session.log.parent import ParentLink
from tether.session.log.shown import ShownBlock
from tether.session.log.workspace_events import (
    CheckpointEvent,
    CommandEvent,
    RestoreEvent,
    TrustEvent,
)
from tether.settings.hook_events import HookEvent
from tether.tools.observations import FileVersion
from tether.tools.outcome import PermissionOutcome
from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "EVENT",
    "HEADER",
    "LOG_VERSION",
    "AssistantChunk",
    "AssistantMessageEvent",
    "AssistantThinking",
    "CompactionEvent",
    "CompactionMethod",
    "Event",
    "ForkPoint",
    "HookRunEvent",
    "JobEvent",
    "ParentLink",
    "SessionConfigEvent",
    "SessionHeader",
    "SessionTitle",
    "ThinkingPart",
    "ToolCallEvent",
    "ToolCallRecord",
    "ToolResultEvent",
    "TurnEnd",
    "TurnEndReason",
    "TurnStart",
    "TurnStop",
    "UsageEvent",
    "UserMessageEvent",
    "configured",
]

LOG_VERSION = 1
"""The log format this code reads and writes; any other version is refused."""

TurnStop = Literal["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]
"""Why a prompt ended (ACP's stop reasons)."""

TurnEndReason = TurnStop | Literal["error"]
"""What `turn/end` records: a stop reason, or `error` when the model failed (see `error`)."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ForkPoint:
    """Where a forked session came from: the original's id and the last of its events copied."""

    id: str
    seq: int


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SessionHeader:
    """Line 1 of every log: the format version, the session's id, cwd and creation time.

    A fork's log starts with events copied from another session: `forkedFrom` says which.
    A child session (an agent a `task` call started) names its `parent`.
    """

    type: Literal["session"] = "session"
    version: int = LOG_VERSION
    id: str
    cwd: str
    created_at: str
    forked_from: Opt[ForkPoint] = None
    parent: Opt[ParentLink] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TurnStart:
    """A prompt began."""

    type: Literal["turn/start"] = "turn/start"
    seq: int = 0
    time: str = ""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class UserMessageEvent:
    """What the person said: text and images, and `shown`, the blocks as sent, when they differ."""

    type: Literal["user/message"] = "user/message"
    seq: int = 0
    time: str = ""
    content: tuple[ContentBlock, ...]
    shown: Opt[tuple[ShownBlock, ...]] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class AssistantChunk:
    """A piece of assistant text as it streamed (shown on replay; the history uses the message)."""

    type: Literal["assistant/chunk"] = "assistant/chunk"
    seq: int = 0
    time: str = ""
    text: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class AssistantThinking:
    """A piece of the model's reasoning as it streamed (shown dimmed, live and on replay)."""

    type: Literal["assistant/thinking"] = "assistant/thinking"
    seq: int = 0
    time: str = ""
    text: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ThinkingPart:
    """A `thinking` content part of an assistant message: the reasoning and the provider's
    opaque data, verbatim (`signature`, or `redacted` for a block it would not show),
    with the model (`source`) that made them and the provider's id for it (`itemId`)."""

    type: Literal["thinking"] = "thinking"
    text: str
    signature: Opt[str] = None
    redacted: Opt[str] = None
    source: str = ""
    item_id: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ToolCallRecord:
    """A tool call inside an assistant message; `arguments` is the raw text the model sent."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class AssistantMessageEvent:
    """One complete model reply: its reasoning, its text and its tool calls, in order."""

    type: Literal["assistant/message"] = "assistant/message"
    seq: int = 0
    time: str = ""
    text: str
    tool_calls: tuple[ToolCallRecord, ...] = ()
    stop_reason: FinishReason = "end_turn"
    thinking: Opt[tuple[ThinkingPart, ...]] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ToolCallEvent:
    """A call about to run (one per tool call of the message, in the model's order)."""

    type: Literal["tool/call"] = "tool/call"
    seq: int = 0
    time: str = ""
    tool_call_id: str
    name: str
    arguments: str
    binding: Opt[str] = None
    """The tool's `binding()` when the call was made (bash: how the command was confined)."""
    mcp: Opt[JsonValue] = None
    """For an MCP tool's call, what its cards showed besides the arguments: a
    `tether.mcp.card.McpCard` (server, title, kind), read when the call is replayed, so a
    replay without the server shows them too. Absent in logs written before it was kept:
    their MCP calls replay with the generic card."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ToolResultEvent:
    """A call's result, `{content, isError, meta}`, appended as the call finishes.

    `reminder` is text the model sees after the result (a subdirectory's `AGENTS.md`), kept
    beside the result so the card stays the same; `reminderSources` are the files it came from.
    `observed` are the file versions the call saw (what read-before-edit goes by).
    `permission` says how the policy settled the call when it needed a person (asked and
    answered, or `refused` with no one to ask), so a replay shows the decision too.
    """

    type: Literal["tool/result"] = "tool/result"
    seq: int = 0
    time: str = ""
    tool_call_id: str
    content: tuple[ContentBlock, ...]
    is_error: bool = False
    meta: JsonValue = None
    reminder: Opt[str] = None
    reminder_sources: Opt[tuple[str, ...]] = None
    observed: Opt[tuple[FileVersion, ...]] = None
    permission: Opt[PermissionOutcome] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TurnEnd:
    """A prompt ended; `error` says what failed when `stopReason` is `error`."""

    type: Literal["turn/end"] = "turn/end"
    seq: int = 0
    time: str = ""
    stop_reason: TurnEndReason
    error: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SessionTitle:
    """The session's title (set from the first prompt)."""

    type: Literal["session/title"] = "session/title"
    seq: int = 0
    time: str = ""
    title: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class UsageEvent:
    """The tokens one model response cost, as the provider reported them."""

    type: Literal["model/usage"] = "model/usage"
    seq: int = 0
    time: str = ""
    input_tokens: int
    output_tokens: int
    cached_read_tokens: Opt[int] = None
    cached_write_tokens: Opt[int] = None
    reasoning_tokens: Opt[int] = None
    """The part of `outputTokens` spent thinking, when the provider said."""
    cost_usd: Opt[float] = None
    """What the response cost in US dollars at the catalog's price; absent when it is unknown."""


CompactionMethod = Literal["prune", "summary"]
"""How the model's view was shortened: old tool results stubbed, or the start summarised."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class CompactionEvent:
    """What the model sees was shortened through event `throughSeq`; the log itself is unchanged.

    `prune` stubs the tool results up to `throughSeq`; `summary` replaces every message up
    to it with `summary`. Token counts are estimates of the request before and after.
    """

    type: Literal["context/compaction"] = "context/compaction"
    seq: int = 0
    time: str = ""
    method: CompactionMethod
    before_tokens: int
    after_tokens: int
    summary: Opt[str] = None
    through_seq: int


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class SessionConfigEvent:
    """A session option set mid-session (`model`: a `--model` spec), honoured when loaded."""

    type: Literal["session/config"] = "session/config"
    seq: int = 0
    time: str = ""
    config_id: str
    value: str


def configured(events: Iterable[Event], config_id: str) -> str | None:
    """The last value `events` set for a session option (`model`), if they set one."""
    value = None
    for event in events:
        if isinstance(event, SessionConfigEvent) and event.config_id == config_id:
            value = event.value
    return value


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class HookRunEvent:
    """One hook command ran for `event`: how it ended, what it decided, and what came of it.

    `context` is exactly what the model was given because of it (after the prompt, after a
    call's result when `toolCallId` names the call, or as its instruction to go on at a stop);
    a `UserPromptSubmit` run that decided `block` or `stop` takes its prompt out of what the
    model sees. `stdout` and `stderr` are capped; `note` says what tether did not follow.
    """

    type: Literal["hook/run"] = "hook/run"
    seq: int = 0
    time: str = ""
    event: HookEvent
    command: str
    source: str
    exit_code: Opt[int] = None
    duration_ms: int
    decision: Opt[HookDecision] = None
    reason: Opt[str] = None
    system_message: Opt[str] = None
    context: Opt[str] = None
    note: Opt[str] = None
    stdout: Opt[str] = None
    stderr: Opt[str] = None
    error: Opt[str] = None
    tool_call_id: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class JobEvent:
    """A background command's card changed after its call returned: its output so far (the
    recent tail while it runs, the whole card's once it ended) and how it ended.

    Appended at most once a second while the job prints, and once when it ends (also when
    the session's end stopped it), so a replay shows the card as it was last seen live."""

    type: Literal["job/update"] = "job/update"
    seq: int = 0
    time: str = ""
    tool_call_id: str
    job_id: str
    command: str
    output: str
    exit_code: Opt[int] = None
    signal: Opt[str] = None
    ended: bool = False


Event = Annotated[
    TurnStart
    | UserMessageEvent
    | AssistantChunk
    | AssistantThinking
    | AssistantMessageEvent
    | ToolCallEvent
    | ToolResultEvent
    | TurnEnd
    | SessionTitle
    | SessionConfigEvent
    | UsageEvent
    | CompactionEvent
    | CheckpointEvent
    | RestoreEvent
    | CommandEvent
    | TrustEvent
    | HookRunEvent
    | JobEvent,
    Field(discriminator="type"),
]

EVENT: TypeAdapter[Event] = TypeAdapter(Event, config=ConfigDict(defer_build=True))
"""Validates and serializes one event line (built with the first one)."""

HEADER: TypeAdapter[SessionHeader] = TypeAdapter(SessionHeader)
"""Validates and serializes the header line."""
