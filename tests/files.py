"""Files a test writes into a workspace or a home: the folders above made, text written as it is
and anything else as JSON."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["write"]


def write(path: Path, data: object) -> Path:
    """Write `data` at `path` (its folders made): text as it is, anything else as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path
