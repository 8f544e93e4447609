"""What a typed line means in the interactive `tether`, in a real pty read through pyte:
a mistyped `/command` is said and kept, never sent; `//` and a leading space send a slash."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import scripted_model, sessions_listed
from tests.cli.tui import TETHER, Tui
from tests.models.sse_server import json_reply, served_in_thread, sse_reply


def _said(home: Path) -> list[Any]:
    """The prompts the log holds, as their content."""
    logs = list((home / "sessions").glob("*.jsonl")) if (home / "sessions").exists() else []
    events = [json.loads(line) for path in logs for line in path.read_text().splitlines()]
    return [e["content"] for e in events if e["type"] == "user/message"]


def test_an_unknown_command_is_said_and_kept_a_slash_can_be_sent_and_ctrl_r_finds(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    """One session: a mistyped command, `//` and a leading space; then Ctrl+R through the
    history kept in TETHER_HOME (the lines typed here contain no `alp`)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "history").write_text(
        "\n# 2026-12-05 00:00:00.000000\n+first alpha prompt\n"
        "\n# 2026-12-05 00:00:01.000000\n+second beta prompt\n"
    )
    model = scripted_model(
        tmp_path / "s.json",
        {"text": "First answer."},
        {"text": "Second answer."},
        {"text": "Again."},
    )
    tui = Tui(home, ["--model", model], cwd=ws, columns=120)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("/review the last change")
    tui.wait_in_scrollback("unknown command /review; did you mean /rewind, /resume?")
    # Nothing went to the model; the line is back in the box to be corrected.
    tui.wait_for("› /review the last change")
    assert _said(home) == []
    tui.press("ctrl-c")  # clear the box
    tui.line("//review is a word here")
    tui.wait_for("First answer.")
    tui.line(" /usr/bin is gone")
    tui.wait_for("Second answer.")
    # A blank line between one turn and the next.
    lines = tui.everything.splitlines()
    assert lines[lines.index(">  /usr/bin is gone") - 1] == ""
    assert _said(home) == [
        [{"type": "text", "text": "/review is a word here"}],
        [{"type": "text", "text": " /usr/bin is gone"}],
    ]

    # Ctrl+R shows the match as the search is typed.
    tui.type("\x12")  # Ctrl+R, once
    tui.wait_for("I-search backward:")
    tui.type("alp")
    tui.wait_for("› first alpha prompt")
    tui.press("enter")  # takes the match into the box
    tui.wait_gone("I-search")
    tui.press("enter")
    tui.wait_for("Again.")
    assert _said(home)[-1] == [{"type": "text", "text": "first alpha prompt"}]
    tui.press("ctrl-d")
    assert tui.finish() == 0


@pytest.fixture
def failing_twice() -> Iterator[str]:
    """An OpenAI-compatible server on loopback: HTTP 500 twice (retry after 1 s), then an
    answer; its base URL."""
    down = json_reply(500, {"error": {"message": "down"}}, {"retry-after": "1"})
    with served_in_thread(
        lambda server: server.queue(down, down, sse_reply("openai_text.sse"))
    ) as server:
        yield server.url


def test_each_retry_says_so_on_the_spinner_line(
    tmp_path: Path, ws: Path, tuis: list[Tui], failing_twice: str
) -> None:
    home = tmp_path / "home"
    args = ["--model", "openai:m", "--base-url", f"{failing_twice}/v1", "--api-key", "k"]
    tui = Tui(home, args, cwd=ws, columns=120)
    tuis.append(tui)
    tui.wait_for("m ·")
    tui.line("hello")
    host = failing_twice.removeprefix("http://")
    tui.wait_for(f"retrying in 1.0 s · 500 from {host} (2/4)")
    tui.wait_for(f"retrying in 1.0 s · 500 from {host} (3/4)")
    tui.wait_for("Done: both files are fine.")
    tui.press("ctrl-d")
    assert tui.finish() == 0


def _state(tui: Tui) -> str:
    """The process state letter of tether itself, under its shell (`T` when stopped)."""
    shell = tui.child.pid
    [pid] = Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0]


