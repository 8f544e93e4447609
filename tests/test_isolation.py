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


def test_the_homes_are_not_among_the_tests_own_folders(
    isolated_environment: Path, homes: Path, tmp_path: Path
) -> None:
    """pytest numbers each test's `tmp_path` by reading its folder's names: a home there too
    doubled what every later test read."""
    assert isolated_environment.parent == homes
    assert homes.parent == tmp_path.parent
    folders = [p for p in tmp_path.parent.iterdir() if not p.is_symlink()]  # pytest's "current"
    assert [p for p in folders if p.name.startswith("tether-home")] == [homes]


def test_no_key_or_endpoint_reaches_a_test() -> None:
    leaked = [name for name in os.environ if name in SECRET_VARIABLES]
    leaked += [name for name in os.environ if name.endswith("_API_KEY")]
    assert leaked == []
