"""The coverage gate traces the gated modules' own tests, and those tests exist."""

from __future__ import annotations

from tests.coverage_gate import REPO, CoverageGate, gate_tests, gated_files, gated_patterns


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


def test_only_the_gate_s_tests_are_traced() -> None:
    gate = CoverageGate()
    assert gate.gated(REPO / "tests/tools/fs/test_write.py")
    assert gate.gated(REPO / "tests/views/test_codec.py")
    assert gate.gated(REPO / "tests/test_beneath.py")
    assert not gate.gated(REPO / "tests/tools/test_registry.py")
    assert not gate.gated(REPO / "tests/test_bounded.py")
    assert not gate.gated(REPO / "tests/session/test_hooks.py")
