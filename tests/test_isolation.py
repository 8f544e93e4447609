"""The autouse isolation of the environment each test runs in."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import SECRET_VARIABLES
from tether.session.log.store import data_dir


def test_every_test_has_its_own_home(isolated_environment: Path) -> None:
    assert data_dir() == isolated_environment
    assert isolated_environment.is_dir()
    assert not list(isolated_environment.iterdir())


def test_no_key_or_endpoint_reaches_a_test() -> None:
    leaked = [name for name in os.environ if name in SECRET_VARIABLES]
    leaked += [name for name in os.environ if name.endswith("_API_KEY")]
    assert leaked == []
