"""The session log's vocabulary: a header line, then one event per line, camelCase JSON."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, JsonValue, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.content import ContentBlock
from tether.hooks.record import HookDecision
from tether.models.messages import FinishReason
from tether.policy.asker import PermissionOutcome
from tether.session.log.parent import ParentLink
from tether.session.shown import ShownBlock
from tether.settings.schema import HookEvent
from tether.tools.observations import FileVersion
from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "EVENT",
    "HEADER",
    "LOG_VERSION",
    "RESTORE_ACTIONS",
    "AssistantChunk",
    "AssistantMessageEvent",
    "AssistantThinking",
    "CheckpointEvent",
    "CommandEvent",
    "CompactionEvent",
    "CompactionMethod",
    "Event",
    "ForkPoint",
    "HookRunEvent",
    "ParentLink",
    "RestoreAction",
    "RestoreEvent",
    "SessionConfigEvent",
    "SessionHeader",
    "SessionTitle",
    "ThinkingPart",
    "ToolCallEvent",
    "ToolCallRecord",
    "ToolResultEvent",
    "TrustEvent",
    "TurnEnd",
    "TurnEndReason",
    "TurnStart",
    "TurnStop",
    "UsageEvent",
    "UserMessageEvent",
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


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class CheckpointEvent:
    """The workspace was saved as `tree`: before prompt `prompt` (step 0) or after its step `step`.

    `changed` are the paths that differ from the previous checkpoint: what the step's tools
    did, or for step 0 what changed outside tether since. `outside` are those of `changed`
    that tether's tools did not change: in a save just before step `step`'s tools ran (what
    changed while the model answered), or after a step whose every tool named the files it
    writes, the others. `skipped` names files left out for their size or unreadable, the
    first time each is met; `store` is `preimages` when there was no git and only the files
    `edit` and `write` changed were saved.
    """

    type: Literal["checkpoint"] = "checkpoint"
    seq: int = 0
    time: str = ""
    prompt: int
    step: int
    tree: str
    changed: tuple[str, ...] = ()
    outside: Opt[tuple[str, ...]] = None
    skipped: Opt[tuple[str, ...]] = None
    store: Opt[Literal["preimages"]] = None

    def own(self) -> tuple[str, ...]:
        """The paths tether's tools changed in this save (none before the prompt)."""
        if self.step == 0:
            return ()
        if not self.outside:
            return self.changed
        outside = set(self.outside)
        return tuple(p for p in self.changed if p not in outside)

    def others(self) -> tuple[str, ...]:
        """The paths something other than tether's tools changed in this save."""
        return self.changed if self.step == 0 else (self.outside or ())


RestoreAction = Literal["rewind", "undo", "redo"]
"""Why files were restored: `/rewind`, `/undo` (the last prompt), `/redo` (an undo undone)."""

RESTORE_ACTIONS: tuple[RestoreAction, ...] = ("rewind", "undo", "redo")


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class RestoreEvent:
    """Files were restored: to before prompt `prompt` (rewind, undo) or to its end (redo).

    `before` is the workspace just before (`outside`: what had changed outside tether since
    the last checkpoint), `tree` the workspace after; `restored` are the paths put back,
    `kept` the ones left as they were (changed by someone else, and kept by choice).
    """

    type: Literal["checkpoint/restore"] = "checkpoint/restore"
    seq: int = 0
    time: str = ""
    action: RestoreAction
    prompt: int
    before: str
    outside: tuple[str, ...] = ()
    tree: str
    restored: tuple[str, ...]
    kept: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TrustEvent:
    """The person said whether to trust the workspace `root` (its settings files as they were:
    `fingerprint`): for good, for this session (`allow_once`, kept when it is loaded again),
    or not."""

    type: Literal["workspace/trust"] = "workspace/trust"
    seq: int = 0
    time: str = ""
    root: str
    decision: Literal["allow_always", "allow_once", "reject"]
    fingerprint: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class CommandEvent:
    """A command tether answered itself (`/rewind 3`, `/undo`, `/fork`), never seen by the model.

    `text` is the command as the person typed it (a restore's own event follows); `said` is
    tether's answer when it was words (a listing, a refusal; alone, without `text`, when a
    restore failed after it was logged); `fork` the session a fork made, before `prompt`.
    """

    type: Literal["user/command"] = "user/command"
    seq: int = 0
    time: str = ""
    text: Opt[str] = None
    said: Opt[str] = None
    fork: Opt[str] = None
    prompt: Opt[int] = None


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
    | HookRunEvent,
    Field(discriminator="type"),
]

EVENT: TypeAdapter[Event] = TypeAdapter(Event, config=ConfigDict(defer_build=True))
"""Validates and serializes one event line (built with the first one)."""

HEADER: TypeAdapter[SessionHeader] = TypeAdapter(SessionHeader)
"""Validates and serializes the header line."""
