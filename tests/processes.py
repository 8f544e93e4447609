"""The machine's processes, as `/proc` shows them, to check that a command left none behind."""

from __future__ import annotations

from pathlib import Path

__all__ = ["processes_with"]


def processes_with(marker: str) -> list[int]:
    """Live processes whose command line holds `marker` (zombies have none)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone since the listing
        if marker.encode() in cmdline:
            found.append(int(entry.name))
    return found
