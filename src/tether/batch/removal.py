"""Removing a task's workspace: only ever an entry strictly inside the batch's folder of them.

A task's workspace is `OUT/workspaces/ID`; what it holds was written by the model (links,
read-only folders, a tree deeper than a path may be long). The folder of workspaces is
resolved and opened with no link followed on the way (`beneath.py`), and the entry
is removed through that open folder, each folder below through its own descriptor: no name
is ever looked up again from the top, so no link swapped in meanwhile leads outside.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from tether.beneath import open_dir
from tether.errors import RemovalError, ToolError

__all__ = ["RemovalError", "remove_entry"]

_OPEN = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_entry(folder: Path, name: str) -> None:
    """Delete `name` in `folder` if it is there: a file, a link (never followed) or a whole
    tree, read-only folders included. `name` must be one plain path component."""
    if name in ("", ".", "..") or "/" in name or "\0" in name:
        raise RemovalError(f"not a name inside {folder}: {name!r}")
    try:
        fd = open_dir(folder.resolve())
    except FileNotFoundError:
        return  # no folder of workspaces yet: nothing in it to remove
    except (OSError, ToolError, RuntimeError) as exc:
        raise RemovalError(f"cannot open {folder}: {exc}") from exc
    try:
        _remove_at(fd, name)
    except OSError as exc:
        raise RemovalError(f"cannot remove {folder / name}: {exc}") from exc
    finally:
        os.close(fd)


def _remove_at(parent: int, name: str) -> None:
    """Remove `name` in the folder `parent`, depth first, one descriptor per level."""
    if not _is_dir(parent, name):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=parent)
        return
    # (the folder's parent, its name, its descriptor, the names in it not removed yet)
    frames = [(parent, name, *_opened(parent, name))]
    while frames:
        above, here, fd, left = frames[-1]
        if left:
            entry = left.pop()
            if _is_dir(fd, entry):
                frames.append((fd, entry, *_opened(fd, entry)))
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry, dir_fd=fd)
            continue
        frames.pop()
        os.close(fd)
        os.rmdir(here, dir_fd=above)


def _is_dir(parent: int, name: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def _opened(parent: int, name: str) -> tuple[int, list[str]]:
    """Folder `name` opened (made ours to empty first: a task may leave one read-only or
    closed) and the names in it."""
    try:
        fd = os.open(name, _OPEN, dir_fd=parent)
    except PermissionError:
        _open_up(parent, name)
        fd = os.open(name, _OPEN, dir_fd=parent)
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) & stat.S_IRWXU != stat.S_IRWXU:
            os.fchmod(fd, stat.S_IRWXU)  # emptied next: its entries must be removable
        return fd, os.listdir(fd)
    except BaseException:
        os.close(fd)
        raise


def _open_up(parent: int, name: str) -> None:
    """Give folder `name` (not a link: opened without following one) its owner's rights."""
    fd = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
    try:
        # An O_PATH descriptor takes no fchmod; its /proc entry is the folder itself.
        os.chmod(f"/proc/self/fd/{fd}", stat.S_IRWXU)
    finally:
        os.close(fd)
