"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

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


@pytest.fixture(autouse=True)
def isolated_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """Each test gets its own `TETHER_HOME` and none of the developer's keys or endpoints.

    Tests run side by side on shared machines: a session written to the real data dir, or
    a real key reaching a provider, would leak between them (and off the machine).
    """
    for name in list(os.environ):
        if name in SECRET_VARIABLES or name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    home = tmp_path_factory.mktemp("tether-home")
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
