"""`tether batch` at a terminal: the live bar counts tasks and tokens, Ctrl-C typed there (the
whole foreground group gets it) cancels the running task, and the summary table follows."""

from __future__ import annotations

from pathlib import Path

from tests.batch.tasks import results, script, work, write_tasks
from tests.cli.terminal import Terminal


def test_the_bar_counts_and_ctrl_c_at_the_terminal_cancels(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    quick = work(tmp_path / "quick.json", "a.txt", "one", "two")
    slow = script(
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
