"""Shared by the tests that write settings files: a file written (JSON unless it is text), and
a workspace the person trusts as its settings are now."""

from __future__ import annotations

import json
from pathlib import Path

from tether.settings import TrustStore, load_settings

__all__ = ["trust", "write"]


def write(path: Path, data: object) -> Path:
    """Write `data` at `path` (its folders made): text as it is, anything else as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


def trust(ws: Path, home: Path) -> None:
    """The person trusts `ws` with the settings it has now (the fingerprint they saw)."""
    TrustStore(home).trust(ws, load_settings(ws, home).trust.fingerprint)
