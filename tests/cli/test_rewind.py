"""`tether run` with `/rewind`, `/undo`, `/redo` and `--fork`, and `tether show` of what they
did, as real processes; a conflict asked at a real terminal."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model
from tests.cli.terminal import Terminal


def _changes(tmp_path: Path, ws: Path) -> str:
    """A session whose one prompt edits a.py and writes b.txt; its id."""
    (ws / "a.py").write_text("x = 1\n")
    model = scripted_model(
        tmp_path / "model.json",
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "a.py"}}]},
        {
            "toolCalls": [
                {"id": "e", "name": "edit",
                 "arguments": {"path": "a.py", "old_string": "1", "new_string": "2"}},
                {"id": "w", "name": "write", "arguments": {"path": "b.txt", "content": "b\n"}},
            ]
        },
        {"text": "done"},
    )  # fmt: skip
    home = tmp_path / "home"
    done = tether_in_process(
        home, "run", "change it", "--model", model, "--mode", "auto", "--cwd", str(ws)
    )
    assert done.returncode == 0, done.stderr
    assert "checkpoint: prompt 1 changed 2 files: a.py, b.txt (/undo reverts them)" in done.stdout
    found = re.search(r"^session (\S+) ", done.stderr, re.MULTILINE)
    assert found is not None, done.stderr
    return found[1]


def test_rewind_lists_undo_and_redo_restore_and_fork_branches(tmp_path: Path, ws: Path) -> None:
    sid = _changes(tmp_path, ws)
    home = tmp_path / "home"
    listed = tether_in_process(home, "run", "/rewind", "--continue", sid)
    assert listed.returncode == 0, listed.stderr
    assert "1  change it" in listed.stdout and "a.py +1 -1, b.txt +1 -0" in listed.stdout

    undone = tether_in_process(home, "run", "/undo", "--continue", sid)  # no API key needed
    assert undone.returncode == 0, undone.stderr
    assert "undo: restored 2 files to before prompt 1: a.py, b.txt" in undone.stdout
    assert (ws / "a.py").read_text() == "x = 1\n" and not (ws / "b.txt").exists()
    redone = tether_in_process(home, "run", "/redo", "--continue", sid)
    assert "redo: restored 2 files to the end of prompt 1" in redone.stdout
    assert (ws / "a.py").read_text() == "x = 2\n" and (ws / "b.txt").exists()

    # A fork before prompt 1 starts empty; the original keeps its prompt.
    forked = tether_in_process(home, "run", "/rewind", "--fork", f"{sid}@1")
    assert "has no prompts yet" in forked.stdout

    shown = tether_in_process(home, "show", sid)
    assert "checkpoint: prompt 1 changed 2 files" in shown.stdout
    assert "undo: restored 2 files" in shown.stdout and "redo: restored 2 files" in shown.stdout
    # Each command is shown as the person typed it, before tether's answer, as on ACP.
    lines = shown.stdout.splitlines()
    for command, answer in (
        ("> /rewind", "prompts of session"),
        ("> /undo", "undo: restored 2 files"),
        ("> /redo", "redo: restored 2 files"),
    ):
        assert lines[lines.index(command) + 1].startswith(answer), shown.stdout

    forking = tether_in_process(home, "run", "/fork 1", "--continue", sid)
    assert forking.returncode == 0, forking.stderr
    fork_id = re.search(r" as (\S+): tether run --continue", forking.stderr)
    assert fork_id is not None, forking.stderr
    lines = tether_in_process(home, "show", sid).stdout.splitlines()
    said = lines[lines.index("> /fork 1") + 1]
    assert said == f"Forked this session before prompt 1 as {fork_id[1]}."


def test_a_conflict_is_asked_at_the_terminal(tmp_path: Path, ws: Path) -> None:
    sid = _changes(tmp_path, ws)
    (ws / "a.py").write_text("x = 'mine'\n")
    terminal = Terminal(tmp_path / "home", ["run", "/undo", "--continue", sid])
    screen = terminal.wait_for("Keep mine: ")
    assert "a.py: changed after tether last changed it" in screen
    assert "Restore a.py? [y] Take the checkpoint's version / [n] Keep mine: " in screen
    assert "-x = 'mine'" in screen and "+x = 1" in screen
    terminal.type(b"y\n")
    assert terminal.finish() == 0
    assert "undo: restored 2 files to before prompt 1" in terminal.text
    assert (ws / "a.py").read_text() == "x = 1\n"


def test_with_no_one_to_ask_every_conflict_is_shown_and_kept(tmp_path: Path, ws: Path) -> None:
    sid = _changes(tmp_path, ws)
    (ws / "a.py").write_text("x = 'mine'\n")
    (ws / "b.txt").unlink()
    (ws / "b.txt").mkdir()  # a folder where tether wrote a file: nothing can be put there
    undone = tether_in_process(
        tmp_path / "home", "run", "/undo", "--continue", sid
    )  # stdin is no terminal
    assert undone.returncode == 0, undone.stderr
    assert "a.py: changed after tether last changed it\n  -x = 'mine'\n  +x = 1\n" in undone.stderr
    assert "b.txt: changed after tether last changed it; it is now a directory\n" in undone.stderr
    assert undone.stderr.count("  kept as it is\n") == 2
    assert "Restore" not in undone.stderr  # no question without a terminal
    assert "undo: restored 0 files to before prompt 1; kept as they are: a.py, b.txt" in (
        undone.stdout
    )
    assert (ws / "a.py").read_text() == "x = 'mine'\n" and (ws / "b.txt").is_dir()
