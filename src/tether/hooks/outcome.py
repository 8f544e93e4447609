"""What a hook's exit code and output mean, event by event, as Claude Code documents them.

- Exit 0: success. A JSON object on stdout is read (below); plain stdout is added to the
  model's context for `UserPromptSubmit` and `SessionStart`, and only logged otherwise.
- Exit 2: blocking. `PreToolUse` denies the call (stderr is the model's error result),
  `PostToolUse` gives stderr to the model after the result, `UserPromptSubmit` drops the
  prompt (stderr is shown to the person), `Stop` and `SubagentStop` make the model go on
  with stderr as its instruction, `PreCompact` blocks the compaction; for the other events
  stderr is shown to the person.
- Any other exit, a timeout, a hook that cannot start: a non-blocking error shown to the
  person; the session goes on as if the hook had not run.

JSON output: `continue: false` stops the turn (`stopReason` says why to the person) and
wins over everything else; `decision: "block"` with `reason` acts as exit 2 with `reason` as
its stderr (`approve` is `allow` for `PreToolUse`); `hookSpecificOutput.permissionDecision`
`allow | deny | ask` with `permissionDecisionReason` decides a `PreToolUse` call;
`hookSpecificOutput.additionalContext` is added to the model's context (`UserPromptSubmit`,
`SessionStart`, `PreToolUse`, `PostToolUse`); `systemMessage` is shown to the person;
`suppressOutput` keeps stdout out of the log.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tether.hooks.config import ConfiguredHook
from tether.hooks.process import Finished
from tether.hooks.record import HookDecision, HookRun
from tether.jsontext import parse_json
from tether.settings.schema import HookEvent

__all__ = ["CONTEXT_CHARS", "LOGGED_CHARS", "HookOutput", "interpret"]

LOGGED_CHARS = 4000
"""Characters of each output stream the log keeps (what is cut is counted)."""

CONTEXT_CHARS = 10_000
"""Characters of one hook's output the model is given (as Claude Code caps it)."""

_CONTEXT_EVENTS: frozenset[HookEvent] = frozenset(
    (
        "UserPromptSubmit",
        "SessionStart",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "SubagentStart",
    )
)
_PLAIN_CONTEXT: frozenset[HookEvent] = frozenset({"UserPromptSubmit", "SessionStart"})


class _PermissionAnswer(BaseModel):
    """`hookSpecificOutput.decision` of a `PermissionRequest` hook: the question's answer."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when a hook answers

    behavior: Literal["allow", "deny"]
    message: str | None = None
    interrupt: bool = False
    updated_input: dict[str, Any] | None = Field(default=None, alias="updatedInput")


class _Specific(BaseModel):
    """`hookSpecificOutput`: what only some events read."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when a hook answers

    decision: _PermissionAnswer | None = None

    permission_decision: Literal["allow", "deny", "ask"] | None = Field(
        default=None, alias="permissionDecision"
    )
    permission_decision_reason: str | None = Field(default=None, alias="permissionDecisionReason")
    additional_context: str | None = Field(default=None, alias="additionalContext")


class HookOutput(BaseModel):
    """A hook's JSON answer on stdout (fields other events do not read are ignored)."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when a hook answers

    continue_: bool = Field(default=True, alias="continue")
    stop_reason: str | None = Field(default=None, alias="stopReason")
    suppress_output: bool = Field(default=False, alias="suppressOutput")
    system_message: str | None = Field(default=None, alias="systemMessage")
    decision: Literal["approve", "block"] | None = None
    reason: str | None = None
    hook_specific_output: _Specific | None = Field(default=None, alias="hookSpecificOutput")


def interpret(hook: ConfiguredHook, finished: Finished, tool_call_id: str | None) -> HookRun:
    """The run of `hook` that ended as `finished`, with what it decided for its event."""
    stdout = _text(finished.stdout)
    stderr = _text(finished.stderr)
    run = HookRun(
        event=hook.event,
        command=hook.command,
        source=hook.source,
        exit_code=finished.exit_code,
        duration_ms=finished.duration_ms,
        stdout=_logged(stdout, finished.stdout_bytes, len(finished.stdout)),
        stderr=_logged(stderr, finished.stderr_bytes, len(finished.stderr)),
        error=finished.error or _signalled(finished),
        tool_call_id=tool_call_id,
    )
    if run.error is not None:
        return run
    match finished.exit_code:
        case 2:
            return _blocking(run, stderr.strip())
        case 0:
            return _succeeded(run, stdout, finished.stdout_bytes > len(finished.stdout))
        case _:
            return run


def _blocking(run: HookRun, message: str) -> HookRun:
    """Exit 2 (or `decision: block`): what blocking means for the run's event."""
    event = run.event
    match event:
        case "PreToolUse":
            return _with(run, decision="deny", reason=message)
        case "PermissionRequest":
            return _with(run, decision="deny", reason=message)
        case "PostToolUse" | "PostToolUseFailure":
            return _with(run, decision="block", reason=message, context=_feedback(run, message))
        case "UserPromptSubmit" | "PreCompact":
            return _with(run, decision="block", reason=message)
        case "Stop" | "SubagentStop":
            instruction = message or f"The {event} hook asked you to continue."
            return _with(run, decision="block", reason=message, context=_feedback(run, instruction))
        case "SessionStart" | "SessionEnd" | "Notification" | "SubagentStart":
            return _with(run, reason=message or None)


