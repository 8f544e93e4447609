"""`tether run` and `show` on a real pty: see the change before approving, live output, Markdown.

Each test drives a real `tether` process whose stdin, stdout and stderr are one pseudo-terminal,
so what is checked is what a person at that terminal sees, in the order they see it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import into_head, scripted_model, tether
from tests.cli.terminal import Terminal, plain
from tests.models.sse_server import Reply, served_in_thread
from tests.polling import until_file
from tether.session import SessionStore


def _only_session(home: Path) -> str:
    listed = tether_in_process(home, "sessions", "--json")
    [row] = json.loads(listed.stdout)
    session_id: str = row["id"]
    return session_id


def test_the_proposed_change_comes_before_the_question_and_a_rejection_is_marked(
    tmp_path: Path, ws: Path, hello: Path
) -> None:
    home = tmp_path / "home"
    edit = {"path": "hello.py", "old_string": 'print("hello")', "new_string": 'print("bye")'}
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "hello.py"}}]},
        {"text": "I will change it", "toolCalls": [{"id": "e", "name": "edit", "arguments": edit}]},
        {"text": "Left as it was."},
    )
    term = Terminal(home, ["run", "say bye", "--model", model, "--cwd", str(ws)])
    seen = term.wait_for("[n]o: ")
    # The diff is on screen first; the question starts a line of its own.
    proposed = seen.index('print("bye")')
    question = seen.index("Allow ")
    assert proposed < question
    assert seen[question - 1] == "\n"
    assert "I will change it" in seen[:proposed]
    term.type(b"n\n")
    assert term.finish() == 0
    out = term.text
    assert "✕ rejected · not applied" in out
    assert hello.read_text() == 'print("hello")\n'

    show = tether_in_process(home, "show", _only_session(home))
    assert show.returncode == 0, show.stderr
    shown = show.stdout
    assert shown.index('print("bye")') < shown.index("✕ rejected · not applied")
    assert "Allow " not in shown


def test_bash_output_is_live_with_a_spinner_and_elapsed_time(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    # The second line waits for the test to see the first (a file appears), not for a clock.
    command = f"printf 'out-%s\\n' one; {until_file('go')}; printf 'out-%s\\n' two"
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "b", "name": "bash", "arguments": {"command": command}}]},
        {"text": "Both lines printed."},
    )
    args = ["run", "count", "--model", model, "--cwd", str(ws), "--mode", "auto"]
    term = Terminal(home, args, columns=200)  # the spinner's line holds the whole command
    seen = term.wait_for("out-one", timeout=20)
    # The first line shows while the command still runs, under a spinner with the time.
    assert "out-two" not in seen
    assert term.process.poll() is None
    assert re.search(r"running printf .* · \d+\.\ds", seen)
    (ws / "go").touch()
    assert term.finish() == 0
    out = term.text
    assert "out-two" in out and "exit 0" in out and "Both lines printed." in out


def test_markdown_is_rendered_in_run_and_show(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    text = (
        "## Findings\n\nThe **greeting** is fine.\n\n"
        "| file | lines |\n|---|---|\n| hello.py | 1 |\n\n"
        "- [x] read it\n- [ ] change it\n\n```python\nprint('hi')\n```\n"
    )
    model = scripted_model(tmp_path / "s.json", {"text": text})
    run = tether_in_process(home, "run", "look", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Findings" in out and "##" not in out
    assert "The greeting is fine." in out and "**" not in out
    assert "hello.py" in out and "|---|" not in out
    assert "print('hi')" in out and "```" not in out
    show = tether_in_process(home, "show", _only_session(home))
    assert show.stdout == run.stdout


def _chunk(data: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(data).encode() + b"\n\n"


@pytest.fixture
def stalling_model() -> Iterator[str]:
    """An OpenAI-compatible server that streams part of an answer, then goes quiet."""
    # One delta carries the heading and the unfinished paragraph: once the heading is printed,
    # all of the paragraph has arrived (two deltas let a loaded machine print the heading and
    # take the Ctrl-C before the second was read).
    pieces = ["## Partial answer\n\nThe first **point** is that the"]
    chunks = tuple(
        _chunk(
            {
                "id": "x",
                "object": "chat.completion.chunk",
                "model": "m",
                "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
            }
        )
        for piece in pieces
    )
    stalled = Reply(headers={"content-type": "text/event-stream"}, chunks=chunks, hold=True)
    with served_in_thread(lambda server: server.queue(stalled)) as server:
        yield f"{server.url}/v1"


def test_ctrl_c_keeps_what_was_printed_of_the_answer(
    tmp_path: Path, ws: Path, stalling_model: str
) -> None:
    home = tmp_path / "home"
    args = ["run", "explain", "--model", "openai:m", "--base-url", stalling_model]
    term = Terminal(home, [*args, "--api-key", "k", "--cwd", str(ws)])
    term.wait_for("Partial answer")
    term.wait_for("writing")
    term.type(b"\x03")
    assert term.finish() == 130
    out = term.text
    assert "The first point is that the" in out
    assert "cancelled" in out


def test_ctrl_c_on_a_running_command_marks_it_failed_live_and_in_show(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    command = "echo begun-$((6 * 7)); sleep 30"
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": command}}]},
        {"text": "Never asked for: the turn was cancelled."},
    )
    args = ["run", "wait", "--model", model, "--cwd", str(ws), "--mode", "auto"]
    term = Terminal(home, args)
    term.wait_for("begun-42")
    term.type(b"\x03")
    assert term.finish() == 130
    # The card keeps its output; its footer says how it ended and that the call failed.
    for shown in (term.text, tether_in_process(home, "show", _only_session(home)).stdout):
        assert "begun-42" in shown
        [footer] = [line for line in shown.splitlines() if "SIGTERM" in line]
        assert "failed" in footer
        assert "Never asked for" not in shown


def test_a_long_read_is_collapsed_unless_verbose(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    ws.joinpath("big.py").write_text("".join(f"line_{n} = {n}\n" for n in range(1, 2001)))
    ws.joinpath("wide.txt").write_text("".join(f"{n:04} {'.' * 200}\n" for n in range(400)))
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "big.py"}}]},
        {"toolCalls": [{"id": "w", "name": "read", "arguments": {"path": "wide.txt"}}]},
        {"text": "Read."},
    )
    run = tether_in_process(home, "run", "read", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) < 70, len(lines)
    # The wide file was cut by the output cap, and its card says so.
    assert "cut at the 50 KB output cap" in run.stdout
    assert "line_1 = 1" in run.stdout and "… " in run.stdout and " lines …" in run.stdout
    session = _only_session(home)
    full = tether_in_process(home, "show", session, "--verbose")
    assert len(full.stdout.splitlines()) > 1000
    assert "line_700 = 700" in full.stdout


def test_version_and_a_prompt_from_stdin(tmp_path: Path, ws: Path) -> None:
    import subprocess

    from tests.cli.support import TETHER

    version = tether(tmp_path, "--version")
    assert version.returncode == 0
    assert version.stdout.startswith("tether ")
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "Got it."})
    run = subprocess.run(
        [str(TETHER), "run", "-", "--model", model, "--cwd", str(ws)],
        input="a prompt\nwith two lines\n",
        env={"TETHER_HOME": str(home), "PATH": "/usr/bin:/bin", "COLUMNS": "100"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "> a prompt" in run.stdout and "with two lines" in run.stdout
    assert "Got it." in run.stdout


def test_a_missing_api_key_creates_no_session(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    for _ in range(2):
        run = tether_in_process(home, "run", "hi", "--model", "anthropic", "--cwd", str(ws))
        assert run.returncode == 1
        assert "No API key" in run.stderr
        assert "or save one with /login in `tether`" in run.stderr  # where a key can go
    assert json.loads(tether_in_process(home, "sessions", "--json").stdout) == []


def test_sessions_piped_into_head_ends_quietly(tmp_path: Path, ws: Path) -> None:
    import subprocess

    from tests.cli.support import TETHER

    home = tmp_path / "home"
    # More sessions than a pipe holds, so the writer is still writing when `head` leaves.
    store = SessionStore(home)
    for _ in range(400):
        store.create(ws).close()
    pipeline = subprocess.run(
        f"'{TETHER}' sessions --json | head -c 10",
        shell=True,
        env={"TETHER_HOME": str(home), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert pipeline.returncode == 0
    assert "Traceback" not in pipeline.stderr and "BrokenPipe" not in pipeline.stderr


@pytest.mark.parametrize("shown", [["show"], ["show", "--json"]], ids=" ".join)
def test_show_piped_into_head_ends_quietly(tmp_path: Path, ws: Path, shown: list[str]) -> None:
    home = tmp_path / "home"
    # A reply longer than a pipe holds, so `show` is still writing when `head` leaves.
    model = scripted_model(tmp_path / "s.json", {"text": "word " * 40_000})
    assert tether_in_process(home, "run", "hi", "--model", model, "--cwd", str(ws)).returncode == 0
    session = json.loads(tether_in_process(home, "sessions", "--json").stdout)[0]["id"]
    stderr = into_head({"TETHER_HOME": str(home), "PATH": "/usr/bin:/bin"}, *shown, session)
    # No error line either (`show` prints only its header on stderr).
    assert "error" not in stderr


def test_sessions_at_80_columns_show_titles_ids_and_cwds(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    title = "refactor the inventory module so that every item has a price"
    for prefix in ("First", "Then"):
        run = tether_in_process(
            home, "run", f"{prefix} {title}", "--model", model, "--cwd", str(ws)
        )
        assert run.returncode == 0
    term = Terminal(home, ["sessions"], columns=80)
    assert term.finish() == 0
    listed = term.text
    rows = json.loads(tether_in_process(home, "sessions", "--json").stdout)
    for row in rows:
        # Far more of the title than the 37 characters it used to keep.
        line = next(line for line in listed.splitlines() if row["title"][:48] in line)
        shown_id = line.split()[0]
        assert row["id"].startswith(shown_id) and len(shown_id) >= 8
        assert not any(r["id"].startswith(shown_id) for r in rows if r is not row)
        assert len(line) <= 80
    assert plain(listed).count(ws.name) == 2


def test_an_approved_command_and_an_allowed_edit_are_each_shown_once(
    tmp_path: Path, ws: Path, hello: Path
) -> None:
    """One run, two answers: the command's card is titled by its description and shown once
    (its result, then the answer that let it run); the edit is shown once, marked applied."""
    home = tmp_path / "home"
    call = {"command": "printf 'out-%s\\n' one", "description": "Print one line"}
    edit = {"path": "hello.py", "old_string": 'print("hello")', "new_string": 'print("bye")'}
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "b", "name": "bash", "arguments": call}]},
        {"toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "hello.py"}}]},
        {"toolCalls": [{"id": "e", "name": "edit", "arguments": edit}]},
        {"text": "Done."},
    )
    term = Terminal(home, ["run", "print, then say bye", "--model", model, "--cwd", str(ws)])
    term.wait_for("[n]o: ")
    term.type(b"y\n")
    term.wait_until(lambda text: text.count("[n]o: ") == 2, "the edit's question")
    term.type(b"y\n")
    assert term.finish() == 0
    out = term.text
    assert "✓ allowed once · applied" in out
    assert out.count('print("bye")') == 1
    assert hello.read_text() == 'print("bye")\n'
    shown = tether_in_process(home, "show", _only_session(home)).stdout
    assert shown.count("printf 'out-%s") == 1
    # One card for the call, as the interactive terminal leaves it: the result, then the
    # answer that let it run.
    assert shown.count("Print one line") == 1
    result = shown[shown.index("Print one line") : shown.index("✓ allowed once")]
    assert "out-one" in result and "exit 0" in result and "sandbox" in result
