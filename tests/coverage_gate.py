"""The coverage gate's tracer: on only while the tests of the gated modules run.

The gated modules are `[tool.coverage.run] include` in pyproject.toml, and `scripts/test`
fails unless they are fully covered, branches too. On Python 3.11 an installed trace function
costs every Python call, whatever it measures (a quarter to a half more CPU for the test
folders measured), so this plugin installs it only while the gated modules' own tests run
(`gate_tests`: `src/tether/X/*` is tested by `tests/X/`, `src/tether/X/y.py` by
`tests/X/test_y.py`), and once before collection to import every gated module, so that their
module-level lines count too. Each process (each xdist worker) saves its own data file
(`.coverage.*` beside pyproject.toml, or as `COVERAGE_FILE` names it); `scripts/test`
combines them and reports.
"""

from __future__ import annotations

import importlib
import os
import sys
import tomllib
from collections.abc import Generator
from pathlib import Path

import coverage
import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = Path("src") / "tether"
OPTION = "--coverage-gate"


def gated_patterns() -> list[str]:
    """The gated modules as pyproject.toml names them, relative to the repository."""
    with (REPO / "pyproject.toml").open("rb") as file:
        settings = tomllib.load(file)
    patterns: list[str] = settings["tool"]["coverage"]["run"]["include"]
    return patterns


def gated_files() -> list[Path]:
    """Every source file the gate covers."""
    files: list[Path] = []
    for pattern in gated_patterns():
        if pattern.endswith("/*"):
            # coverage's `*` crosses directories, so a subpackage is gated too.
            files.extend(sorted((REPO / pattern[:-2]).rglob("*.py")))
        else:
            files.append(REPO / pattern)
    return files


def gate_tests() -> list[Path]:
    """The test files and folders that run under the tracer: the gated modules' own."""
    tests: list[Path] = []
    for pattern in gated_patterns():
        relative = Path(pattern[:-2] if pattern.endswith("/*") else pattern).relative_to(PACKAGE)
        if relative.suffix == ".py":
            relative = relative.with_name(f"test_{relative.name}")
        tests.append(REPO / "tests" / relative)
    return tests


def _module(file: Path) -> str:
    parts = file.relative_to(REPO / "src").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class CoverageGate:
    """One `coverage.Coverage` for this process, started and stopped around the gate's tests."""

    def __init__(self) -> None:
        self.tests = gate_tests()
        # data_suffix: each worker writes its own `.coverage.*`, combined by scripts/test.
        self.coverage = coverage.Coverage(
            data_file=os.environ.get("COVERAGE_FILE", str(REPO / ".coverage")),
            data_suffix=True,
            config_file=str(REPO / "pyproject.toml"),
        )
        self.tracing = False
        self.active = False

    def gated(self, path: Path) -> bool:
        """Whether the tests in file `path` are the gate's."""
        return any(path.is_relative_to(tests) for tests in self.tests)

    def start(self) -> None:
        """Install the tracer (once; consecutive gate tests share it)."""
        if not self.tracing:
            self.coverage.start()
            self.tracing = True

    def stop(self) -> None:
        """Remove the tracer."""
        if self.tracing:
            self.coverage.stop()
            self.tracing = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Import the gated modules under the tracer, before collection imports them."""
        config = session.config
        # xdist's controller runs no test; its workers each measure their own.
        self.active = not (
            config.pluginmanager.has_plugin("dsession") or config.getoption("collectonly")
        )
        if not self.active:
            return
        modules = [_module(file) for file in gated_files()]
        early = [name for name in modules if name in sys.modules]
        if early:
            # Their module-level lines ran untraced: the report would call them missed. This
            # happens when a path argument's own conftest imports one (tests/acp/conftest.py
            # does): the gate is for the whole suite, which scripts/test runs with no paths.
            raise pytest.UsageError(
                f"{OPTION} is for the whole suite: {', '.join(early)} were imported before "
                "the tracer started (by a conftest.py of the paths given?)"
            )
        self.start()
        try:
            for name in modules:
                importlib.import_module(name)
        finally:
            self.stop()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, object, object]:
        """Trace a gate test's set-up, call and teardown; stop when the next test is not one."""
        if self.active and self.gated(item.path):
            self.start()
        try:
            return (yield)
        finally:
            if nextitem is None or not self.gated(nextitem.path):
                self.stop()

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Save what this process measured."""
        if self.active:
            self.stop()
            self.coverage.save()


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--coverage-gate`: measure the gated modules while their tests run."""
    parser.addoption(
        OPTION,
        action="store_true",
        help="trace the gated modules' own tests for the coverage gate (scripts/test)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Measure with `--coverage-gate` (in each process that runs tests: `CoverageGate`)."""
    if config.getoption(OPTION):
        config.pluginmanager.register(CoverageGate(), "coverage-gate")
