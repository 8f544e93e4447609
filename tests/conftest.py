"""Shared fixtures."""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from pydantic._internal import _fields

from tests import durations
from tether.pydantic_docstrings import read_docstrings_once

# Properties are checked by what they draw, not by how fast: on a shared 2-core machine a
# draw or an example can stall for seconds behind other processes, which says nothing about
# the code (the same reason the suite's own timeouts are generous).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

# The models the tests make read their attribute docstrings as a `tether` process reads them,
# from one parse of their module (the ACP SDK's 273 models: about 0.2 s of each worker's
# collection otherwise).
read_docstrings_once(_fields)

pytest_plugins = ["tests.coverage_gate", "tests.bytecode", "tests.assert_rewriting", "tests.heap"]

REPO = Path(__file__).resolve().parent.parent

PROCESS_FOLDERS = ("acp", "batch", "cli", "web")
"""The folders whose tests start `tether` processes, browsers, terminals and clusters: seconds
a file, where most other files take a fraction of one."""

SECRET_VARIABLES = (
    "TETHER_API_KEY",
    "TETHER_MODEL",
    "TETHER_BASE_URL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "DEEPSEEK_API_KEY",
    "OPENROUTER_API_KEY",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_BASE_URL",
    "BRAVE_BASE_URL",
    "EXA_BASE_URL",
    "TAVILY_BASE_URL",
    "SEARXNG_URL",
)
"""Variables that pick a model, a search backend, an endpoint or a key; a test never
inherits them."""


@pytest.fixture(scope="session")
def homes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the tests' homes (`isolated_environment`), one per process.

    Not pytest's numbered folders beside each test's `tmp_path`: pytest numbers a new one by
    reading every name in their folder, so with a home beside each test's own folder a
    worker's 1,100 tests read about two million names (2 s of CPU a worker)."""
    return tmp_path_factory.mktemp("tether-homes")


@pytest.fixture(autouse=True)
def isolated_environment(monkeypatch: pytest.MonkeyPatch, homes: Path) -> Path:
    """Each test gets its own `TETHER_HOME` and none of the developer's keys or endpoints.

    Tests run side by side on shared machines: a session written to the real data dir, or
    a real key reaching a provider, would leak between them (and off the machine).
    """
    for name in list(os.environ):
        if name in SECRET_VARIABLES or name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    home = Path(tempfile.mkdtemp(prefix="tether-home-", dir=homes))  # 0o700, as pytest's
    monkeypatch.setenv("TETHER_HOME", str(home))
    # Claude Code's user directory too: its CLAUDE.md, agents and skills are the developer's.
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "claude"))
    return home


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """The workspace root: an empty directory, its path resolved."""
    path = tmp_path / "ws"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def repo_root() -> Path:
    """The repository's root directory."""
    return REPO


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files first, by their seconds in `tests/durations.txt`; then the files of the
    process folders, then the rest, each with the most tests first; a file's tests keep their
    order.

    Each file runs on one worker (`scripts/test`), in this order: the long files start while
    the queue is long, and the many short ones are left to even out the workers' ends. A
    file with one long test (a crash test, a browser) ordered by its count came near the end,
    and one worker ran it while the other had nothing left to run.
    """
    counts = Counter(item.nodeid.partition("::")[0] for item in items)
    seconds = durations.load()

    def rank(item: pytest.Item) -> tuple[int, bool, int]:
        path = item.nodeid.partition("::")[0]
        parts = path.split("/")
        started = len(parts) > 2 and parts[0] == "tests" and parts[1] in PROCESS_FOLDERS
        return (-seconds.get(path, 0), not started, -counts[path])

    items.sort(key=rank)  # stable: each file's tests stay in their order
