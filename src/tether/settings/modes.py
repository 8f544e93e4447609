"""Session modes: how much the session may do without asking."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

__all__ = ["DEFAULT_MODE", "MODES", "PolicyMode", "is_mode"]

PolicyMode = Literal["ask", "accept-edits", "auto"]
"""`ask`: ask for every edit, command and outside access; `accept-edits`: edits inside the
workspace pass, the rest asks; `auto`: everything passes."""

MODES: tuple[PolicyMode, ...] = get_args(PolicyMode)
"""Every mode, the most careful first."""

DEFAULT_MODE: PolicyMode = "ask"


def is_mode(value: object) -> TypeGuard[PolicyMode]:
    """Whether `value` names a mode (for narrowing client input such as `session/set_mode`)."""
    return value in MODES
