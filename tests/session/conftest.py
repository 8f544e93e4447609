"""Fixtures for session tests: a data directory, real and temporary (the workspace is `ws`)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The data directory (`TETHER_HOME`)."""
    return tmp_path / "home"