JOB_SHELL = (
    "bash",
    "-c",
    # A shell with job control, as a person's: tether runs as its job; when it stops the
    # shell says so and, given a line, brings it back with `fg`.
    'set -m; "$@"; echo "[stopped: type fg]"; read -r _; fg %1',
    "-",
    str(TETHER),
)


def test_word_keys_the_editor_suspend_and_esc_esc(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    home = tmp_path / "home"
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nprintf 'from the editor' > \"$1\"\n")
    editor.chmod(0o755)
    model = scripted_model(tmp_path / "s.json", {"text": "First answer."})
    env = {"EDITOR": str(editor), "VISUAL": str(editor)}
    tui = Tui(home, ["--model", model], cwd=ws, columns=100, env=env, program=JOB_SHELL)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    # Alt+B goes a word back: what is typed next lands before `beta`.
    tui.type("alpha beta")
    tui.type("\x1bb")
    tui.type("X")
    tui.wait_for("› alpha Xbeta")
    tui.press("ctrl-c")
    tui.wait_gone("alpha")
    # Ctrl+G: the prompt is written in $EDITOR and comes back into the box, unsent.
    tui.type("\x07")
    tui.wait_for("› from the editor")
    tui.press("ctrl-c")
    tui.wait_gone("from the editor")
    # Ctrl+Z stops tether as a job of its shell (the key is not typed into the box); `fg`
    # brings the screen back.
    tui.type("\x1a")
    tui.wait_in_scrollback("[stopped: type fg]")
    assert _state(tui) == "T"
    tui.line("fg")
    tui.wait_for("script:s.json")
    tui.type("still here")
    tui.wait_for("› still here")
    tui.press("ctrl-c")
    tui.line("hello")
    tui.wait_for("First answer.")
    # Esc twice on an empty box with nothing running: the rewind picker.
    tui.press("esc")
    tui.press("esc")
    tui.wait_for("Rewind to before which prompt?")
    tui.press("esc")
    tui.wait_gone("Rewind to before which prompt?")
    tui.press("ctrl-d")
    assert tui.finish() == 0


@pytest.fixture
def serving_models() -> Iterator[str]:
    """An OpenAI-compatible server on loopback that lists two models; its base URL."""
    listed = {
        "object": "list",
        "data": [
            {"id": name, "object": "model", "created": 0, "owned_by": "local"}
            for name in ("m", "qwen-coder-local")
        ],
    }
    with served_in_thread(lambda server: server.queue(json_reply(200, listed))) as server:
        yield server.url


def test_resume_tells_forks_apart_by_id_and_model_lists_what_an_endpoint_serves(
    tmp_path: Path, ws: Path, tuis: list[Tui], serving_models: str
) -> None:
    """One session on an OpenAI-compatible endpoint: `/resume` names the sessions `tether run`
    made (a fork among them) by id; `/model` lists the models the endpoint serves."""
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "run.json", {"text": "Answer."}, {"text": "Again."})
    made = tether_in_process(home, "run", "the first question", "--model", model, "--cwd", str(ws))
    assert made.returncode == 0, made.stderr
    [first] = [s["id"] for s in sessions_listed(home, tether_in_process)]
    fork = tether_in_process(
        home, "run", "--fork", first, "go on", "--model", model, "--cwd", str(ws)
    )
    assert fork.returncode == 0, fork.stderr
    ids = [s["id"] for s in sessions_listed(home, tether_in_process)]
    assert len(ids) == 2
    args = ["--model", "openai:m", "--base-url", f"{serving_models}/v1", "--api-key", "k"]
    tui = Tui(home, args, cwd=ws, columns=120)
    tuis.append(tui)
    tui.wait_for("m ·")
    tui.line("/resume")
    tui.wait_for("Resume which session?")
    for session_id in ids:  # each waited for: a snapshot taken mid-redraw may lack a row
        tui.wait_for(f"the first question · {session_id[:8]} · ")
    tui.press("esc")
    tui.wait_gone("Resume which session?")

    tui.line("/model")
    tui.wait_for("Which model?")
    tui.wait_for("qwen-coder-local")
    [number] = re.findall(r"(\d)\. qwen-coder-local", tui.display)
    tui.type(number)
    tui.wait_in_scrollback("model: qwen-coder-local (from the next request)")
    tui.press("ctrl-d")
    assert tui.finish() == 0
