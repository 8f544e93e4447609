"""What clients render, live and on replay: a closed union of small frozen dataclasses.

They are plain dataclasses: a replay builds one per event, so building one validates
nothing. `CLIENT_UPDATE` only dumps them, as the camelCase JSON of `tether show --json`; what the
wire form adds or leaves out (`rawInput` for the raw argument text, a compaction's `text`)
is said by the fields themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field, TypeAdapter, computed_field

from tether import views
from tether.figures import duration, short_tokens
from tether.session.log.events import CompactionMethod, TurnStop
from tether.session.log.shown import EmbeddedResource, ResourceLink
from tether.session.notices import (
    CheckpointSaved,
    CommandAnswered,
    FilesRestored,
    HookRan,
    TrustSettled,
)
from tether.tools.outcome import PermissionOutcome
from tether.tools.present import raw_input
from tether.tools.result import ToolResult
from tether.views import ToolCallView
from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "CLIENT_UPDATE",
    "AgentText",
    "AgentThought",
    "ClientUpdate",
    "ContextCompacted",
    "JobChanged",
    "ThoughtFinished",
    "TitleChanged",
    "ToolCallFinished",
    "ToolCallPartial",
    "ToolCallStarted",
    "TurnEnded",
    "TurnFailed",
    "UsageChanged",
    "UserImage",
    "UserResource",
    "UserText",
    "agent_text",
    "call_finished",
    "call_started",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class UserText:
    """A text block of the person's prompt."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["user_text"] = "user_text"
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class UserImage:
    """An image block of the person's prompt (base64 `data`)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["user_image"] = "user_image"
    data: str
    mime_type: str


@dataclass(frozen=True, kw_only=True, slots=True)
class UserResource:
    """A resource of the person's prompt as they sent it (a link, an embedded file)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["user_resource"] = "user_resource"
    block: ResourceLink | EmbeddedResource


@dataclass(frozen=True, kw_only=True, slots=True)
class AgentText:
    """A chunk of the assistant's text, in the order it streamed."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["agent_text"] = "agent_text"
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class AgentThought:
    """A chunk of the model's reasoning, in the order it streamed."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["agent_thought"] = "agent_thought"
    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ThoughtFinished:
    """The model stopped thinking and went on: how long it thought (from the log's times)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["thought_finished"] = "thought_finished"
    duration_ms: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """`Thought for 4.2 s`."""
        return f"Thought for {duration(self.duration_ms)}"


def _unmade() -> Any:
    """What a field made in `__post_init__` holds until then (pydantic writes it only when
    it has a default: a default factory, which a JSON Schema does not show)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallStarted:
    """A call is pending: its raw arguments and its call card."""

    # Every field is on the wire, `rawInput` too, though only some have defaults.
    __pydantic_config__: ClassVar[ConfigDict] = {
        **WIRE_CONFIG,
        "json_schema_serialization_defaults_required": True,
    }

    kind: Literal["tool_call_started"] = "tool_call_started"
    tool_call_id: str
    name: str
    arguments: Annotated[str, Field(exclude=True)]
    """The raw argument text exactly as the model sent it (on the wire as `raw_input`)."""
    raw_input: Any = field(init=False, compare=False, repr=False, default_factory=_unmade)
    """The arguments as JSON when they parse, else the raw text: the wire's (and ACP's)
    `rawInput`. Made from `arguments`, with the parse that validated them when there was one
    (`call_started`), so a call's arguments are decoded once."""
    view: ToolCallView

    def __post_init__(self) -> None:
        _STARTED_RAW_INPUT(self, raw_input(self.arguments))


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallPartial:
    """Live only, never stored: a partial result card (bash output so far)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["tool_call_progress"] = "tool_call_progress"
    tool_call_id: str
    view: views.ToolResultView


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallFinished:
    """A call finished: its status, its result card, and the stored result itself."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["tool_call_finished"] = "tool_call_finished"
    tool_call_id: str
    status: Literal["completed", "failed"]
    view: views.ToolResultView
    result: ToolResult
    permission: Opt[PermissionOutcome] = None
    """How the policy settled the call when it needed a person (`None`: it did not)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class TitleChanged:
    """The session got its title."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["title_changed"] = "title_changed"
    title: str


@dataclass(frozen=True, kw_only=True, slots=True)
class TurnEnded:
    """The prompt ended normally, was capped, or was cancelled."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["turn_ended"] = "turn_ended"
    stop_reason: TurnStop


@dataclass(frozen=True, kw_only=True, slots=True)
class TurnFailed:
    """The prompt ended because the model failed; `message` says why."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["turn_failed"] = "turn_failed"
    message: str