def _succeeded(run: HookRun, stdout: str, cut: bool) -> HookRun:
    answer = stdout.strip()
    if answer.startswith("{") and not cut:
        try:
            data: Any = parse_json(answer)
        except ValueError:
            data = None  # not JSON after all: plain output
        if isinstance(data, dict):
            try:
                return _answered(run, HookOutput.model_validate(data))
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(part) for part in first["loc"])
                return _with(run, error=f"its JSON output is not valid: {where}: {first['msg']}")
    if run.event in _PLAIN_CONTEXT and answer:
        return _with(run, context=_added(run, answer))
    return run


def _answered(run: HookRun, output: HookOutput) -> HookRun:
    """What a JSON answer decides; `continue: false` wins over the rest."""
    if output.suppress_output:
        run = _with(run, stdout=None)
    if output.system_message:
        run = _with(run, system_message=output.system_message)
    if not output.continue_:
        return _with(run, decision="stop", reason=output.stop_reason)
    specific = output.hook_specific_output or _Specific()
    extra = specific.additional_context
    if extra and run.event in _CONTEXT_EVENTS:
        run = _with(run, context=_added(run, extra))
    if run.event == "PreToolUse":
        decided: HookDecision | None = None
        reason = output.reason
        if specific.permission_decision is not None:
            decided, reason = specific.permission_decision, specific.permission_decision_reason
        elif output.decision is not None:
            decided = "allow" if output.decision == "approve" else "deny"
        return _with(run, decision=decided, reason=reason) if decided else run
    if run.event == "PermissionRequest" and specific.decision is not None:
        return _permission_answer(run, specific.decision)
    if output.decision == "block":
        blocked = _blocking(run, (output.reason or "").strip())
        # Feedback after a call comes on top of any context the hook added.
        if run.context and blocked.context and blocked.context != run.context:
            blocked = _with(blocked, context=f"{run.context}\n\n{blocked.context}")
        return blocked
    return run


def _permission_answer(run: HookRun, answer: _PermissionAnswer) -> HookRun:
    """A `PermissionRequest` hook's answer: `allow`, `deny` (with the model's message), or
    `deny` with `interrupt` (the turn stops)."""
    unfollowed = "updatedInput is not followed: the call runs as the model asked"
    note = unfollowed if answer.updated_input is not None else None
    if answer.behavior == "allow":
        return _with(run, decision="allow", note=note)
    decided: HookDecision = "stop" if answer.interrupt else "deny"
    return _with(run, decision=decided, reason=answer.message, note=note)


def _added(run: HookRun, text: str) -> str:
    """Text a hook adds to the model's context, wrapped so the model knows where it is from."""
    body = _capped(text.strip()).replace("</system-reminder>", "&lt;/system-reminder&gt;")
    return (
        f"<system-reminder>\nThe {run.event} hook `{run.command}` adds this context:\n"
        f"{body}\n</system-reminder>"
    )


def _feedback(run: HookRun, text: str) -> str:
    """What the model reads from a hook that blocked after a call or at a stop."""
    return f"{run.event} hook feedback from `{run.command}`:\n{_capped(text)}"


def _capped(text: str) -> str:
    if len(text) <= CONTEXT_CHARS:
        return text
    return f"{text[:CONTEXT_CHARS]}\n... (cut: {len(text) - CONTEXT_CHARS} more characters)"


def _logged(text: str, total: int, kept: int) -> str | None:
    """A stream as the log keeps it: its first `LOGGED_CHARS`, and how much was left out."""
    if not total:
        return None
    if len(text) <= LOGGED_CHARS and total == kept:
        return text
    shown = text[:LOGGED_CHARS]
    return f"{shown}\n... ({total - len(shown.encode('utf-8', 'replace'))} more bytes)"


def _signalled(finished: Finished) -> str | None:
    if finished.signal is None:
        return None
    return f"killed by signal {finished.signal}"


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _with(run: HookRun, **changes: Any) -> HookRun:
    return replace(run, **changes)
