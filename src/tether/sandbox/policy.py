"""How bash commands are confined: the sandbox modes, their label, and the bwrap arguments.

| mode              | filesystem                                   | network            |
|-------------------|----------------------------------------------|--------------------|
| `workspace-write` | read-only, but the workspace roots and /tmp  | off unless allowed |
| `read-only`       | read-only, but a private /tmp                | off unless allowed |
| `off`             | as the user's own shell                      | on                 |

Both sandboxed modes get a fresh /dev and /proc, their own PID and IPC namespaces (everything
in them ends with the call), a new terminal session (no keystrokes injected into the
terminal), no capabilities at all (root included: no mount, chroot or raw socket), a user
namespace where the kernel offers one (and no further ones inside), a seccomp filter without
Unix sockets (`seccomp.py`), an environment without secrets (`environment.py`), and the
mounts of `mounts.py` (protected entries read-only, and the files hooks run with their
folders pinned in place, credentials and tether's data hidden).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tether.home import data_dir
from tether.sandbox.modes import (
    DEFAULT_SANDBOX_MODE,
    SANDBOX_ENV,
    SANDBOX_MODES,
    UNSANDBOXED,
    SandboxMode,
    is_sandbox_mode,
    mode_label,
)
from tether.sandbox.mounts import (
    SANDBOX_TMP,
    Hidden,
    absent_protected,
    hidden_paths,
    linked,
    mount_arguments,
    protected_paths,
)

if TYPE_CHECKING:
    from tether.sandbox.bwrap import Bwrap
    from tether.sandbox.gitindex import WatchedIndex

__all__ = [
    "DEFAULT_MAX_PROCESSES",
    "DEFAULT_TMP_SIZE_MIB",
    "SANDBOX_TMP",
    "UNSANDBOXED",
    "Confinement",
    "SandboxPolicy",
    "bwrap_arguments",
    "confinement",
]

DEFAULT_TMP_SIZE_MIB = 1024
"""How large the private /tmp may grow (`sandbox.tmpSizeMiB`)."""
DEFAULT_MAX_PROCESSES = 1024
"""How many processes a sandboxed command may run at once (`sandbox.maxProcesses`)."""


@dataclass(frozen=True)
class SandboxPolicy:
    """The sandbox a session's commands run in, as chosen by flags or the environment."""

    mode: SandboxMode = DEFAULT_SANDBOX_MODE
    allow_network: bool = False
    env: tuple[str, ...] = ()
    """Variables passed in although their names look like secrets (`sandbox.env`)."""
    tmp_size_mib: int = DEFAULT_TMP_SIZE_MIB
    """How large the private /tmp may grow (`sandbox.tmpSizeMiB`)."""
    max_processes: int | None = DEFAULT_MAX_PROCESSES
    """Processes a command may run at once (`sandbox.maxProcesses`); `None`: no limit."""
    memory_mib: int | None = None
    """Address space of each of its processes (`sandbox.memoryMiB`); `None`: no limit."""
    protected: tuple[Path, ...] = ()
    """Files in the workspace bound read-only beside the protected entries: those hook
    commands run outside the sandbox (`tether.settings.hookfiles`)."""

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
        return mode_label(self.mode, self.allow_network)


def bwrap_arguments(
    policy: SandboxPolicy,
    roots: Sequence[Path],
    *,
    userns: bool = True,
    hidden: Sequence[Hidden] = (),
    protected: Sequence[Path] = (),
    pinned: Sequence[Path] = (),
) -> list[str]:
    """The bwrap options (before `--` and the command) that confine a command to `policy`.

    `roots`: the workspace's roots, its cwd first (`Workspace.roots`), where the command
    starts. `userns`: the kernel lets bwrap make a user namespace (found by
    `bwrap.find_bwrap`).
    """
    writable = policy.mode == "workspace-write"
    args = mount_arguments(
        roots,
        writable=writable,
        tmp_bytes=policy.tmp_size_mib * 1024 * 1024,
        hidden=hidden,
        protected=protected if writable else (),
        pinned=pinned,
    )
    args += ["--dev", "/dev", "--proc", "/proc"]
    if userns:
        # Inside, no user namespace can be made again: each one would be a new set of
        # capabilities over it, and a larger surface of the kernel.
        args += ["--unshare-user", "--disable-userns"]
    if not policy.allow_network:
        args.append("--unshare-net")
    args += ["--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"]
    # Root outside is root inside without a user namespace: every capability is dropped, so
    # mount, chroot, raw sockets and writes through a remount all fail.
    args += ["--cap-drop", "ALL"]
    args += ["--setenv", "TMPDIR", SANDBOX_TMP, "--chdir", str(roots[0])]
    return args


