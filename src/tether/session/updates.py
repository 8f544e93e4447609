"""What clients render, live and on replay: a closed union of small frozen dataclasses.

They are plain dataclasses: a replay builds one per event, so building one validates
nothing. `CLIENT_UPDATE` only dumps them, as the camelCase JSON of `tether show --json`; what the
wire form adds or leaves out (`rawInput` for the raw argument text, a compaction's `text`)
is said by the fields themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, assert_never

from pydantic import ConfigDict, Field, PlainSerializer, TypeAdapter, computed_field

from tether.figures import duration, short_tokens
from tether.hooks.record import HookDecision
from tether.policy.asker import PermissionOutcome
from tether.session.log.events import CompactionMethod, RestoreAction, TurnStop
from tether.session.shown import EmbeddedResource, ResourceLink
from tether.tools.present import raw_input
from tether.tools.result import ToolResult
from tether.views import ToolCallView, ToolResultView
from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "CLIENT_UPDATE",
    "AgentText",
    "AgentThought",
    "CheckpointSaved",
    "ClientUpdate",
    "CommandAnswered",
    "ContextCompacted",
    "FilesRestored",
    "HookRan",
    "RawArguments",
    "ThoughtFinished",
    "TitleChanged",
    "ToolCallFinished",
    "ToolCallPartial",
    "ToolCallStarted",
    "TrustSettled",
    "TurnEnded",
    "TurnFailed",
    "UsageChanged",
    "UserImage",
    "UserResource",
    "UserText",
]


RawArguments = Annotated[
    str, Field(serialization_alias="rawInput"), PlainSerializer(raw_input, return_type=Any)
]
"""A call's raw argument text; on the wire its `rawInput`: the JSON it decodes to, else the text."""


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


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallStarted:
    """A call is pending: its raw arguments and its call card."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["tool_call_started"] = "tool_call_started"
    tool_call_id: str
    name: str
    arguments: RawArguments
    """The raw argument text exactly as the model sent it."""
    view: ToolCallView

    @property
    def raw_input(self) -> Any:
        """The arguments as JSON when they parse, else the raw text (for ACP's `rawInput`)."""
        return raw_input(self.arguments)


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallPartial:
    """Live only, never stored: a partial result card (bash output so far)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["tool_call_progress"] = "tool_call_progress"
    tool_call_id: str
    view: ToolResultView


@dataclass(frozen=True, kw_only=True, slots=True)
class ToolCallFinished:
    """A call finished: its status, its result card, and the stored result itself."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["tool_call_finished"] = "tool_call_finished"
    tool_call_id: str
    status: Literal["completed", "failed"]
    view: ToolResultView
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


@dataclass(frozen=True, kw_only=True, slots=True)
class HookRan:
    """A hook ran (a notice for people, live and on replay): what decided what, and why."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["hook_ran"] = "hook_ran"
    event: str
    command: str
    duration_ms: int
    exit_code: Opt[int] = None
    decision: Opt[HookDecision] = None
    message: Opt[str] = None
    """What people are told: why it decided, its message, or how it failed."""
    failed: bool = False
    """A non-blocking error: it exited with neither 0 nor 2, timed out, or did not start."""
    added_context: bool = False
    """Whether the model was given something it said."""
    tool_call_id: Opt[str] = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """`PreToolUse hook blocked the call: no rm -rf (./guard.sh, exit 2, 15 ms)`."""
        said = _first_line(self.message)
        head = f"{self.event} hook {self._outcome()}" + (f": {said}" if said else "")
        command = self.command if len(self.command) <= 60 else self.command[:59] + "…"
        facts = [command]
        if self.exit_code is not None:
            facts.append(f"exit {self.exit_code}")
        facts.append(duration(self.duration_ms))
        return f"{head} ({', '.join(facts)})"

    def _outcome(self) -> str:
        match self.decision:
            case "deny":
                return "blocked the call"
            case "allow":
                return "allowed the call"
            case "ask":
                return "asked for approval"
            case "stop":
                return "stopped the turn"
            case "block":
                return _BLOCKED.get(self.event, "blocked")
            case None if self.failed:
                return "failed"
            case None:
                return "added context for the model" if self.added_context else "ran"


_BLOCKED = {
    "UserPromptSubmit": "blocked the prompt",
    "Stop": "kept the model going",
    "SubagentStop": "kept the agent going",
    "PostToolUse": "gave the model feedback",
    "PostToolUseFailure": "gave the model feedback",
    "PreCompact": "blocked the compaction",
}


def _first_line(text: str | None) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not lines:
        return ""
    first = lines[0] if len(lines[0]) <= 200 else lines[0][:199] + "…"
    return first + (" …" if len(lines) > 1 and not first.endswith("…") else "")


@dataclass(frozen=True, kw_only=True, slots=True)
class CheckpointSaved:
    """At a prompt's end, what its tools changed in the workspace (a notice, one per prompt).

    `skipped` are files left out of checkpoints for their size or because git could not read
    them (said once each); `partial`
    says, once per session, that without git only `edit` and `write` are covered.
    """

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["checkpoint_saved"] = "checkpoint_saved"
    prompt: int
    files: tuple[str, ...]
    skipped: tuple[str, ...] = ()
    partial: bool = False

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """`checkpoint: prompt 3 changed 2 files: a.py, b.py (/undo reverts them)` and notes."""
        lines = []
        if self.partial:
            lines.append(
                "git was not found: checkpoints cover only the files edit and write change"
            )
        if self.files:
            count = _files(len(self.files))
            lines.append(
                f"checkpoint: prompt {self.prompt} changed {count}: "
                f"{_names(self.files)} (/undo reverts {'it' if len(self.files) == 1 else 'them'})"
            )
        if self.skipped:
            lines.append(f"not in checkpoints (over 10 MB or unreadable): {_names(self.skipped)}")
        return "\n".join(lines)


@dataclass(frozen=True, kw_only=True, slots=True)
class FilesRestored:
    """Files were restored from a checkpoint (rewind, undo, redo); `kept` were left alone."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["files_restored"] = "files_restored"
    action: RestoreAction
    prompt: int
    restored: tuple[str, ...]
    kept: tuple[str, ...] = ()

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """`undo: restored 2 files to before prompt 3: a.py, b.py; kept as they are: c.py`."""
        where = (
            f"to the end of prompt {self.prompt}"
            if self.action == "redo"
            else f"to before prompt {self.prompt}"
        )
        text = f"{self.action}: restored {_files(len(self.restored))} {where}"
        if self.restored:
            text += f": {_names(self.restored)}"
        if self.kept:
            text += f"; kept as they are: {_names(self.kept)}"
        return text


@dataclass(frozen=True, kw_only=True, slots=True)
class CommandAnswered:
    """tether's own answer to a command (`/rewind`'s listing, a refusal, a fork), live and on
    replay; `fork` is the session a fork made (before prompt `prompt`)."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["command_answered"] = "command_answered"
    text: str
    fork: str | None = None
    prompt: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class TrustSettled:
    """The person's answer to whether to trust the workspace `root`, live and on replay."""

    __pydantic_config__: ClassVar[ConfigDict] = WIRE_CONFIG

    kind: Literal["trust_settled"] = "trust_settled"
    root: str
    decision: Literal["allow_always", "allow_once", "reject"]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """`/w is trusted for this session: its settings apply` and the like."""
        match self.decision:
            case "allow_always":
                return f"{self.root} is trusted: its settings apply, now and in later sessions"
            case "allow_once":
                return f"{self.root} is trusted for this session: its settings apply"
            case "reject":
                return f"{self.root} is not trusted, so only its deny and ask rules apply"
            case _:
                assert_never(self.decision)


_NAMED = 5


def _files(count: int) -> str:
    return "1 file" if count == 1 else f"{count} files"


def _names(paths: tuple[str, ...]) -> str:
    shown = ", ".join(paths[:_NAMED])
    return shown if len(paths) <= _NAMED else f"{shown} and {len(paths) - _NAMED} more"


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
