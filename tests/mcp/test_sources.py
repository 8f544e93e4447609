"""Where servers come from, when the files are hostile: a notice, never a hang or a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tether.mcp import gather


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("dev-zero", "not a regular file (a device)"),
        ("dev-stdin", "not a regular file"),
        ("fifo", "not a regular file (a FIFO)"),
        ("deep", "not valid JSON"),
        ("huge", "more than the 1048576 allowed"),
        ("not-utf8", "not UTF-8 text"),
    ],
)
def test_a_hostile_project_file_is_a_notice(ws: Path, tmp_path: Path, kind: str, said: str) -> None:
    path = ws / ".mcp.json"
    match kind:
        case "dev-zero":
            path.symlink_to("/dev/zero")
        case "dev-stdin":
            path.symlink_to("/dev/stdin")
        case "fifo":
            os.mkfifo(path)
        case "deep":
            path.write_text('{"mcpServers": ' + "[" * 100_000)
        case "huge":
            path.write_text(" " * (1024 * 1024 + 1))
        case _:
            path.write_bytes(b'{"mcpServers": {"\xff": {}}}')
    sources = gather(ws, tmp_path / "home")
    assert sources.project == []
    [notice] = sources.notices
    assert str(path) in notice and said in notice, notice
