"""Notices for people, live and on replay: a hook that ran, a prompt's checkpoint, files
restored, tether's answer to a command of its own, the workspace's trust settled.

Each carries its `text` (what every surface shows) and is a member of the one
`ClientUpdate` union (`tether.session.updates`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, assert_never

from pydantic import ConfigDict, computed_field

from tether.figures import duration
from tether.hooks.record import HookDecision
from tether.session.log.workspace_events import RestoreAction
from tether.wire import WIRE_CONFIG, Opt

__all__ = ["CheckpointSaved", "CommandAnswered", "FilesRestored", "HookRan", "TrustSettled"]


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
