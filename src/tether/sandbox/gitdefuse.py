"""Disarming what a sandboxed command planted in a git directory it created.

The sandbox keeps a git directory's hooks and config read-only only when they exist as the
command starts. In one the command made (`git init`, a repository of its own added as a
submodule) it could write a hook or a config key naming a program, which the person's next
`git commit` or `git status` would run outside the sandbox. Afterwards, in each such
directory, every hook is renamed aside with its executable bit cleared and every config key
not on a short list of keys known to run nothing is removed (`gitdefuse_keys`); git itself
keeps working. The repositories a fresh one records as submodules (gitlinks in its index
over a `.git` of the command's) are disarmed alike: the person's `git status` runs a status
in each. Nothing on the way is followed through a symbolic link: a `hooks` or `config` that
is one is renamed aside itself.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import JsonValue

from tether.beneath import opened_dir
from tether.errors import ToolError
from tether.gitenv import find_git, isolated_environment
from tether.sandbox.gitdefuse_keys import kept_key
from tether.sandbox.gitindex import gitlinks
from tether.sandbox.mounts import git_dirs

__all__ = ["DISABLED_SUFFIX", "GIT_TIMEOUT", "Defused", "defuse"]

DISABLED_SUFFIX = ".disabled"
"""Appended to a hook (or a linked `hooks`, a `config` git cannot edit) set aside."""
GIT_TIMEOUT = 10.0
"""Seconds one `git config` may take before the config is set aside instead."""
_MAX_HOOKS = 1000
"""Entries of one `hooks` directory handled; a larger one is set aside whole."""
_MAX_MODULES = 200
"""Nested git directories (`modules/…`, `worktrees/…`) visited under one new one."""
_CONFIGS = ("config", "config.worktree")
_MAX_KEYS = 256
"""Keys removed from one config one by one; past that the config is set aside whole."""


@dataclass(frozen=True)
class Defused:
    """One thing set aside: a hook (or `hooks`, `config`) renamed, or a config key removed."""

    kind: Literal["hook", "key", "file"]
    path: str
    """The hook or config file (for `file`: the entry renamed aside)."""
    detail: str = ""
    """`hook`, `file`: what it was renamed to; `key`: the key removed."""

    def meta(self) -> dict[str, JsonValue]:
        """The plain-JSON form stored in a bash card's `disabledOnCreate`."""
        match self.kind:
            case "key":
                return {"path": self.path, "key": self.detail}
            case "hook" | "file":
                return {"path": self.path, "renamedTo": self.detail}

    def describe(self) -> str:
        """`…/.git/hooks/pre-commit (renamed to pre-commit.disabled)`, `core.fsmonitor in …`."""
        if self.kind == "key":
            return f"{self.detail} in {self.path}"
        return f"{self.path} (renamed to {Path(self.detail).name})"


def defuse(
    created: Sequence[Path], roots: Sequence[Path], protected: Collection[Path]
) -> tuple[Defused, ...]:
    """Disarm the git directories among `created` (what a command made of the protected
    entries); `protected` were read-only while it ran, so what they hold is left alone."""
    done: list[Defused] = []
    seen: set[Path] = set()
    fresh = set(created)
    pending = list(dict.fromkeys(created))

    def writable(path: Path) -> bool:
        return path in fresh or path not in protected

    while pending:
        entry = pending.pop(0)
        if entry.name == ".git":
            for git_dir in git_dirs(entry, roots):
                for inner in _nested(git_dir, roots):
                    if inner not in seen:
                        seen.add(inner)
                        names = [n for n in ("hooks", *_CONFIGS) if writable(inner / n)]
                        done += _defuse_dir(inner, roots, names)
                # Its submodules: the person's `git status` here runs a status in each.
                for sub in _submodule_gits(entry.parent, git_dir):
                    if sub not in fresh and len(fresh) < _MAX_MODULES:
                        fresh.add(sub)
                        pending.append(sub)
        elif entry.name in ("hooks", *_CONFIGS) and entry.parent not in seen:
            done += _defuse_dir(entry.parent, roots, [entry.name])
    return tuple(done)


def _submodule_gits(tree: Path, git_dir: Path) -> list[Path]:
    """The `.git` of each gitlink `git_dir`'s index records in work tree `tree`, when there."""
    found = []
    for path in gitlinks(git_dir / "index"):
        entry = Path(os.path.normpath(tree / path / ".git"))
        if entry.is_relative_to(tree) and os.path.lexists(entry):
            found.append(entry)  # `git_dirs` keeps it only when it leads into a root
    return found


def _nested(git_dir: Path, roots: Sequence[Path]) -> list[Path]:
    """`git_dir` and the git directories below it: its submodules' and worktrees'."""
    found = [git_dir]
    queue = [git_dir / "modules", git_dir / "worktrees"]
    while queue and len(found) < _MAX_MODULES:
        folder = queue.pop()
        try:
            with opened_dir(folder.parent, roots) as parent, _opened(parent, folder.name) as fd:
                names = sorted(os.listdir(fd))
        except (OSError, ToolError):
            continue
        for name in names[:_MAX_MODULES]:
            path = folder / name
            if not path.is_dir() or path.is_symlink():
                continue
            if (path / "HEAD").exists() or (path / "gitdir").exists():
                found.append(path)
                queue.append(path / "modules")
            else:
                queue.append(path)  # a submodule named `a/b` lives in `modules/a/b`
    return found


