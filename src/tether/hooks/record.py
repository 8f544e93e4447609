"""What one hook run did, as plain data: the session logs it as a `hook/run` event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tether.settings.hook_events import HookEvent

__all__ = ["HookDecision", "HookRun"]

HookDecision = Literal["allow", "deny", "ask", "block", "stop"]
"""What a hook decided: `allow`, `deny` or `ask` a tool call (`PreToolUse`); `block` the
prompt, the stop, or the compaction (or give the model feedback after a call); `stop` the
turn altogether (`"continue": false`)."""


@dataclass(frozen=True)
class HookRun:
    """One hook command's run for one event: how it ended and what it decided."""

    event: HookEvent
    command: str
    source: str
    """The settings file that configured it."""
    exit_code: int | None
    """`None` when it did not exit by itself (see `error`)."""
    duration_ms: int
    decision: HookDecision | None = None
    reason: str | None = None
    """Why, as the hook said it (its stderr for an exit 2, its JSON's reason)."""
    system_message: str | None = None
    """A message for the person (`systemMessage`)."""
    context: str | None = None
    """Exactly what the model is given because of this run, if anything."""
    stdout: str | None = None
    """Its output, capped (see `tether.hooks.outcome.LOGGED_CHARS`)."""
    stderr: str | None = None
    error: str | None = None
    """Why it failed without an exit code: it could not start, timed out, was killed."""
    tool_call_id: str | None = None
    """The call a `PreToolUse` or `PostToolUse` run was about."""
    note: str | None = None
    """What the session did not follow of its decision, and why."""

    @property
    def failed(self) -> bool:
        """A non-blocking error: it exited with neither 0 nor 2, or did not exit by itself."""
        return self.error is not None or self.exit_code not in (0, 2)
