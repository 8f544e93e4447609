"""Fixtures for session tests: a data directory and a workspace, both real and temporary."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The data directory (`TETHER_HOME`)."""
    return tmp_path / "home"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """The workspace root."""
    path = tmp_path / "ws"
    path.mkdir()
    return path.resolve()
