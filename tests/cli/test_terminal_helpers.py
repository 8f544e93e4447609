"""The terminals the tests open start `tether` as a person's shell would."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.cli.tui import Tui

_SAYS = "import sys; print('writes bytecode:', not sys.dont_write_bytecode)"


@pytest.mark.parametrize(
    ("env", "said"), [({}, "True"), ({"PYTHONDONTWRITEBYTECODE": "1"}, "False")]
)
def test_the_process_in_a_terminal_writes_bytecode_unless_the_test_says_not(
    tmp_path: Path, tuis: list[Tui], monkeypatch: pytest.MonkeyPatch, env: dict[str, str], said: str
) -> None:
    """So tether's table of compiled dataclass code is written once and read by every later
    start, though the tests themselves run where bytecode is not written."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    tui = Tui(tmp_path / "home", [], cwd=tmp_path, env=env, program=[sys.executable, "-c", _SAYS])
    tuis.append(tui)
    tui.wait_for(f"writes bytecode: {said}")
    assert tui.finish() == 0
