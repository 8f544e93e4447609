"""`/rewind` in the interactive terminal: the prompt picker, the three choices, and a
conflict asked in a picker; driven with keys in a real pseudo-terminal."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.support import scripted_model
from tests.cli.tui import Tui


def _write(call_id: str, path: str) -> dict[str, object]:
    return {
        "toolCalls": [
            {"id": call_id, "name": "write", "arguments": {"path": path, "content": "x\n"}}
        ]
    }


def test_rewind_code_and_conversation_with_a_conflict(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    home = tmp_path / "home"
    model = scripted_model(
        tmp_path / "model.json",
        _write("w1", "notes.md"),
        {"text": "Wrote the notes."},
        _write("w2", "todo.md"),
        {"text": "Wrote the list."},
    )
    tui = Tui(home, ["--model", model, "--mode", "auto"], cwd=ws, columns=120, rows=30)
    tuis.append(tui)
    tui.wait_for("script:model.json")
    tui.line("write the notes")
    tui.wait_for("Wrote the notes.")
    tui.line("write the list")
    tui.wait_for("Wrote the list.")
    assert (ws / "notes.md").exists() and (ws / "todo.md").exists()
    (ws / "todo.md").write_text("x\nmy own line\n")  # the person adds to it

    # The picker lists the prompts newest first, with what each changed.
    tui.line("/rewind")
    # Numbered once, by the picker; the prompt's own number is in its detail.
    tui.wait_for_all(
        "Rewind to before which prompt?",
        "1. write the list  prompt 2 · todo.md +1 -0",
        "2. write the notes  prompt 1 · notes.md +1 -0",
    )
    tui.press("down", "enter")
    tui.wait_for_all(
        "Rewind to before prompt 1: write the notes", "Code and conversation", "Conversation only"
    )
    tui.press("enter")
    # todo.md changed after tether wrote it: its diff, then a question; take the checkpoint.
    tui.wait_for("Restore todo.md?")
    assert "-my own line" in tui.everything
    tui.press("down", "enter")
    tui.wait_in_scrollback("rewind: restored 2 files to before prompt 1")
    assert not (ws / "notes.md").exists() and not (ws / "todo.md").exists()
    tui.wait_for("› write the notes")  # the prompt is back in the input box, to edit
    logs = [json.loads(p.read_text().splitlines()[0]) for p in (home / "sessions").glob("*.jsonl")]
    forks = [h for h in logs if "forkedFrom" in h]
    assert len(logs) == 2 and len(forks) == 1 and forks[0]["forkedFrom"]["seq"] == 0
    # The original's log says what was done, as the command that does it, for any replay.
    original = home / "sessions" / f"{forks[0]['forkedFrom']['id']}.jsonl"
    events = [json.loads(line) for line in original.read_text().splitlines()[1:]]
    commands = [e for e in events if e["type"] == "user/command"]
    assert [c["text"] for c in commands] == ["/rewind 1", "/fork 1"]
    assert commands[1]["fork"] == forks[0]["id"] and commands[1]["prompt"] == 1
    restore = events[events.index(commands[0]) + 1]
    assert restore["type"].startswith("checkpoint/"), restore
    tui.press("ctrl-c")
    tui.press("ctrl-d")
    assert tui.finish() == 0
