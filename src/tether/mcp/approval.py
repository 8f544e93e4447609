"""Project MCP servers start only once a person approved them for that workspace.

A workspace's `.mcp.json` runs commands of someone else's choosing (or of the model's: a
sandboxed command or an accepted edit can write it), so its servers need a yes first, in every
mode. The approval is kept in `$TETHER_HOME/mcp-approvals.json`, by workspace, as a
fingerprint of what would run: the servers as configured, and the content of every file their
command line names (`sh srv.sh`, `node ./server.js`, `--config=tools.json`), so a changed
script asks again just as a changed `.mcp.json` does. Directories named on the command line
are not fingerprinted; only whether they are there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, assert_never

from tether.bounded import read_bounded, read_bounded_json
from tether.errors import UnreadableFile
from tether.mcp.specs import HttpServer, McpSpec, SseServer, StdioServer
from tether.settings.locking import locked

__all__ = ["APPROVALS_FILE", "Approval", "Approvals", "fingerprint", "named_files"]

log = logging.getLogger(__name__)

APPROVALS_FILE = "mcp-approvals.json"
_HASHED_BYTES = 64 * 1024 * 1024
"""Files named on a command line are hashed up to this size; a larger one by size and time."""

Approval = Literal["approved", "changed", "new"]
"""Approved as they are now; approved once but changed since; never approved."""


def named_files(spec: McpSpec, workspace: Path) -> dict[str, str]:
    """What each word of a stdio server's command line names on disk, as a short record.

    Relative words are taken from `workspace` (where the server starts); `--flag=VALUE`
    names VALUE too. A word that names nothing is recorded as absent, so a file that appears
    there later changes the fingerprint.
    """
    if not isinstance(spec, StdioServer):
        return {}
    words = [spec.command, *spec.args]
    words += [w.split("=", 1)[1] for w in words if "=" in w]
    records: dict[str, str] = {}
    for word in words:
        if not word or "\0" in word or word in records:
            continue
        records[word] = _describe(workspace / os.path.expanduser(word))
    return records


def _describe(path: Path) -> str:
    try:
        info = path.stat()
    except (OSError, ValueError):
        return "absent"
    if path.is_dir():
        return "directory"
    try:
        data = read_bounded(path, limit=_HASHED_BYTES)
    except (OSError, UnreadableFile) as exc:
        return f"unreadable ({exc}) {info.st_size} {info.st_mtime_ns}"
    return "sha256:" + hashlib.sha256(data).hexdigest()


def fingerprint(specs: Sequence[McpSpec], workspace: Path) -> str:
    """A digest of exactly what would run: the servers and the files their commands name."""
    data = sorted(
        json.dumps(
            {"server": _record(s), "files": named_files(s, workspace)},
            sort_keys=True,
        )
        for s in specs
    )
    return hashlib.sha256("\n".join(data).encode()).hexdigest()


def _record(spec: McpSpec) -> dict[str, Any]:
    """A server as its fingerprint has always hashed it (the field names and `null`s of ACP's
    schema, where these specs came from at first), so approvals given before stay valid."""
    match spec:
        case StdioServer():
            env = [{"name": k, "value": v, "field_meta": None} for k, v in spec.env]
            return {
                "name": spec.name,
                "command": spec.command,
                "args": list(spec.args),
                "env": env,
                "field_meta": None,
            }
        case HttpServer() | SseServer():
            headers = [{"name": k, "value": v, "field_meta": None} for k, v in spec.headers]
            return {
                "name": spec.name,
                "url": spec.url,
                "headers": headers,
                "field_meta": None,
                "type": spec.type,
            }
        case _:
            assert_never(spec)


class Approvals:
    """The approved project servers of every workspace, in one JSON file."""

    def __init__(self, home: Path) -> None:
        self.path = home / APPROVALS_FILE

    def state(self, workspace: Path, specs: Sequence[McpSpec]) -> Approval:
        """Whether these servers, as they are now, were approved for this workspace."""
        kept = self._read().get(str(workspace))
        if kept is None:
            return "new"
        return "approved" if kept == fingerprint(specs, workspace) else "changed"

    def approved(self, workspace: Path, specs: Sequence[McpSpec]) -> bool:
        """Whether these servers, as they are now, were approved for this workspace."""
        return self.state(workspace, specs) == "approved"

    def approve(self, workspace: Path, specs: Sequence[McpSpec]) -> None:
        """Remember that these servers, as they are now, may start in this workspace."""
        # Imported here: reading this file must not load the tools.
        from tether.tools.fs.atomic import atomic_write

        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Locked: two sessions approving at once both keep their approval.
        with locked(self.path.with_name(f".{APPROVALS_FILE}.lock")):
            data = self._read()
            data[str(workspace)] = fingerprint(specs, workspace)
            text = json.dumps(data, indent=2, sort_keys=True) + "\n"
            atomic_write(self.path, text.encode(), (self.path.parent,), replace_link=True)

    def _read(self) -> dict[str, str]:
        try:
            data = read_bounded_json(self.path)
        except FileNotFoundError:
            return {}
        except (OSError, UnreadableFile) as exc:
            log.warning("%s cannot be read (%s); asking again", self.path, exc)
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
