"""Project MCP servers start only once the user approved them for that workspace.

A workspace's `.mcp.json` runs commands of someone else's choosing, so its servers need a
yes first: the approval is kept in `$TETHER_HOME/mcp-approvals.json`, by workspace, as a
fingerprint of the servers approved; a changed file asks again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path

from tether.mcp.specs import McpSpec

__all__ = ["APPROVALS_FILE", "Approvals", "fingerprint"]

log = logging.getLogger(__name__)

APPROVALS_FILE = "mcp-approvals.json"


def fingerprint(specs: Sequence[McpSpec]) -> str:
    """A digest of exactly what would run (commands, arguments, environment, URLs)."""
    data = sorted(json.dumps(s.model_dump(mode="json"), sort_keys=True) for s in specs)
    return hashlib.sha256("\n".join(data).encode()).hexdigest()


class Approvals:
    """The approved project servers of every workspace, in one JSON file."""

    def __init__(self, home: Path) -> None:
        self.path = home / APPROVALS_FILE

    def approved(self, workspace: Path, specs: Sequence[McpSpec]) -> bool:
        """Whether these servers were approved for this workspace."""
        return self._read().get(str(workspace)) == fingerprint(specs)

    def approve(self, workspace: Path, specs: Sequence[McpSpec]) -> None:
        """Remember that these servers may start in this workspace."""
        data = self._read()
        data[str(workspace)] = fingerprint(specs)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        temporary.replace(self.path)

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("%s cannot be read (%s); asking again", self.path, exc)
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
