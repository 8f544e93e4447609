"""The last steps shared by write and edit: permission, a final version check, the atomic write."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tether.errors import ToolError
from tether.tools.access import FileAccess
from tether.tools.context import ToolContext
from tether.tools.fs.atomic import atomic_write
from tether.tools.fs.change_checks import Verb, ensure_unchanged
from tether.tools.fs.change_diff import AppliedChange, change_view
from tether.tools.observations import FileVersion

__all__ = ["commit_change"]


async def commit_change(
    ctx: ToolContext,
    path: Path,
    data: bytes,
    before: FileVersion | None,
    verb: Verb,
    *,
    change: AppliedChange,
) -> None:
    """Ask the gate, check the file is still `before`, write `data` atomically, record it.

    Parent directories are created only once permission is granted. The new version is
    recorded as observed, so a follow-up edit needs no new read. `change`, the change worked
    out, is shown to whoever is asked (with its context and line numbers).
    """
    title = f"{verb.capitalize()} {path}"
    await ctx.authorize(
        FileAccess(
            action="edit",
            title=title,
            path=path,
            inside=ctx.workspace.contains(path),
            tool_call_id=ctx.tool_call_id,
            tool=verb,
            preview=change_view(change, verb.capitalize()),
        )
    )
    roots = ctx.workspace.roots
    import asyncio  # loaded with a call run, not with the card a replay shows

    version = await asyncio.to_thread(_write, path, data, before, verb, roots)
    ctx.observations.record(version)


def _write(
    path: Path, data: bytes, before: FileVersion | None, verb: Verb, roots: Sequence[Path]
) -> FileVersion:
    """Check, create the parents, replace the file; the version written."""
    ensure_unchanged(path, before, roots)
    try:
        return atomic_write(path, data, roots, make_parents=True)
    except OSError as exc:
        raise ToolError(f"Cannot {verb} {path}: {exc.strerror or exc}") from exc
