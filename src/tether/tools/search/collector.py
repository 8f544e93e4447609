"""A search's ripgrep run, the same for `grep`, `glob` and `ls`: lines to a collector, errors
raised; and the one way files are listed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tether.errors import ToolError
from tether.tools.context import ToolContext
from tether.tools.search.rg import RgRun, run_rg
from tether.tools.search.scope import Scope
from tether.tools.search.vcs import VCS_DIRS

__all__ = ["LISTING_MAX_BYTES", "Collector", "collect", "list_files"]

LISTING_MAX_BYTES = 256 << 20
"""Listing read before the search is stopped (millions of paths)."""
_MAX_PATH_BYTES = 1 << 16


class Collector(Protocol):
    """What folds ripgrep's output into a result: grep's matches, glob's paths."""

    def feed(self, line: bytes) -> None:
        """Take one line of ripgrep's output."""
        ...

    def ended(self, run: RgRun) -> bool:
        """Close after the run (not cancelled); `False` when ripgrep failed to search at all."""
        ...


async def collect(
    ctx: ToolContext,
    scope: Scope,
    rg_args: Sequence[str],
    collector: Collector,
    *,
    max_bytes: int,
    max_line_bytes: int,
    separator: bytes = b"\n",
) -> RgRun:
    """Run `rg RG_ARGS` in the scope's root (its descriptor), every line to `collector`; how
    the run ended.

    Raises `ToolError`: `Search cancelled`, or `ripgrep failed: ...` with what ripgrep said
    (else its exit code) when the collector says it did not search.
    """
    run = await run_rg(
        rg_args,
        scope.here,
        pass_fds=scope.fds,
        on_line=collector.feed,
        cancelled=ctx.cancelled,
        max_bytes=max_bytes,
        max_line_bytes=max_line_bytes,
        separator=separator,
    )
    if run.stopped == "cancelled":
        raise ToolError("Search cancelled")
    if not collector.ended(run):
        raise ToolError(f"ripgrep failed: {run.stderr or f'exit code {run.returncode}'}")
    return run


async def list_files(
    ctx: ToolContext,
    scope: Scope,
    collector: Collector,
    *,
    include_ignored: bool = False,
    excluded: Sequence[str] = (),
) -> RgRun:
    """The files under the scope's root to `collector` (`rg --files`): hidden ones too,
    version-control stores never; ignored ones when `include_ignored`; `excluded` globs not."""
    rg_args = [
        "--files",
        "--null",
        "--no-config",
        "--hidden",
        "--no-ignore" if include_ignored else "--no-require-git",
        *(arg for glob in (*VCS_DIRS, *excluded) for arg in ("--glob", f"!{glob}")),
        *scope.exclusions(),
    ]
    return await collect(
        ctx,
        scope,
        rg_args,
        collector,
        max_bytes=LISTING_MAX_BYTES,
        max_line_bytes=_MAX_PATH_BYTES,
        separator=b"\0",
    )
