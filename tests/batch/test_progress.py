"""`tether batch` at a terminal: the live bar counts tasks and tokens, Ctrl-C typed there (the
whole foreground group gets it) cancels the running task, and the summary table follows."""

from __future__ import annotations

import time
from pathlib import Path

from tests.batch.tasks import results, work, write_tasks
from tests.cli.support import scripted_model
from tests.cli.terminal import Terminal


def test_the_bar_counts_and_ctrl_c_at_the_terminal_cancels(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    quick = work(tmp_path / "quick.json", "a.txt", "one", "two")
    slow = scripted_model(
        tmp_path / "slow.json",
        {"toolCalls": [{"id": "s", "name": "bash", "arguments": {"command": "sleep 120"}}]},
        {"text": "never said"},
    )
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        [
            {"id": "quick", "prompt": "edit", "cwd": "folder", "model": quick},
            {"id": "slow", "prompt": "wait", "cwd": "folder", "model": slow},
        ],
    )
    out = tmp_path / "out"
    terminal = Terminal(
        tmp_path / "home", ["batch", str(tasks), "--out", str(out), "--workers", "2"]
    )
    try:
        terminal.wait_for("done 1 · failed 0 · running 1 · 235 tokens", timeout=120)
        terminal.type(b"\x03")
    finally:
        status = terminal.finish(timeout=120)
    assert status == 130, terminal.text
    text = terminal.text
    assert "1/2" in text and "ETA" in text
    assert "cancelled" in text and "task time p95" in text
    assert "rerun with --out" in text
    assert {line["id"]: line["status"] for line in results(out)} == {
        "quick": "done",
        "slow": "cancelled",
    }


def test_ctrl_c_while_a_workspace_is_set_up_cancels_the_task(tmp_path: Path) -> None:
    # The terminal's Ctrl-C reaches the setup command as well, which dies of it: the task was
    # cancelled, not broken.
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    never = scripted_model(tmp_path / "never.json", {"text": "never asked"})
    tasks = write_tasks(
        tmp_path / "tasks.jsonl",
        [
            {
                "id": "setting-up",
                "prompt": "go",
                "cwd": "folder",
                "model": never,
                "setup": "touch started && sleep 60",
            }
        ],
    )
    out = tmp_path / "out"
    started = out / "workspaces" / "setting-up" / "started"
    terminal = Terminal(tmp_path / "home", ["batch", str(tasks), "--out", str(out)])
    try:
        deadline = time.monotonic() + 60
        while not started.exists():
            assert time.monotonic() < deadline, terminal.text
            time.sleep(0.05)
        terminal.type(b"\x03")
    finally:
        status = terminal.finish(timeout=60)
    assert status == 130, terminal.text
    [line] = results(out)
    assert line["status"] == "cancelled", line
    assert line["error"].startswith("cancelled while its workspace was prepared: setup exited")
