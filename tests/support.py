"""Shared by the tests of hostile files: the kinds of file a workspace can plant, made."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["KINDS", "make", "within"]

KINDS = ["dev-zero", "dev-stdin", "fifo", "huge"]


def make(path: Path, kind: str, size: int = 2 * 1024 * 1024) -> None:
    """Put a hostile file of `kind` at `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    match kind:
        case "dev-zero":
            path.symlink_to("/dev/zero")
        case "dev-stdin":
            path.symlink_to("/dev/stdin")
        case "fifo":
            os.mkfifo(path)
        case "deep":
            path.write_text("[" * 100_000)
        case _:
            path.write_text("x" * size)


def within(call: Callable[[], object]) -> object:
    """Run `call` in a thread, failing if it blocks: a FIFO read would never return."""

    async def bounded() -> object:
        return await asyncio.wait_for(asyncio.to_thread(call), 30)

    return asyncio.run(bounded())
