"""Background commands at the terminal, in a real pseudo-terminal: the status bar counts them,
`/bashes` lists them and stops the one picked, and none outlives the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.support import scripted_model
from tests.cli.tui import Tui
from tests.polling import until_file
from tests.processes import processes_with, unique_marker
from tether.sandbox.bwrap import find_bwrap

pytestmark = pytest.mark.skipif(not find_bwrap().works, reason="bubblewrap cannot start here")


def test_bashes_lists_the_jobs_and_stops_the_one_picked(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    marker = unique_marker("tether-bashes")
    # Each prints a line first: a background call returns once its command printed (or after
    # a second of silence).
    first = f"echo started; exec -a {marker}-one sleep 300"
    second = f"echo started; exec -a {marker}-two sleep 300"
    model = scripted_model(
        tmp_path / "s.json",
        {
            "toolCalls": [
                {
                    "id": "a",
                    "name": "bash",
                    "arguments": {"command": first, "run_in_background": True},
                },
                {
                    "id": "b",
                    "name": "Bash",
                    "arguments": {"command": second, "run_in_background": True},
                },
            ]
        },
        {"text": "Both are running."},
    )
    tui = Tui(tmp_path / "home", ["--model", model, "--mode", "auto"], cwd=ws)
    tuis.append(tui)
    tui.wait_for("shift+tab")
    tui.line("start two jobs")
    tui.wait_for("Both are running.")
    tui.wait(lambda: "2 background" in tui.status_bar, "the status bar counts the jobs")
    tui.line("/bashes")
    tui.wait_for("Stop a background command?")
    assert "shell-1" in tui.everything and "shell-2" in tui.everything
    tui.wait_for("enter to choose")
    tui.type("1")
    tui.wait_for("shell-1: killed by SIGTERM")
    tui.wait(lambda: "1 background" in tui.status_bar, "the bar follows the stop")
    assert processes_with(f"{marker}-one") == []
    assert processes_with(f"{marker}-two") != []
    tui.press("ctrl-d")
    assert tui.finish() == 0
    # Leaving the terminal ends the session, and its last job with it.
    assert processes_with(f"{marker}-two") == []


def test_a_jobs_card_comes_again_when_it_ends_and_ctrl_b_moves_a_command_to_the_background(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    """One session: a job that ends between prompts, then (none left running) a running
    command that Ctrl+B moves to the background as the next job."""
    # It ends when the test lets it (a file appears): after the turn, between prompts.
    command = f"echo first; {until_file('go')}; echo second-line; exit 5"
    marker = unique_marker("tether-ctrl-b")
    moved = f"echo started; exec -a {marker} sleep 300"
    model = scripted_model(
        tmp_path / "s.json",
        {
            "toolCalls": [
                {
                    "id": "a",
                    "name": "bash",
                    "arguments": {"command": command, "run_in_background": True},
                }
            ]
        },
        {"text": "It is running."},
        {"toolCalls": [{"id": "m", "name": "bash", "arguments": {"command": moved}}]},
        {"text": "Carrying on while it runs."},
    )
    tui = Tui(tmp_path / "home", ["--model", model, "--mode", "auto"], cwd=ws)
    tuis.append(tui)
    tui.wait_for("shift+tab")
    tui.line("start it")
    tui.wait_for("It is running.")
    (ws / "go").touch()
    # No prompt runs now: the job's end still reaches the scrollback, with all it printed.
    tui.wait_for("ran in the background as shell-1")
    tail = tui.everything[tui.everything.rindex("It is running.") :]
    assert "second-line" in tail and "exit 5" in tail
    tui.wait(lambda: "background" not in tui.status_bar, "the bar no longer counts it")

    tui.line("run it")
    # While the command runs, the line under the spinner says what Ctrl+B does.
    tui.wait_for("ctrl+b to run in background")
    tui.wait(lambda: processes_with(marker) != [], "the command runs")
    tui.press("ctrl-b")
    # The turn goes on at once; the command runs on as a job the bar counts.
    tui.wait_for("Carrying on while it runs.")
    tui.wait(lambda: "1 background" in tui.status_bar, "the status bar counts the moved job")
    assert "running in the background as shell-2" in tui.everything  # shell-1 ran above
    assert processes_with(marker) != []
    tui.press("ctrl-d")
    assert tui.finish() == 0
    # Leaving the terminal ends the session, and the moved command with it.
    assert processes_with(marker) == []
