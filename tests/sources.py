"""tether's own modules, by dotted name, and their source files: what the layer, exception
and architecture tests read (parsed, never imported); and the tests' support modules that have
asserts, which pytest is told to rewrite (`tests/assert_rewriting.py`)."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["MODULES", "SRC", "support_with_asserts"]

SRC = Path(__file__).resolve().parent.parent / "src"


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((SRC / "tether").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()

TESTS = SRC.parent / "tests"

_ASSERT = re.compile(r"^[ \t]*assert\b", re.MULTILINE)


def support_with_asserts() -> tuple[str, ...]:
    """The dotted names of the support modules (the modules under `tests/` pytest does not
    collect, conftests and package `__init__`s aside) that have an `assert` statement."""
    names = []
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(TESTS.parent).with_suffix("")
        collected = path.name.startswith("test_") or path.stem.endswith("_test")
        special = path.name in ("conftest.py", "__init__.py") or "snapshots" in relative.parts
        if collected or special:
            continue
        if _ASSERT.search(path.read_text(encoding="utf-8")):
            names.append(".".join(relative.parts))
    return tuple(names)