@dataclass(frozen=True)
class Confinement:
    """How one command is confined: bwrap and its options, its environment, its seccomp filter."""

    argv: tuple[str, ...]
    """bwrap and its options, up to (not including) `--`."""
    env: Mapping[str, str]
    seccomp: bytes
    absent: tuple[Path, ...]
    """Protected entries missing when the command starts (it could create them)."""
    links: tuple[tuple[Path, str], ...] = ()
    """Protected entries that are symbolic links (unmountable), and where each points."""
    indexes: tuple[WatchedIndex, ...] = ()
    """The workspace repositories' indexes, whose new gitlinks are submodules it made."""
    protected: frozenset[Path] = frozenset()
    """The protected entries there as it starts (read-only, or watched links)."""
    limits: tuple[str, ...] = ()
    """`ulimit` options for the command: `-u N` (processes), `-v KiB` (address space)."""
    watch_processes: int | None = None
    """The process limit tether enforces itself by counting, where the kernel would not
    (root is exempt from `RLIMIT_NPROC`)."""


def confinement(
    bwrap: Bwrap,
    policy: SandboxPolicy,
    roots: Sequence[Path],
    environ: Mapping[str, str] | None = None,
) -> Confinement:
    """The confinement of a command starting now in the workspace `roots` (its cwd first);
    what exists decides what is mounted."""
    # Loaded with a command that runs confined, not with a policy's label (a replay's cards).
    from tether.sandbox.environment import sandbox_environment
    from tether.sandbox.gitindex import watch_indexes

    assert bwrap.path is not None and bwrap.works, "only a working bwrap confines"
    writable = policy.mode == "workspace-write"
    found = (*protected_paths(roots), *_present(policy.protected)) if writable else ()
    protected, links = linked(found, roots)
    options = bwrap_arguments(
        policy,
        roots,
        userns=bwrap.userns,
        hidden=hidden_paths(Path.home(), data_dir()),
        protected=protected if writable else (),
        pinned=_between(roots, protected) if writable else (),
    )
    limits: list[str] = []
    if policy.max_processes is not None:
        limits += ["-u", str(policy.max_processes)]
    if policy.memory_mib is not None:
        limits += ["-v", str(policy.memory_mib * 1024)]
    root = os.geteuid() == 0
    return Confinement(
        argv=(bwrap.path, *options),
        env=sandbox_environment(os.environ if environ is None else environ, policy.env),
        seccomp=bwrap.seccomp,
        absent=(*absent_protected(roots), *_missing(policy.protected)) if writable else (),
        links=links,
        indexes=watch_indexes(roots, protected) if writable else (),
        protected=frozenset(found),
        limits=tuple(limits),
        watch_processes=policy.max_processes if root else None,
    )


def _present(paths: Sequence[Path]) -> tuple[Path, ...]:
    # A folder is never bound read-only whole: only the files in it that hooks run.
    return tuple(p for p in paths if os.path.lexists(p) and not os.path.isdir(p))


def _missing(paths: Sequence[Path]) -> tuple[Path, ...]:
    return tuple(p for p in paths if not os.path.lexists(p))


def _between(roots: Sequence[Path], files: Sequence[Path]) -> tuple[Path, ...]:
    """The directories from a root down to each of `files` (the root left out), outermost
    first: pinned, they keep the files where the hooks look for them."""
    found: dict[Path, None] = {}
    for file in files:
        root = next((r for r in roots if file.is_relative_to(r)), None)
        if root is None:
            continue
        for parent in reversed(file.parents):
            if parent == root or not parent.is_relative_to(root):
                continue
            if parent.is_symlink():
                break  # a mount would land where it points: the rest cannot be pinned
            if parent.is_dir():
                found[parent] = None
    return tuple(found)