@dataclass(frozen=True, kw_only=True, slots=True)
class UsageChanged:
    """After a model response: the tokens the context holds (`used`) of the window (`size`)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["usage_changed"] = "usage_changed"
    used: int
    size: int
    compact_at: Opt[float] = None
    """The share of the window past which the session compacts (absent: not said)."""
    cost_usd: Opt[float] = None
    """What the session's own responses cost so far, in US dollars (absent: unknown)."""

    @property
    def text(self) -> str:
        """`23.1k / 128k tokens`."""
        return f"{short_tokens(self.used)} / {short_tokens(self.size)} tokens"


@dataclass(frozen=True, kw_only=True, slots=True)
class ContextCompacted:
    """What the model sees was compacted (a notice for people; the cards are unchanged)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["context_compacted"] = "context_compacted"
    method: CompactionMethod
    before_tokens: int
    after_tokens: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """`context compacted by summary: 104k → 9.8k tokens`."""
        before, after = short_tokens(self.before_tokens), short_tokens(self.after_tokens)
        return f"context compacted by {self.method}: {before} → {after} tokens"


@dataclass(frozen=True, kw_only=True)
class JobChanged:
    """A background command's card after its call returned: new output, or how it ended.

    The call stays as it finished (its result told the model the job started); only its
    card changes, live and on replay alike."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["job_changed"] = "job_changed"
    tool_call_id: str
    job_id: str
    view: views.TerminalResultView
    ended: bool


ClientUpdate = Annotated[
    UserText
    | UserImage
    | UserResource
    | AgentText
    | AgentThought
    | ThoughtFinished
    | ToolCallStarted
    | ToolCallPartial
    | ToolCallFinished
    | JobChanged
    | TitleChanged
    | TurnEnded
    | TurnFailed
    | UsageChanged
    | ContextCompacted
    | HookRan
    | CheckpointSaved
    | FilesRestored
    | CommandAnswered
    | TrustSettled,
    Field(discriminator="kind"),
]

# Built on first use: every session imports this module, only `show --json` dumps updates.
CLIENT_UPDATE: TypeAdapter[ClientUpdate] = TypeAdapter(
    ClientUpdate, config=ConfigDict(defer_build=True)
)
"""Serializes any update as camelCase JSON (updates are made in code, never validated)."""


# A replay makes an update per streamed chunk and two per call. A frozen dataclass's
# `__init__` sets each field through `object.__setattr__`, looked up anew per field; these
# set each slot through its own descriptor, found once here (about half the cost). Each
# unpacking below fails at import if its class's fields change.
_new = object.__new__


def _slot_setters(cls: type[object]) -> tuple[Callable[[object, object], None], ...]:
    """The slot setters of a frozen slotted dataclass's fields, in their order."""
    return tuple(vars(cls)[field.name].__set__ for field in fields(cls))  # type: ignore[arg-type]


_TEXT_KIND, _TEXT = _slot_setters(AgentText)
(
    _STARTED_KIND,
    _STARTED_ID,
    _STARTED_NAME,
    _STARTED_ARGUMENTS,
    _STARTED_RAW_INPUT,
    _STARTED_VIEW,
) = _slot_setters(ToolCallStarted)
(
    _FINISHED_KIND,
    _FINISHED_ID,
    _FINISHED_STATUS,
    _FINISHED_VIEW,
    _FINISHED_RESULT,
    _FINISHED_PERMISSION,
) = _slot_setters(ToolCallFinished)


def agent_text(text: str) -> AgentText:
    """`AgentText(text=text)`, made as a replay makes one per chunk."""
    made = _new(AgentText)
    _TEXT_KIND(made, "agent_text")
    _TEXT(made, text)
    return made


def call_started(
    tool_call_id: str, name: str, arguments: str, raw_input: Any, view: ToolCallView
) -> ToolCallStarted:
    """`ToolCallStarted` of these fields, made as a replay makes one per call; `raw_input` is
    what `tether.tools.present.raw_input(arguments)` gives, made already."""
    made = _new(ToolCallStarted)
    _STARTED_KIND(made, "tool_call_started")
    _STARTED_ID(made, tool_call_id)
    _STARTED_NAME(made, name)
    _STARTED_ARGUMENTS(made, arguments)
    _STARTED_RAW_INPUT(made, raw_input)
    _STARTED_VIEW(made, view)
    return made


def call_finished(
    tool_call_id: str,
    status: Literal["completed", "failed"],
    view: views.ToolResultView,
    result: ToolResult,
    permission: PermissionOutcome | None,
) -> ToolCallFinished:
    """`ToolCallFinished` of these fields, made as a replay makes one per call."""
    made = _new(ToolCallFinished)
    _FINISHED_KIND(made, "tool_call_finished")
    _FINISHED_ID(made, tool_call_id)
    _FINISHED_STATUS(made, status)
    _FINISHED_VIEW(made, view)
    _FINISHED_RESULT(made, result)
    _FINISHED_PERMISSION(made, permission)
    return made
