"""The sandbox's modes and the variable that chooses one: a leaf, so that a command's `--help`
names them without loading the sandbox."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

__all__ = ["DEFAULT_SANDBOX_MODE", "SANDBOX_ENV", "SANDBOX_MODES", "SandboxMode", "is_sandbox_mode"]

SandboxMode = Literal["workspace-write", "read-only", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = get_args(SandboxMode)
DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write"
SANDBOX_ENV = "TETHER_SANDBOX"
"""The environment variable that sets the mode when no `--sandbox` flag is given."""


def is_sandbox_mode(value: object) -> TypeGuard[SandboxMode]:
    """Whether `value` names a sandbox mode."""
    return value in SANDBOX_MODES
