"""tether's own modules, by dotted name, and their source files: what the layer, exception
and architecture tests read (parsed, never imported)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["MODULES", "SRC"]

SRC = Path(__file__).resolve().parent.parent / "src"


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((SRC / "tether").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()
