"""Shared by the MCP tests: the sample server and the picture it answers with."""

from __future__ import annotations

from pathlib import Path

__all__ = ["PNG", "SAMPLE"]

SAMPLE = Path(__file__).with_name("sample_server.py")
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)
"""The picture `sample_server.py` answers with (importing the script would build its server)."""
