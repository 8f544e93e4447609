"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def refreshing() -> bool:
    """Whether golden files are being rewritten (`TETHER_SNAPSHOT=refresh`)."""
    return os.environ.get("TETHER_SNAPSHOT") == "refresh"


@pytest.fixture
def repo_root() -> Path:
    """The repository's root directory."""
    return REPO
