"""The coverage gate traces the gated modules' own tests, and those tests exist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import coverage
import pytest

from tests.coverage_gate import (
    OPTION,
    REPO,
    CoverageGate,
    gate_tests,
    gated_files,
    gated_patterns,
)

BENEATH = "tests/test_beneath.py"


def test_the_gated_modules_and_the_tests_traced_for_them() -> None:
    assert gated_patterns() == [
        "src/tether/tools/fs/*",
        "src/tether/views/*",
        "src/tether/beneath.py",
    ]
    assert gate_tests() == [
        REPO / "tests" / "tools" / "fs",
        REPO / "tests" / "views",
        REPO / "tests" / "test_beneath.py",
    ]
    assert all(path.exists() for path in gate_tests())
    files = gated_files()
    assert REPO / "src" / "tether" / "beneath.py" in files
    assert REPO / "src" / "tether" / "tools" / "fs" / "__init__.py" in files
    assert all(path.is_file() and path.suffix == ".py" for path in files)


def test_each_process_writes_its_own_data_and_erase_removes_every_one() -> None:
    # Not parallel, `coverage erase` left `.coverage.*` files of an earlier run in place, and
    # `coverage combine` counted them toward the next one.
    assert coverage.Coverage(config_file=str(REPO / "pyproject.toml")).config.parallel


def test_only_the_gate_s_tests_are_traced() -> None:
    gate = CoverageGate()
    assert gate.gated(REPO / "tests/tools/fs/test_write.py")
    assert gate.gated(REPO / "tests/views/test_codec.py")
    assert gate.gated(REPO / "tests/test_beneath.py")
    assert not gate.gated(REPO / "tests/tools/test_registry.py")
    assert not gate.gated(REPO / "tests/test_bounded.py")
    assert not gate.gated(REPO / "tests/session/test_hooks.py")


def test_no_tracer_runs_a_test_outside_the_gate(request: pytest.FixtureRequest) -> None:
    # In the full run (`scripts/test`), this test is outside the gate: nothing traces it.
    if request.config.getoption(OPTION):
        assert sys.gettrace() is None


def test_a_gated_run_measures_the_gate_s_tests_and_the_modules_imports(tmp_path: Path) -> None:
    data = tmp_path / ".coverage"
    outside = "tests/test_coverage_gate.py::test_no_tracer_runs_a_test_outside_the_gate"
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", OPTION, BENEATH, outside],
        cwd=REPO,
        env=os.environ | {"COVERAGE_FILE": str(data)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    measured = coverage.Coverage(data_file=str(data), config_file=str(REPO / "pyproject.toml"))
    measured.combine([str(tmp_path)])
    # beneath.py's own tests run every line of it.
    _, statements, _, missed, _ = measured.analysis2(str(REPO / "src/tether/beneath.py"))
    assert statements and not missed
    # notebook_edit.py was imported under the tracer: its module-level lines count, though no
    # test of this run used it.
    module = REPO / "src/tether/tools/fs/notebook_edit.py"
    _, statements, _, missed, _ = measured.analysis2(str(module))
    defined = [
        number
        for number, line in enumerate(module.read_text().splitlines(), 1)
        if line.startswith(("def ", "class ")) and line.endswith(":")  # one-line headers
    ]
    assert defined and set(defined) <= set(statements) - set(missed)
    assert missed
