"""Fixtures for command-line tests: a file in the workspace to read and edit."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def hello(ws: Path) -> Path:
    """`hello.py` in the workspace, one line that prints hello."""
    path = ws / "hello.py"
    path.write_text('print("hello")\n')
    return path
