"""How bash commands are confined: the sandbox modes, their label, and the bwrap arguments.

| mode              | filesystem                                   | network            |
|-------------------|----------------------------------------------|--------------------|
| `workspace-write` | read-only, but the workspace roots and /tmp  | off unless allowed |
| `read-only`       | read-only, but a private /tmp                | off unless allowed |
| `off`             | as the user's own shell                      | on                 |

Both sandboxed modes get a fresh /dev and /proc, their own PID namespace (everything in it
ends with the call) and a new terminal session (no keystrokes injected into the terminal).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal, TypeGuard, get_args

from tether.tools.workspace import Workspace

__all__ = [
    "DEFAULT_SANDBOX_MODE",
    "SANDBOX_ENV",
    "SANDBOX_MODES",
    "SANDBOX_TMP",
    "UNSANDBOXED",
    "SandboxMode",
    "SandboxPolicy",
    "bwrap_arguments",
    "is_sandbox_mode",
]

SandboxMode = Literal["workspace-write", "read-only", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = get_args(SandboxMode)
DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write"
SANDBOX_ENV = "TETHER_SANDBOX"
"""The environment variable that sets the mode when no `--sandbox` flag is given."""
SANDBOX_TMP = "/tmp"
"""The sandbox's private, writable temporary directory (also its `TMPDIR`)."""
UNSANDBOXED = "unsandboxed"
"""The label of a command that runs as the user's own shell would run it."""


def is_sandbox_mode(value: object) -> TypeGuard[SandboxMode]:
    """Whether `value` names a sandbox mode."""
    return value in SANDBOX_MODES


@dataclass(frozen=True)
class SandboxPolicy:
    """The sandbox a session's commands run in, as chosen by flags or the environment."""

    mode: SandboxMode = DEFAULT_SANDBOX_MODE
    allow_network: bool = False

    @classmethod
    def from_env(cls, mode: str | None = None, *, allow_network: bool = False) -> SandboxPolicy:
        """The policy for `mode`, else `$TETHER_SANDBOX`, else `workspace-write`.

        Raises `ValueError` naming the choices for an unknown mode.
        """
        chosen = mode or os.environ.get(SANDBOX_ENV) or DEFAULT_SANDBOX_MODE
        if not is_sandbox_mode(chosen):
            choices = ", ".join(SANDBOX_MODES)
            raise ValueError(f"unknown sandbox mode {chosen!r}; expected {choices}")
        return cls(chosen, allow_network)

    @property
    def sandboxed(self) -> bool:
        """Whether commands are confined at all."""
        return self.mode != "off"

    def label(self) -> str:
        """How a command runs, as its card says: `sandbox: workspace-write, no network`."""
        if not self.sandboxed:
            return UNSANDBOXED
        network = "network" if self.allow_network else "no network"
        return f"sandbox: {self.mode}, {network}"


def bwrap_arguments(policy: SandboxPolicy, workspace: Workspace) -> list[str]:
    """The bwrap options (before `--` and the command) that confine a command to `policy`."""
    args = ["--ro-bind", "/", "/", "--tmpfs", SANDBOX_TMP]
    # After the private /tmp, so that a workspace under /tmp is bound over it, not hidden.
    # `-try`: a root removed since the session began is skipped rather than failing the call.
    bind = "--bind-try" if policy.mode == "workspace-write" else "--ro-bind-try"
    for root in workspace.roots:
        args += [bind, str(root), str(root)]
    args += ["--dev", "/dev", "--proc", "/proc"]
    if not policy.allow_network:
        args.append("--unshare-net")
    args += ["--unshare-pid", "--die-with-parent", "--new-session"]
    args += ["--setenv", "TMPDIR", SANDBOX_TMP, "--chdir", str(workspace.cwd)]
    return args
