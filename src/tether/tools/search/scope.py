"""Where a search runs: the resolved path, asked for as a read, opened as it was checked.

The policy checks a resolved path; ripgrep started on that *name* would walk it again, and a
directory swapped for a symlink meanwhile would send it elsewhere. So the checked directory
is opened through `beneath.py` (no symlink followed on the way), ripgrep starts in
it through the descriptor (`/proc/self/fd/N` as its working directory, searching `.`), and a
single file is handed over the same way, as the descriptor of the file that was checked.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.beneath import open_dir, open_file
from tether.errors import ToolError
from tether.tools.access import FileAccess
from tether.tools.context import ToolContext
from tether.tools.search.preview import display_path

__all__ = ["Scope", "search_scope"]


def _fd_path(fd: int) -> str:
    return f"/proc/self/fd/{fd}"


@dataclass(frozen=True)
class Scope:
    """ripgrep runs in `root` (open as `root_fd`), on the file `target` (open as `target_fd`)
    when a single file was named, else on all of it."""

    root: Path
    target: str | None
    cwd: Path
    root_fd: int
    target_fd: int | None = None
    hidden: tuple[str, ...] = ()
    """Globs of what the rules forbid reading under `root`: left out of the search."""

    def exclusions(self) -> list[str]:
        """ripgrep's arguments that leave out what the rules forbid reading."""
        return [arg for glob in self.hidden for arg in ("--glob", f"!{glob}")]

    @property
    def here(self) -> Path:
        """The checked directory, as ripgrep's working directory (and for `stat`)."""
        return Path(_fd_path(self.root_fd))

    @property
    def fds(self) -> tuple[int, ...]:
        """The descriptors ripgrep must keep."""
        return (self.root_fd,) if self.target_fd is None else (self.root_fd, self.target_fd)

    def rg_target(self) -> list[str]:
        """What ripgrep searches: the file's descriptor, or (nothing given) its directory."""
        return [] if self.target_fd is None else ["--", _fd_path(self.target_fd)]

    def display(self, relative: bytes) -> str:
        """A path ripgrep printed, as the model sees it."""
        handed = self.target_fd is not None and relative == os.fsencode(_fd_path(self.target_fd))
        if handed and self.target is not None:
            relative = os.fsencode(self.target)
        return display_path(self.root, relative, self.cwd)


@contextlib.asynccontextmanager
async def search_scope(
    ctx: ToolContext, raw: str | None, *, files: bool, never_inside: Sequence[str] = ()
) -> AsyncIterator[Scope]:
    """Resolve `raw` (default: the workspace), authorize reading it, check it, open it.

    `files` says whether a single file may be searched (grep) or only a directory (glob);
    `never_inside` names directories (`.git`) the search may not start in or under, counted
    from the workspace root. Raises `ToolError` for a missing path, one of the wrong kind,
    and one swapped for a symlink since it was checked.
    """
    workspace = ctx.workspace
    resolved = workspace.cwd if raw is None else workspace.resolve(raw)
    await ctx.authorize(
        FileAccess(
            action="read",
            title=f"Search {resolved}",
            path=resolved,
            inside=workspace.contains(resolved),
            tool_call_id=ctx.tool_call_id,
            tool="grep" if files else "glob",
        )
    )
    if resolved.is_dir():
        root, target = resolved, None
    elif not resolved.exists():
        raise ToolError(f"Path not found: {raw}")
    elif not files:
        raise ToolError(f"Not a directory: {raw}")
    else:
        root, target = resolved.parent, resolved.name
    _refuse_inside(resolved, workspace.roots, never_inside)
    hidden = ctx.gate.hidden(root, "grep" if files else "glob") if target is None else ()
    with contextlib.ExitStack() as held:
        try:
            root_fd = open_dir(root, workspace.roots)
            held.callback(os.close, root_fd)
            target_fd = None
            if target is not None:
                flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY
                target_fd = open_file(resolved, flags, workspace.roots)
                held.callback(os.close, target_fd)
                if not stat.S_ISREG(os.fstat(target_fd).st_mode):
                    raise ToolError(f"Not a regular file: {raw}")
        except OSError as exc:
            raise ToolError(f"Cannot search {resolved}: {exc.strerror or exc}") from None
        yield Scope(root, target, workspace.cwd, root_fd, target_fd, hidden)


def _refuse_inside(path: Path, roots: Sequence[Path], names: Sequence[str]) -> None:
    if not names:
        return
    below = next((path.relative_to(r) for r in roots if path.is_relative_to(r)), path)
    for part in below.parts:
        if part in names:
            raise ToolError(f"{path} is inside {part}, which is never listed")
