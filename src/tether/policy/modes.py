"""Session modes: how much the session may do without asking."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

__all__ = ["DEFAULT_MODE", "MODES", "Mode", "is_mode"]

Mode = Literal["ask", "accept-edits", "auto"]
"""`ask`: ask for every edit, command and outside access; `accept-edits`: edits inside the
workspace pass, the rest asks; `auto`: everything passes."""

MODES: tuple[Mode, ...] = get_args(Mode)
"""Every mode, the most careful first."""

DEFAULT_MODE: Mode = "ask"


def is_mode(value: object) -> TypeGuard[Mode]:
    """Whether `value` names a mode (for narrowing client input such as `session/set_mode`)."""
    return value in MODES
