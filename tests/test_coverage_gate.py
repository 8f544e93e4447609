"""The coverage gate traces the gated modules' own tests, those tests exist, and it leaves out
no line but a stub's `...` body (and what the other exclusions name)."""

from __future__ import annotations

import ast
import os
import re
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


STUBS = """\
from typing import Protocol, overload


def typed(x: tuple[int, ...]) -> None:
    y: tuple[int, ...] = (1,)
    print(x, y)


def signed(
    x: int,
) -> tuple[int, ...]:
    return (x,)


class P(Protocol):
    def one_line(self) -> int: ...

    def long(
        self,
    ) -> tuple[int, ...]: ...

    def body(self) -> int:
        ...


class Q(Protocol): ...


@overload
def h(x: int) -> int: ...
@overload
def h(x: str) -> str: ...
def h(x: object) -> object:
    return x
"""


def _gate_analysis(path: Path, exclude: list[str] | None = None) -> tuple[set[int], set[int]]:
    """The statements the gate measures in `path`, and the lines it excludes, as
    pyproject.toml configures coverage (or with the exclusion regexes `exclude`)."""
    measured = coverage.Coverage(data_file=None, config_file=str(REPO / "pyproject.toml"))
    if exclude is not None:
        measured.set_option("report:exclude_lines", exclude)
    _, statements, excluded, _, _ = measured.analysis2(str(path))
    return set(statements), set(excluded)


def _ellipsis_patterns() -> tuple[list[str], list[str]]:
    """The configured exclusion regexes that match a stub's `...` body, and the others."""
    patterns = coverage.Coverage(config_file=str(REPO / "pyproject.toml")).config.exclude_list
    stub = [p for p in patterns if re.search(p, "    ...\n", re.MULTILINE)]
    return stub, [p for p in patterns if p not in stub]


def test_an_ellipsis_in_a_type_excludes_nothing_and_a_stub_body_is_excluded(
    tmp_path: Path,
) -> None:
    # The exclusions are regexes searched anywhere in a line, and an excluded header line
    # excludes its whole block: a bare `\.\.\.` left out every function whose signature said
    # `tuple[int, ...]`, and each line such as `y: tuple[int, ...] = (1,)`.
    source = tmp_path / "stubs.py"
    source.write_text(STUBS)
    statements, excluded = _gate_analysis(source)
    lines = STUBS.splitlines()
    number = {line: n for n, line in enumerate(lines, 1)}
    for measured in (
        "def typed(x: tuple[int, ...]) -> None:",
        "    y: tuple[int, ...] = (1,)",
        "    print(x, y)",
        "def signed(",
        "    return (x,)",
        "class Q(Protocol): ...",  # a class body runs: nothing to leave out
        "def h(x: object) -> object:",
    ):
        assert number[measured] in statements, measured
    # A stub's body never runs: a one-line stub, a bare `...` body, an overload.
    stubs = ("    def one_line(self) -> int: ...", "    ) -> tuple[int, ...]: ...", "        ...")
    for stub in stubs:
        assert number[stub] in excluded, stub
    assert {n for n, line in enumerate(lines, 1) if line.startswith("def h(x: int")} <= excluded
    assert statements.isdisjoint(excluded)


def _is_ellipsis(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and statement.value.value is Ellipsis
    )


def _stubs(tree: ast.Module) -> tuple[set[int], set[int]]:
    """The lines of the `...` bodies of functions (which never run), and every line a stub
    pattern may leave out: any `...` statement, and a function whose body is only that."""
    bodies: set[int] = set()
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and _is_ellipsis(node):
            allowed.add(node.lineno)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) == 1 and _is_ellipsis(body[0]):
                bodies.add(body[0].lineno)
                # Its decorators' lines too: coverage starts a decorated `def` at them.
                allowed.update([node.lineno, *(d.lineno for d in node.decorator_list)])
    return bodies, allowed


@pytest.mark.parametrize("module", gated_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_a_gated_module_leaves_out_no_line_but_stub_bodies(module: Path) -> None:
    stub, others = _ellipsis_patterns()
    assert stub, "no exclusion for a stub's `...` body: every stub would count as missed"
    measured, _ = _gate_analysis(module)
    without, _ = _gate_analysis(module, others)
    text = module.read_text()
    # A gated line is covered by a test or removed, never waved through.
    assert not re.search(r"#\s*pragma[:\s]?\s*no\s*cover", text, re.IGNORECASE)
    bodies, allowed = _stubs(ast.parse(text, str(module)))
    left_out = without - measured
    assert left_out <= allowed, f"{module}: lines {sorted(left_out - allowed)} are not stubs"
    assert measured.isdisjoint(bodies), f"{module}: stub bodies {sorted(measured & bodies)}"
