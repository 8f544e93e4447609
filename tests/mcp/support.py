"""Shared by the MCP tests: the sample server, the picture it answers with, a process gone."""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["PNG", "SAMPLE", "process_gone"]

SAMPLE = Path(__file__).with_name("sample_server.py")
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
"""The picture `sample_server.py` answers with (importing the script would build its server)."""


def process_gone(pid: int, within: float = 10.0) -> bool:
    """Whether process `pid` has exited (polled until `within` seconds pass)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False
