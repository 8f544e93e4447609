"""Where a search runs: the resolved path, asked for as a read, and the directory rg starts in."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tether.tools.access import FileAccess
from tether.tools.context import ToolContext
from tether.tools.errors import ToolError
from tether.tools.search.preview import display_path

__all__ = ["Scope", "search_scope"]


@dataclass(frozen=True)
class Scope:
    """ripgrep runs in `root`, on `target` when a single file was named (else on all of it)."""

    root: Path
    target: str | None
    cwd: Path

    def display(self, relative: bytes) -> str:
        """A path ripgrep printed, as the model sees it."""
        return display_path(self.root, relative, self.cwd)


async def search_scope(ctx: ToolContext, raw: str | None, *, files: bool) -> Scope:
    """Resolve `raw` (default: the workspace), authorize reading it, and check it exists.

    `files` says whether a single file may be searched (grep) or only a directory (glob).
    """
    resolved = ctx.workspace.cwd if raw is None else ctx.workspace.resolve(raw)
    await ctx.gate.authorize(
        FileAccess(
            action="read",
            title=f"Search {resolved}",
            path=resolved,
            inside=ctx.workspace.contains(resolved),
            tool_call_id=ctx.tool_call_id,
            tool="grep" if files else "glob",
        )
    )
    if resolved.is_dir():
        return Scope(resolved, None, ctx.workspace.cwd)
    if not resolved.exists():
        raise ToolError(f"Path not found: {raw}")
    if not files:
        raise ToolError(f"Not a directory: {raw}")
    return Scope(resolved.parent, resolved.name, ctx.workspace.cwd)
