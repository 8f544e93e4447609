"""Session modes: how much the session may do without asking."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

__all__ = ["DEFAULT_MODE", "MODES", "PolicyMode", "is_mode"]

PolicyMode = Literal["ask", "accept-edits", "auto", "plan"]
"""`ask`: ask for every edit, command and outside access; `accept-edits`: edits inside the
workspace pass, the rest asks; `auto`: everything passes; `plan`: nothing may change (edits
are refused, commands run in the read-only sandbox and ask as in `ask`) until the person
approves the model's plan (`exit_plan_mode`)."""

MODES: tuple[PolicyMode, ...] = get_args(PolicyMode)
"""Every mode: the three that let work through, the most careful first, then `plan`."""

DEFAULT_MODE: PolicyMode = "ask"


def is_mode(value: object) -> TypeGuard[PolicyMode]:
    """Whether `value` names a mode (for narrowing client input such as `session/set_mode`)."""
    return value in MODES
