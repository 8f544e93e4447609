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


_DRAWS_IN_TWO = """
import os, sys, time
print('the title', flush=True)
while not os.path.exists('go'):
    time.sleep(0.01)
print('the row', flush=True)
"""


def test_waiting_for_several_texts_waits_until_all_of_them_are_on_the_screen(
    tmp_path: Path, tuis: list[Tui]
) -> None:
    """A row drawn in a later write than the line waited for is waited for too."""
    program = [sys.executable, "-c", _DRAWS_IN_TWO]
    tui = Tui(tmp_path / "home", [], cwd=tmp_path, program=program)
    tuis.append(tui)
    tui.wait_for("the title")
    assert "the row" not in tui.display  # it waits for the file
    (tmp_path / "go").touch()
    tui.wait_for_all("the title", "the row")
    assert tui.finish() == 0
    with pytest.raises(AssertionError, match="never showed"):
        tui.wait_for_all("the title", "no such row")
