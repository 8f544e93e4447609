"""What a sandboxed command sees of the filesystem, as bwrap mount options.

Everything is read-only (`/` bound read-only), then: a private `/tmp` of bounded size; the
workspace roots bound writable (`workspace-write`) or read-only; inside them the protected
entries (`tether.sandbox.protected`) bound read-only again, so a command cannot plant a git
hook or an MCP server that would later run outside the sandbox; and tether's data directory
and the usual credential stores hidden under empty read-only mounts. In a git directory the
hooks and config are protected, its submodules' (`modules/…`) and linked worktrees'
(`worktrees/…`) too, and the directories down to them are pinned (bound onto themselves), so
that `.git` cannot be moved aside and a new one with a config of the command's put there.

Protected and hidden paths are mounted only where they exist when the command starts: a
mount needs a place to stand, and making one would leave empty files and directories in the
workspace. Protected entries a command creates are named in its result instead.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.bounded import read_bounded_text
from tether.errors import UnreadableFile
from tether.lazy import pattern
from tether.sandbox.protected import PROTECTED_ENTRIES

__all__ = [
    "CREDENTIAL_PATHS",
    "SANDBOX_TMP",
    "Hidden",
    "absent_protected",
    "git_dirs",
    "hidden_paths",
    "linked",
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

_GIT_INSIDE = ("hooks", "config", "config.worktree")
"""What git runs from inside a git directory."""

_WORKTREE_LINKS = ("commondir", "gitdir", "config.worktree")
"""In a linked worktree's private git directory (`worktrees/NAME`): where its config is."""

_MAX_GIT_DIRS = 256
"""Submodule and worktree git directories looked at under one repository's `.git`."""

_MAX_GITMODULES = 256 * 1024
_SUBMODULE_PATH = pattern(r"^[ \t]*path[ \t]*=(.*)$", re.MULTILINE | re.IGNORECASE)
"""A `path = lib/x` line of `.gitmodules`."""


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
    """The protected entries of each root that exist now, to be bound read-only (those that
    are symbolic links cannot be: see `linked`)."""
    found: list[Path] = []
    for root in roots:
        # A submodule's `.git` too: the person's `git status` runs a status in it, with
        # the config its `.git` names.
        submodules = [root / path / ".git" for path in _submodule_paths(root)]
        for entry in (*(root / name for name in PROTECTED_ENTRIES), *submodules):
            if not os.path.lexists(entry):
                continue
            if entry.name != ".git" or not entry.is_dir() or entry.is_symlink():
                found.append(entry)  # a `.git` file points git at its directory: kept as is
            for git_dir in git_dirs(entry, roots):
                found += _git_inside(git_dir, roots)
    return tuple(dict.fromkeys(found))


def linked(
    paths: Sequence[Path], roots: Sequence[Path]
) -> tuple[tuple[Path, ...], tuple[tuple[Path, str], ...]]:
    """`paths` to mount read-only, and the symbolic links among them with where each points.

    A mount onto a symbolic link would land where it points (bwrap refuses one that points
    outside), and a link in a writable folder can be replaced whatever is mounted where it
    points: a link is watched, to be named in the result when a command changed it, and
    where it points is mounted instead when that lies in a root (outside, it is read-only).
    """
    plain: list[Path] = []
    links: list[tuple[Path, str]] = []
    for path in paths:
        try:
            links.append((path, os.readlink(path)))
        except OSError:
            plain.append(path)  # not a link (or gone: `-try` mounts skip it)
            continue
        real = _real_inside(path, roots)
        if real != path and real not in roots and os.path.exists(real):
            plain.append(real)  # (a link to a root itself would make the root read-only)
    return tuple(dict.fromkeys(plain)), tuple(links)


def _submodule_paths(root: Path) -> list[str]:
    """The submodule folders `root/.gitmodules` names, those with no symlink on the way."""
    try:
        text = read_bounded_text(root / ".gitmodules", limit=_MAX_GITMODULES)
    except (OSError, UnreadableFile):
        return []
    paths = []
    for match in _SUBMODULE_PATH.finditer(text):
        path = match.group(1).strip().strip('"')
        folder = os.path.normpath(root / path)
        if folder.startswith(f"{root}{os.sep}") and os.path.realpath(folder) == folder:
            paths.append(os.path.relpath(folder, root))
    return paths[:_MAX_GIT_DIRS]


def _git_inside(git_dir: Path, roots: Sequence[Path]) -> list[Path]:
    """What git runs from in `git_dir` and in the git directories it holds: its submodules'
    (`modules/NAME`, at any depth) and its linked worktrees' (`worktrees/NAME`)."""
    found: list[Path] = []
    pending = [git_dir]
    seen = 0
    while pending and seen < _MAX_GIT_DIRS:
        current = pending.pop()
        seen += 1
        found += [current / n for n in _GIT_INSIDE if os.path.lexists(current / n)]
        worktrees = _subdirectories(_real_inside(current / "worktrees", roots))
        for tree in worktrees[:_MAX_GIT_DIRS]:
            found += [tree / n for n in _WORKTREE_LINKS if os.path.lexists(tree / n)]
        pending += _module_dirs(_real_inside(current / "modules", roots))
    return found


def _real_inside(path: Path, roots: Sequence[Path]) -> Path:
    """`path` with its symbolic links resolved when that lands in a root (where a mount can
    stand on it); `path` itself otherwise (outside, it is read-only already)."""
    if not os.path.islink(path):
        return path
    real = Path(os.path.realpath(path))
    return real if any(real.is_relative_to(r) for r in roots) else path


def _module_dirs(modules: Path) -> list[Path]:
    """The submodule git directories under `modules` (a name may hold `/`: `a/b`)."""
    found: list[Path] = []
    pending = _subdirectories(modules)
    looked = 0
    while pending and looked < _MAX_GIT_DIRS:
        current = pending.pop()
        looked += 1
        if os.path.lexists(current / "HEAD"):
            found.append(current)
        else:
            pending += _subdirectories(current)[:_MAX_GIT_DIRS]
    return found


def _subdirectories(path: Path) -> list[Path]:
    """The folders in folder `path`; none when `path` is a symbolic link (never followed)."""
    if os.path.islink(path):
        return []
    try:
        with os.scandir(path) as entries:
            return [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


def absent_protected(roots: Sequence[Path]) -> tuple[Path, ...]:
    """The protected entries a command could create (unprotected until they exist)."""
    absent = [root / name for root in roots for name in PROTECTED_ENTRIES]
    absent += [root / path / ".git" for root in roots for path in _submodule_paths(root)]
    for root in roots:
        git = root / ".git"
        if git.is_dir() and not git.is_symlink():
            absent += [git / n for n in _GIT_INSIDE]
    return tuple(p for p in absent if not os.path.lexists(p))


def git_dirs(entry: Path, roots: Sequence[Path]) -> list[Path]:
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
