"""Opening exactly the path the policy checked: no symlink is followed on the way there.

The policy resolves a path (symlinks followed) and checks where it lands; a tool that then
opened the *name* again could be sent elsewhere by a symlink swapped in meanwhile. Instead
the resolved path, which has no symlinks left, is walked from the workspace root that
contains it (or from `/` for a path approved outside), one component at a time with
`O_NOFOLLOW`. A component that has become a symlink is refused, never followed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from tether.errors import ToolError

__all__ = ["open_dir", "open_file", "opened_dir", "opener_below", "swapped_message"]

_WALK = os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_PATH
"""A directory on the way: only to walk on from (no read permission needed)."""


def swapped_message(path: Path, name: str) -> str:
    """The refusal when a component of a checked path has become a symbolic link."""
    return f"{path} changed while it was being opened ({name} is now a symbolic link); try again"


def open_dir(path: Path, roots: Sequence[Path] = (), *, create: bool = False) -> int:
    """A descriptor (`O_PATH`) of directory `path`, resolved and absolute; `create` makes it.

    Raises `ToolError` when a component is a symbolic link, `OSError` as `os.open` would
    otherwise (a missing component, one that is a file).
    """
    root, parts = _anchor(path, roots)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the root is trusted
    try:
        for name in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, dir_fd=fd)
            step = _open_at(fd, name, _WALK, path)
            os.close(fd)
            fd = step
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def opened_dir(path: Path, roots: Sequence[Path] = (), *, create: bool = False) -> Iterator[int]:
    """`open_dir` as a context that closes the descriptor."""
    fd = open_dir(path, roots, create=create)
    try:
        yield fd
    finally:
        os.close(fd)


def open_file(path: Path, flags: int, roots: Sequence[Path] = ()) -> int:
    """`os.open(path, flags)` for a resolved path, following no symlink (see `open_dir`)."""
    with opened_dir(path.parent, roots) as parent:
        return _open_at(parent, path.name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, path)


def opener_below(roots: Sequence[Path]) -> Callable[[Path, int], int]:
    """An `os.open` for resolved paths inside `roots` that follows no symlink below them
    (`open_file`): for `tether.bounded`'s readers of a workspace's files."""

    def open_below(path: Path, flags: int) -> int:
        return open_file(path, flags, roots)

    return open_below


def _open_at(dir_fd: int, name: str, flags: int, path: Path) -> int:
    try:
        return os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        # O_NOFOLLOW meets a symlink as ELOOP (or ENOTDIR where a directory was asked for).
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(dir_fd, name):
            raise ToolError(swapped_message(path, name)) from None
        raise


def _is_link(dir_fd: int, name: str) -> bool:
    link = False
    with contextlib.suppress(OSError):  # gone meanwhile: then it is no link either
        link = stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    return link


def _anchor(path: Path, roots: Sequence[Path]) -> tuple[Path, tuple[str, ...]]:
    """The outermost root holding `path` and the names below it; else `/` and all of them.

    Outermost: a root is opened by its name, trusted, so a root inside another (a directory
    added below the workspace) is reached through folders a command in the workspace may
    have swapped for links since the check; walked from the outer root, such a link is refused.
    """
    for root in sorted(roots, key=lambda r: len(r.parts)):
        if path.is_relative_to(root):
            return root, path.relative_to(root).parts
    return Path(path.anchor), path.parts[1:]
