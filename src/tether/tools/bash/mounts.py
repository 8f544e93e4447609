"""What a sandboxed command sees of the filesystem, as bwrap mount options.

Everything is read-only (`/` bound read-only), then: a private `/tmp` of bounded size; the
workspace roots bound writable (`workspace-write`) or read-only; inside them the protected
entries (`tether.tools.protected`) bound read-only again, so a command cannot plant a git
hook or an MCP server that would later run outside the sandbox; and tether's data directory
and the usual credential stores hidden under empty read-only mounts.

Protected and hidden paths are mounted only where they exist when the command starts: a
mount needs a place to stand, and making one would leave empty files and directories in the
workspace. Protected entries a command creates are named in its result instead.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.bounded import UnreadableFile, read_bounded_text
from tether.tools.protected import PROTECTED_ENTRIES

__all__ = [
    "CREDENTIAL_PATHS",
    "SANDBOX_TMP",
    "Hidden",
    "absent_protected",
    "hidden_paths",
    "mount_arguments",
    "protected_paths",
]

SANDBOX_TMP = "/tmp"
"""The sandbox's private, writable temporary directory (also its `TMPDIR`)."""

CREDENTIAL_PATHS = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".docker",
    ".kube",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
)
"""Under the home directory: where keys and tokens are kept; hidden from the sandbox."""

_GIT_INSIDE = ("hooks", "config")
"""What git runs from inside a git directory."""


@dataclass(frozen=True)
class Hidden:
    """A path the sandbox sees empty: a directory under an empty tmpfs, a file as /dev/null."""

    path: Path
    directory: bool

    def arguments(self) -> list[str]:
        """The bwrap options that hide it."""
        where = str(self.path)
        if self.directory:
            return ["--tmpfs", where, "--remount-ro", where]
        return ["--ro-bind", "/dev/null", where]


def hidden_paths(home: Path, data: Path) -> tuple[Hidden, ...]:
    """The credential stores under `home` and tether's `data` directory that exist now."""
    found: list[Hidden] = []
    for path in (*(home / p for p in CREDENTIAL_PATHS), data):
        try:
            # Resolved: bwrap mounts at a path without following its symlinks.
            real = path.resolve(strict=True)
            found.append(Hidden(real, real.is_dir()))
        except (OSError, RuntimeError):
            continue  # not there (or a loop): nothing to hide
    return tuple(found)


def protected_paths(roots: Sequence[Path]) -> tuple[Path, ...]:
    """The protected entries of each root that exist now, to be bound read-only."""
    found: list[Path] = []
    for root in roots:
        for name in PROTECTED_ENTRIES:
            entry = root / name
            if not os.path.lexists(entry):
                continue
            if name != ".git" or not entry.is_dir():
                found.append(entry)  # a `.git` file points git at its directory: kept as is
            for git_dir in _git_dirs(entry, roots):
                found += [git_dir / n for n in _GIT_INSIDE if os.path.lexists(git_dir / n)]
    return tuple(dict.fromkeys(found))


def absent_protected(roots: Sequence[Path]) -> tuple[Path, ...]:
    """The protected entries a command could create (unprotected until they exist)."""
    absent = [root / name for root in roots for name in PROTECTED_ENTRIES]
    for root in roots:
        git = root / ".git"
        if git.is_dir() and not git.is_symlink():
            absent += [git / n for n in _GIT_INSIDE]
    return tuple(p for p in absent if not os.path.lexists(p))


def _git_dirs(entry: Path, roots: Sequence[Path]) -> list[Path]:
    """The git directory a `.git` entry is or points to (`gitdir: PATH`), if it lies in a root.

    One outside every root is read-only in the sandbox already.
    """
    if entry.name != ".git":
        return []
    if entry.is_dir():
        target = entry
    else:
        try:
            text = read_bounded_text(entry, limit=4096)
        except (OSError, UnreadableFile):
            return []
        if not text.startswith("gitdir: "):
            return []
        target = entry.parent / text[len("gitdir: ") :].rstrip("\r\n")
    try:
        target = target.resolve()
    except (OSError, RuntimeError, ValueError):
        return []
    inside = any(target == r or target.is_relative_to(r) for r in roots)
    return [target] if inside and target.is_dir() else []


def mount_arguments(
    roots: Sequence[Path],
    *,
    writable: bool,
    tmp_bytes: int,
    hidden: Sequence[Hidden] = (),
    protected: Sequence[Path] = (),
    pinned: Sequence[Path] = (),
) -> list[str]:
    """The bwrap mount options, in the order that makes each one stand.

    `pinned`: directories in a root bound onto themselves, writable, so that a protected
    file deeper than a root's top cannot be moved aside with its directory (a mount point
    cannot be renamed or removed)."""
    args = ["--ro-bind", "/", "/", "--size", str(tmp_bytes), "--tmpfs", SANDBOX_TMP]

    def holds_a_root(h: Hidden) -> bool:
        return any(r.is_relative_to(h.path) for r in roots)

    # A workspace the user chose inside a hidden directory stays visible: what holds it is
    # hidden first and the workspace bound over it; a hidden path that is a root is not hidden.
    hidden = [h for h in hidden if h.path not in roots]
    for h in hidden:
        if holds_a_root(h):
            args += h.arguments()
    # `-try`: a root removed since the session began is skipped rather than failing the call.
    # After the private /tmp, so that a workspace under /tmp is bound over it, not hidden.
    bind = "--bind-try" if writable else "--ro-bind-try"
    for root in roots:
        args += [bind, str(root), str(root)]
    if writable:
        for path in pinned:
            args += ["--bind-try", str(path), str(path)]
    for path in protected:
        args += ["--ro-bind-try", str(path), str(path)]
    for h in hidden:
        if not holds_a_root(h):
            args += h.arguments()
    return args