def _defuse_dir(git_dir: Path, roots: Sequence[Path], names: Sequence[str]) -> list[Defused]:
    """Set aside the hooks and program keys of `names` (`hooks`, `config`...) in `git_dir`."""
    done: list[Defused] = []
    try:
        with opened_dir(git_dir, roots) as fd:
            for name in names:
                with contextlib.suppress(OSError):  # gone meanwhile, or not ours to rename
                    if name == "hooks":
                        _defuse_hooks(fd, git_dir / name, done)
                    else:
                        _defuse_config(fd, git_dir / name, roots, done)
    except (OSError, ToolError):
        pass  # gone, or a link now: a `.git` reached through a link is not git's to run
    return done


def _defuse_hooks(dir_fd: int, hooks: Path, done: list[Defused]) -> None:
    """Rename aside every hook in `hooks` (appended to `done` as each is)."""
    info = os.stat(hooks.name, dir_fd=dir_fd, follow_symlinks=False)
    if not stat.S_ISDIR(info.st_mode):
        # A link would lead git to hooks anywhere; a file holds none (left as it is).
        if stat.S_ISLNK(info.st_mode):
            done.append(_aside(dir_fd, hooks, "file"))
        return
    with _opened(dir_fd, hooks.name) as fd:
        names = sorted(os.listdir(fd))
        if len(names) > _MAX_HOOKS:
            done.append(_aside(dir_fd, hooks, "file"))
            return
        for name in names:
            if name.endswith(".sample") and _regular(fd, name):
                continue  # git never runs a `*.sample`: `git init` writes them as examples
            done.append(_aside(fd, hooks / name, "hook"))


def _regular(dir_fd: int, name: str) -> bool:
    with contextlib.suppress(OSError):
        return stat.S_ISREG(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    return False


@contextlib.contextmanager
def _opened(dir_fd: int, name: str) -> Iterator[int]:
    fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        yield fd
    finally:
        os.close(fd)


def _aside(dir_fd: int, path: Path, kind: Literal["hook", "file"]) -> Defused:
    """Rename `path` (in `dir_fd`) to a free `NAME.disabled`, its executable bits cleared."""
    target = _free_name(dir_fd, path.name + DISABLED_SUFFIX)
    os.rename(path.name, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    _not_executable(dir_fd, target)
    return Defused(kind, str(path), str(path.with_name(target)))


def _free_name(dir_fd: int, name: str) -> str:
    for n in range(_MAX_HOOKS):
        candidate = name if n == 0 else f"{name}.{n}"
        try:
            os.stat(candidate, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return candidate
    raise OSError(f"no free name for {name}")


def _not_executable(dir_fd: int, name: str) -> None:
    """Clear the executable bits of regular file `name`, through no link."""
    try:
        fd = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            # An O_PATH descriptor takes no fchmod; its /proc entry is the file itself.
            os.chmod(f"/proc/self/fd/{fd}", stat.S_IMODE(info.st_mode) & ~0o111)
    except OSError:
        pass  # renamed already: git runs only hooks by their own names
    finally:
        os.close(fd)


def _defuse_config(dir_fd: int, config: Path, roots: Sequence[Path], done: list[Defused]) -> None:
    """Remove the keys of `config` not known to run nothing, and a work tree outside every
    root (appended to `done` as each is)."""
    info = os.stat(config.name, dir_fd=dir_fd, follow_symlinks=False)
    if not stat.S_ISREG(info.st_mode):
        # git would edit (and read) where a link points; a FIFO or folder is no config.
        done.append(_aside(dir_fd, config, "file"))
        return
    git = find_git()
    listed = _git_config(git, dir_fd, config.name, "--null", "--list") if git else None
    if git is None or listed is None:
        done.append(_aside(dir_fd, config, "file"))  # unreadable to us, so unchecked: aside
        return
    keys: dict[str, None] = {}
    for item in listed.split("\0"):
        key, _, value = item.partition("\n")
        if key and not (kept_key(key, value) and _tree_inside(key, value, config.parent, roots)):
            keys[key] = None
    if len(keys) > _MAX_KEYS:
        done.append(_aside(dir_fd, config, "file"))
        return
    for key in keys:
        if _git_config(git, dir_fd, config.name, "--unset-all", key) is None:
            done.append(_aside(dir_fd, config, "file"))
            return
        done.append(Defused("key", str(config), key))


def _tree_inside(key: str, value: str, git_dir: Path, roots: Sequence[Path]) -> bool:
    """Whether `key` is no work tree, or one inside a root: a `core.worktree` elsewhere
    (a home folder) would have the person's `git checkout` write there."""
    if key.lower() != "core.worktree":
        return True
    tree = Path(os.path.realpath(git_dir / value))  # as git finds it, links followed
    return any(tree == r or tree.is_relative_to(r) for r in roots)


def _git_config(git: str, dir_fd: int, name: str, *args: str) -> str | None:
    """`git config --file NAME --no-includes ARGS` in directory `dir_fd`: its output, or
    `None` when it failed or took too long."""
    # The child reaches the file through the open directory: no path component is reread.
    path = f"/proc/self/fd/{dir_fd}/{name}"
    try:
        done = subprocess.run(
            [git, "config", "--file", path, "--no-includes", *args],
            capture_output=True,
            env=isolated_environment(),
            pass_fds=(dir_fd,),
            timeout=GIT_TIMEOUT,
            process_group=0,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode(errors="surrogateescape")
