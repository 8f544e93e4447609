"""Golden files: text pinned in the repository, compared exactly, rewritten on request.

Under `TETHER_SNAPSHOT=refresh` every check rewrites its file instead of comparing; review the
change with `git diff` before committing it. Files are UTF-8 and written byte for byte (no
newline translation), so a refresh that changes nothing leaves `git status` clean.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from tests.conftest import REPO

__all__ = ["check_golden", "refreshing"]

REFRESH = "TETHER_SNAPSHOT=refresh"


def refreshing() -> bool:
    """Whether golden files are being rewritten (`TETHER_SNAPSHOT=refresh`)."""
    return os.environ.get("TETHER_SNAPSHOT") == "refresh"


def check_golden(path: Path, actual: str) -> None:
    """Fail with a diff unless `path` holds exactly `actual`; rewrite it when refreshing."""
    __tracebackhide__ = True  # the failure is the test's, not this function's
    if refreshing():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode())
        return
    name = _shown(path)
    if not path.is_file():
        raise AssertionError(f"{name} is missing: run with {REFRESH} to write it")
    expected = path.read_bytes().decode()
    if actual != expected:
        raise AssertionError(
            f"{name} differs from what the test produced ({REFRESH} rewrites it):\n"
            + _diff(name, expected, actual)
        )


def _shown(path: Path) -> str:
    """The path as people find it: relative to the repository when it is inside."""
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _diff(name: str, expected: str, actual: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), f"{name} (pinned)", "actual", lineterm=""
    )
    text = "\n".join(lines)
    # Lines split the same way on every ending: say so, else the diff would be empty.
    return text or "the lines are equal; the line endings or the final newline differ"
