"""Fixtures for session tests: a data directory, real and temporary (the workspace is `ws`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.session.helpers import Sessions


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The data directory (`TETHER_HOME`)."""
    return tmp_path / "home"


@pytest.fixture
def sessions(home: Path) -> Iterator[Sessions]:
    """Sessions in `home`, every one closed when the test ends, whether it passed or not."""
    with Sessions(home) as opened:
        yield opened
