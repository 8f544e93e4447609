"""The sandbox's modes and the variable that chooses one: a leaf, so that a command's `--help`
names them without loading the sandbox."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

__all__ = [
    "DEFAULT_SANDBOX_MODE",
    "SANDBOX_ENV",
    "SANDBOX_MODES",
    "UNSANDBOXED",
    "SandboxMode",
    "is_sandbox_mode",
    "mode_label",
]

SandboxMode = Literal["workspace-write", "read-only", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = get_args(SandboxMode)
DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write"
SANDBOX_ENV = "TETHER_SANDBOX"
"""The environment variable that sets the mode when no `--sandbox` flag is given."""
UNSANDBOXED = "unsandboxed"
"""The label of a command that runs as the user's own shell would run it."""


def mode_label(mode: SandboxMode, allow_network: bool) -> str:
    """How a command runs in `mode`, as its card says: `sandbox: workspace-write, no network`,
    or `unsandboxed`."""
    if mode == "off":
        return UNSANDBOXED
    network = "network" if allow_network else "no network"
    return f"sandbox: {mode}, {network}"


def is_sandbox_mode(value: object) -> TypeGuard[SandboxMode]:
    """Whether `value` names a sandbox mode."""
    return value in SANDBOX_MODES
