"""Comparing pydantic core schemas made in different processes, and the stored session the
schema tests show (`tests/test_schema_table.py`, `tests/test_pydantic_fields.py`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

__all__ = ["SESSION", "SESSIONS", "unfolded"]

SESSIONS = Path(__file__).parent / "cli" / "show" / "sessions"
SESSION = "01a244467926cab9335b"
"""The golden log with calls of ten tools: reads, edits, a command, a search, a plan..."""


def unfolded(schema: Any) -> Any:
    """`schema` with every definition written where it is used (a type met again inside
    itself as its name): pydantic shares a definition or writes it out depending on which
    types were built before, and names definitions with a class's `id` in its process."""
    named: dict[str, Any] = {}

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            if "ref" in value:
                named[name_of(value["ref"])] = value
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    def unfold(value: Any, within: tuple[str, ...]) -> Any:
        if isinstance(value, list):
            return [unfold(item, within) for item in value]
        if not isinstance(value, dict):
            return value
        if value.get("type") == "definitions":
            return unfold(value["schema"], within)
        if value.get("type") == "definition-ref":
            value = named[name_of(value["schema_ref"])]
        if "ref" in value:
            name = name_of(value["ref"])
            if name in within:
                return ("recursive", name)
            within = (*within, name)
        return {k: unfold(v, within) for k, v in value.items() if k != "ref"}

    collect(schema)
    return unfold(schema, ())


def name_of(ref: str) -> str:
    """A definition's name without the number its process gave it."""
    return re.sub(r":\d+$", "", ref)
