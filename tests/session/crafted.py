"""Crafted session logs beside a good one: what an attacker (or a bad disk) leaves in
`$TETHER_HOME/sessions/`. Each must be named as unreadable while the good one lists."""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["CRAFTED", "plant"]

CRAFTED = {
    "header-list": "its first line is not a session header",
    "last-line-list": "",  # a torn-looking tail: listed, its time from the line before
    "title-object": "its title is not text",
    "created-number": "its header's createdAt is not a time",
    "id-number": "its header names the session 7",
    "id-other": "its header names the session 'someone-else'",
    "cwd-nul": "its header's cwd is not an absolute path",
    "cwd-relative": "its header's cwd is not an absolute path",
    "fifo": "not a regular file",
    "dev-zero": "not a regular file",
}
"""Each crafted log's name, and what the list says of it (empty: it lists)."""


def plant(sessions: Path, good: Path) -> None:
    """Write every crafted log into `sessions`, built from the good log `good`."""
    lines = good.read_text().splitlines()
    header = json.loads(lines[0])

    def write(name: str, head: object, *rest: str) -> None:
        body = [_compact(head), *rest]
        (sessions / f"{name}.jsonl").write_text("\n".join(body) + "\n")

    write("header-list", [1], *lines[1:])
    write("last-line-list", {**header, "id": "last-line-list"}, *lines[1:], "[1]")
    title = {"type": "session/title", "seq": 1, "time": header["createdAt"], "title": {"x": 1}}
    write("title-object", {**header, "id": "title-object"}, _compact(title))
    write("created-number", {**header, "id": "created-number", "createdAt": 5})
    write("id-number", {**header, "id": 7})
    write("id-other", {**header, "id": "someone-else"})
    write("cwd-nul", {**header, "id": "cwd-nul", "cwd": "/tmp/a\u0000b"})
    write("cwd-relative", {**header, "id": "cwd-relative", "cwd": "ws"})
    os.mkfifo(sessions / "fifo.jsonl")
    (sessions / "dev-zero.jsonl").symlink_to("/dev/zero")


def _compact(value: object) -> str:
    """As the log writes JSON: no spaces (the list finds lines by their first bytes)."""
    return json.dumps(value, separators=(",", ":"))
