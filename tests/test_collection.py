"""Collecting the suite keeps each test module's rewritten code, as a `.pyc`, even where
`PYTHONDONTWRITEBYTECODE` is set: every worker otherwise rewrote and compiled every module."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MODULE = "tests/views/test_schema.py"


def test_collection_writes_the_rewritten_test_modules_despite_pythondontwritebytecode(
    tmp_path: Path,
) -> None:
    prefix = tmp_path / "pycache"
    # The prefix keeps the written files out of the checkout, where pytest looks for them too.
    env = os.environ | {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(prefix)}
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", MODULE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    written = {path.name.split(".")[0] for path in prefix.rglob("*-pytest-*.pyc")}
    assert "test_schema" in written


def test_the_tests_run_with_the_bytecode_setting_they_were_given() -> None:
    assert sys.dont_write_bytecode == bool(sys.flags.dont_write_bytecode)
