"""The session modes as ACP presents them: ids, names and what each lets through."""

from __future__ import annotations

from acp.schema import SessionMode, SessionModeState

from tether.acp.errors import invalid_params
from tether.policy import MODES, PolicyMode, is_mode

__all__ = ["AVAILABLE_MODES", "mode_state", "parse_mode"]

AVAILABLE_MODES: tuple[SessionMode, ...] = (
    SessionMode(
        id="ask",
        name="Ask",
        description="Ask before every edit, every command and anything outside the workspace.",
    ),
    SessionMode(
        id="accept-edits",
        name="Accept edits",
        description="Edit files in the workspace without asking; still ask for commands.",
    ),
    SessionMode(
        id="auto",
        name="Auto",
        description="Edit files and run commands without asking.",
    ),
    SessionMode(
        id="plan",
        name="Plan",
        description=(
            "Research and plan without changing anything (commands run read-only); the work "
            "starts once you approve the plan."
        ),
    ),
)
"""Every mode, in the same order as `tether.policy.MODES`."""


def mode_state(current: PolicyMode) -> SessionModeState:
    """The `modes` of a `session/new` or `session/load` answer."""
    return SessionModeState(current_mode_id=current, available_modes=list(AVAILABLE_MODES))


def parse_mode(mode_id: str) -> PolicyMode:
    """The mode a client names; an unknown id is an invalid-params error that lists the modes."""
    if not is_mode(mode_id):
        raise invalid_params(
            f"Unknown mode {mode_id!r}: use one of {', '.join(MODES)}",
            {"modeId": mode_id, "availableModes": list(MODES)},
        )
    return mode_id
