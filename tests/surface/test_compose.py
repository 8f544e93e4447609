"""The one composition root: every setting that shapes a session is read in
`tether.surface.compose`, and every surface builds its sessions through it.

The first test writes a settings file with every key a session runs with and reads the
configuration back; the others pin that no surface builds a `SessionConfig` or a tool
registry of its own, so a new setting added in `session_config` reaches `tether run`, the
interactive terminal, ACP and `tether batch` alike.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tether.models.factory import make_model
from tether.settings import SettingsFlags, load_settings
from tether.surface import Launch, session_config, settle_tools
from tether.tools.bash.tool import BashTool
from tether.tools.web import SearchChoice, WebFetchTool, WebSearchTool

SRC = Path(__file__).resolve().parents[2] / "src" / "tether"

SURFACES = (
    "cli/run.py",
    "cli/interactive/workbench.py",
    "acp/context.py",
    "batch/runner.py",
)
"""The modules that start sessions for a person or a program: each calls `session_config`."""

ONLY_HERE = {"surface/compose.py"}
BUILDS_WITHOUT_SETTINGS = {
    # The offline demo runs a scripted model on a sample workspace and reads no settings.
    "cli/demo.py",
}
REPLAY_ONLY = {
    # Tools that only draw the cards of stored calls: nothing runs with them.
    "cli/show.py",
    "web/children.py",
    "web/follow.py",
}


def _settings_file(home: Path, extra_dir: Path) -> None:
    (home / "settings.json").write_text(
        json.dumps(
            {
                "model": "openai:chosen-model",
                "thinking": "high",
                "env": {"FROM_SETTINGS": "yes"},
                "permissions": {
                    "defaultMode": "plan",
                    "additionalDirectories": [str(extra_dir)],
                },
                "sandbox": {"mode": "read-only", "allowNetwork": True, "env": ["KEEP_ME"]},
                "models": {"chosen-model": {"contextWindow": 12345}},
                "webSearch": {"provider": "searxng", "baseUrl": "http://127.0.0.1:9/"},
                "webFetch": {"model": "openai:page-reader"},
            }
        ),
        encoding="utf-8",
    )


def test_every_setting_reaches_the_configuration(
    ws: Path, tmp_path: Path, isolated_environment: Path
) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    _settings_file(isolated_environment, extra)
    settings = load_settings(ws, isolated_environment)
    launch = Launch(
        default_model="openai",
        base_url="http://127.0.0.1:9/v1",
        allow_private_fetch=True,
        max_steps=7,
        context_window=4000,
        compact_at=0.5,
        checkpoints=False,
    )
    given = tmp_path / "given"
    config = session_config(settings, launch, asker=None, roots=[given])

    assert config.model.name == "openai:chosen-model"
    assert config.thinking == "high"
    assert config.web_fetch_model == "openai:page-reader"
    assert config.mode == "plan"
    assert list(config.extra_roots) == [given, extra]
    assert config.catalog is not None and config.catalog["chosen-model"].context_window == 12345
    assert config.settings is settings
    bash = config.tools.get("bash")
    assert isinstance(bash, BashTool)
    assert bash.env == {"FROM_SETTINGS": "yes"}
    assert (bash.sandbox.mode, bash.sandbox.allow_network) == ("read-only", True)
    assert bash.sandbox.env == ("KEEP_ME",)
    search = config.tools.get("web_search")
    assert isinstance(search, WebSearchTool) and isinstance(search.setup, SearchChoice)
    fetch = config.tools.get("web_fetch")
    assert isinstance(fetch, WebFetchTool) and fetch.allow_private
    # What the command adds: its limits, and agents' models at its endpoint.
    assert (config.max_steps, config.context_window, config.compact_at) == (7, 4000, 0.5)
    assert config.checkpoints is False
    assert config.models is not None
    assert config.models("openai:other").name == "openai:other"


def test_the_command_line_and_the_surface_override_the_files(
    ws: Path, tmp_path: Path, isolated_environment: Path
) -> None:
    _settings_file(isolated_environment, tmp_path)
    flags = SettingsFlags(mode="auto", model="openai:flagged", thinking="low")
    settings = load_settings(ws, isolated_environment, flags=flags)
    now = make_model("openai:switched")
    config = session_config(
        settings, Launch(default_model="openai"), asker=None, model=now, mode="ask"
    )
    assert config.thinking == "low"
    assert config.model is now
    assert config.mode == "ask"
    assert session_config(settings, Launch(default_model="openai"), asker=None).model.name == (
        "openai:flagged"
    )


def test_settled_settings_reshape_the_live_tools(
    ws: Path, tmp_path: Path, isolated_environment: Path
) -> None:
    before = load_settings(ws, isolated_environment)
    config = session_config(before, Launch(default_model="openai"), asker=None)
    _settings_file(isolated_environment, tmp_path)
    settle_tools(config.tools, load_settings(ws, isolated_environment))
    bash = config.tools.get("bash")
    assert isinstance(bash, BashTool)
    assert bash.env == {"FROM_SETTINGS": "yes"} and bash.sandbox.mode == "read-only"
    search = config.tools.get("web_search")
    assert isinstance(search, WebSearchTool) and isinstance(search.setup, SearchChoice)


def _calls(path: Path, name: str) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called == name:
                found.append(node.lineno)
    return found


def _modules() -> dict[str, Path]:
    return {str(p.relative_to(SRC)): p for p in sorted(SRC.rglob("*.py"))}


@pytest.mark.parametrize("surface", SURFACES)
def test_each_surface_builds_its_sessions_in_the_one_place(surface: str) -> None:
    path = SRC / surface
    assert _calls(path, "session_config"), f"{surface} does not call session_config"


def test_no_other_module_builds_a_configuration() -> None:
    built = {
        name: lines
        for name, path in _modules().items()
        if (lines := _calls(path, "SessionConfig"))
        and name not in ONLY_HERE | BUILDS_WITHOUT_SETTINGS
    }
    assert built == {}, "build it with tether.surface.session_config"


def test_no_other_module_builds_the_tools() -> None:
    built = {
        name: lines
        for name, path in _modules().items()
        if (lines := _calls(path, "default_tools"))
        and name not in ONLY_HERE | BUILDS_WITHOUT_SETTINGS | REPLAY_ONLY
    }
    assert built == {}, "build them with tether.surface.session_tools"
