"""Text from ripgrep's JSON: paths and line previews, cut on a UTF-8 boundary."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

from tether.tools.fs.read_window import TRUNCATION_SUFFIX

__all__ = ["PREVIEW_BYTES", "display_path", "json_text", "preview"]

PREVIEW_BYTES = 2000
"""Bytes of a matching line shown; the rest is replaced by the read tool's suffix."""


def json_text(data: Any) -> bytes:
    """The bytes of ripgrep's `{"text": ...}` or `{"bytes": base64}` (for non-UTF-8 data)."""
    if isinstance(data, dict):
        if isinstance(text := data.get("text"), str):
            return text.encode("utf-8", "surrogatepass")
        if isinstance(raw := data.get("bytes"), str):
            return base64.b64decode(raw)
    raise ValueError(f"not ripgrep text: {data!r}")


def preview(line: bytes) -> str:
    """One matching line without its line ending, at most `PREVIEW_BYTES` bytes of it."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) <= PREVIEW_BYTES:
        return line.decode("utf-8", "replace")
    end = PREVIEW_BYTES
    # Back off over continuation bytes so the cut never splits a character.
    while end > 0 and line[end] & 0xC0 == 0x80:
        end -= 1
    return line[:end].decode("utf-8", "replace") + TRUNCATION_SUFFIX


def display_path(root: Path, relative: bytes, cwd: Path) -> str:
    """A path ripgrep printed relative to `root`, as the model should see it.

    Relative to the workspace's cwd when it lies inside it, else absolute.
    """
    path = os.path.join(root, os.fsdecode(relative))
    if path == str(cwd) or path.startswith(str(cwd).rstrip(os.sep) + os.sep):
        return os.path.relpath(path, cwd)
    return os.path.normpath(path)
