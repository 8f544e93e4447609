"""The `thinking` key: a level, from the user's file or a trusted workspace; `--thinking` wins."""

from __future__ import annotations

import json
from pathlib import Path

from tether.settings import SettingsFlags, TrustStore, load_settings
from tether.settings.effective import thinking_level


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_a_level_from_the_files_and_the_flag_on_top(isolated_environment: Path, ws: Path) -> None:
    home = isolated_environment
    _write(home / "settings.json", {"thinking": "medium"})
    assert thinking_level(load_settings(ws, home)) == "medium"
    assert thinking_level(load_settings(ws, home, flags=SettingsFlags(thinking="high"))) == "high"
    _write(home / "settings.json", {})
    assert thinking_level(load_settings(ws, home)) is None


def test_a_bad_level_is_a_warning_and_the_rest_applies(
    isolated_environment: Path, ws: Path
) -> None:
    home = isolated_environment
    _write(home / "settings.json", {"thinking": "max", "model": "anthropic"})
    settings = load_settings(ws, home)
    [problem] = settings.problems
    assert (problem.key, problem.message) == (
        "thinking",
        "unknown thinking level 'max': use off, low, medium, high",
    )
    assert settings.model is not None and settings.model.value == "anthropic"
    assert thinking_level(settings) is None


def test_an_untrusted_workspace_cannot_raise_it(isolated_environment: Path, ws: Path) -> None:
    home = isolated_environment
    _write(ws / ".tether" / "settings.json", {"thinking": "high"})
    settings = load_settings(ws, home)
    # Thinking is paid for: withheld like the model until the workspace is trusted.
    assert thinking_level(settings) is None
    assert "thinking high (.tether/settings.json)" in settings.trust.withheld
    TrustStore(home).trust(ws, settings.trust.fingerprint)
    assert thinking_level(load_settings(ws, home)) == "high"
