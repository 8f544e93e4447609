"""Workspace trust: a cloned repository grants itself nothing until the user says so.

A workspace's own settings (`.tether/settings.json`, `.tether/settings.local.json`, Claude
Code's `.claude/settings.json` and `.claude/settings.local.json`) may deny and ask from the
start; what they grant (allow rules, the mode, `env`, extra directories, the model, a wider
sandbox, hooks, approvals of `.mcp.json`'s servers) and instructions importing files from
outside the workspace wait until the user trusts the workspace. Trust is kept in
`$TETHER_HOME/trusted.json`, by workspace, with a fingerprint of those files: when either
changes, the workspace is asked about again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tether.bounded import read_bounded_json, read_bounded_text
from tether.errors import UnreadableFile
from tether.settings.locking import locked
from tether.settings.sources import CLAUDE_FILE, CLAUDE_LOCAL_FILE, LOCAL_FILE, PROJECT_FILE

__all__ = [
    "TRUSTED_FILES",
    "TRUST_FILE",
    "TrustRecord",
    "TrustStore",
    "file_digest",
    "fingerprint",
    "text_digest",
    "workspace_fingerprint",
]

log = logging.getLogger(__name__)

TRUST_FILE = "trusted.json"
TRUSTED_FILES = (PROJECT_FILE, LOCAL_FILE, CLAUDE_FILE, CLAUDE_LOCAL_FILE)
"""The workspace files whose content a trust decision covers."""

_WHEN_PRESENT = frozenset({CLAUDE_FILE, CLAUDE_LOCAL_FILE})
"""Files that count only once they exist, so trust given before they were read still holds
while there are none."""

_READ_IN_FULL = " (all keys)"
"""Marks Claude Code's files in the fingerprint since tether reads all of their keys (it read
only their hooks before), so trust given for their hooks alone is asked for again."""

_VERSION = 1


def text_digest(text: str) -> str:
    """The SHA-256 of a settings file's text."""
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def file_digest(path: Path) -> str | None:
    """The digest of the file at `path`, `None` when there is none (an unreadable one counts
    as its error, so it never matches a trusted digest)."""
    try:
        return text_digest(read_bounded_text(path))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except UnreadableFile as exc:
        return text_digest(f"unreadable: {exc}")


def fingerprint(digests: Mapping[str, str | None]) -> str:
    """One digest for the trusted files' digests (by name; `None`: absent)."""
    lines = [
        f"{name}{_READ_IN_FULL if name in _WHEN_PRESENT else ''}:{digests.get(name) or '-'}"
        for name in TRUSTED_FILES
        if name not in _WHEN_PRESENT or digests.get(name)
    ]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def workspace_fingerprint(root: Path) -> str:
    """The fingerprint of the trusted files of workspace `root` as they are now."""
    return fingerprint({name: file_digest(root / name) for name in TRUSTED_FILES})


@dataclass(frozen=True)
class TrustRecord:
    """One trusted workspace: its fingerprint when trusted, and when."""

    root: str
    fingerprint: str
    trusted_at: str


class TrustStore:
    """The trusted workspaces, in `$TETHER_HOME/trusted.json`."""

    def __init__(self, home: Path) -> None:
        self.path = home / TRUST_FILE
        self._lock = home / f".{TRUST_FILE}.lock"

    def record(self, root: Path) -> TrustRecord | None:
        """The record of workspace `root`, if it was ever trusted."""
        return self._read().get(str(root))

    def is_trusted(self, root: Path, current: str) -> bool:
        """Whether `root` is trusted with its files as `current` fingerprints them."""
        record = self.record(root)
        return record is not None and record.fingerprint == current

    def trust(self, root: Path, current: str) -> None:
        """Trust `root` with its files as they are (`current`)."""
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        self._update(str(root), TrustRecord(str(root), current, stamp))

    def revoke(self, root: Path) -> bool:
        """Stop trusting `root`; whether it was trusted."""
        return self._update(str(root), None)

    def retrust(self, root: Path, before: str, after: str) -> None:
        """Move the trust of `root` from fingerprint `before` to `after` (tether changed its own
        settings file); nothing when it was not trusted as `before`."""
        with self._locked():
            records = self._read()
            record = records.get(str(root))
            if record is None or record.fingerprint != before:
                return
            records[str(root)] = TrustRecord(record.root, after, record.trusted_at)
            self._write(records)

    def records(self) -> list[TrustRecord]:
        """Every trusted workspace."""
        return sorted(self._read().values(), key=lambda r: r.root)

    def _update(self, key: str, record: TrustRecord | None) -> bool:
        with self._locked():
            records = self._read()
            existed = records.pop(key, None) is not None
            if record is not None:
                records[key] = record
            self._write(records)
            return existed

    def _locked(self) -> AbstractContextManager[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return locked(self._lock)

    def _read(self) -> dict[str, TrustRecord]:
        try:
            data = read_bounded_json(self.path)
        except FileNotFoundError:
            return {}
        except UnreadableFile as exc:
            # Trusting nothing is the safe way to be wrong.
            log.warning("%s; no workspace is trusted until it is fixed or removed", exc)
            return {}
        workspaces = data.get("workspaces") if isinstance(data, dict) else None
        if not isinstance(workspaces, dict):
            return {}
        records = {}
        for root, entry in workspaces.items():
            if isinstance(entry, dict) and isinstance(entry.get("sha256"), str):
                stamp = entry.get("trustedAt")
                records[root] = TrustRecord(
                    root, entry["sha256"], stamp if isinstance(stamp, str) else ""
                )
        return records

    def _write(self, records: Mapping[str, TrustRecord]) -> None:
        data = {
            "version": _VERSION,
            "workspaces": {
                root: {"sha256": r.fingerprint, "trustedAt": r.trusted_at}
                for root, r in sorted(records.items())
            },
        }
        # Imported here: reading this file must not load the tools.
        from tether.tools.fs.atomic import atomic_write

        text = json.dumps(data, indent=2) + "\n"
        atomic_write(self.path, text.encode(), (self.path.parent,), replace_link=True)
