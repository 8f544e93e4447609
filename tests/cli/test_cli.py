"""The command line with its own data directory: what `run`, `show`, `sessions` and `demo`
print, write and exit with, run in the test's process (`in_process.tether_in_process`), and a
real `tether` process where the test is about one: the installed command's output that `show`
must print again, and a run that asks its question on a terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.in_process import tether_in_process
from tests.cli.support import TETHER, scripted_model, sessions_listed, tether
from tether.cli.sessions import MIN_PREFIX, unique_prefix, unique_prefixes


@pytest.mark.usefixtures("hello")
def test_run_prints_text_and_cards_and_show_prints_the_same(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(
        tmp_path / "s.json",
        {
            "text": "Let me read it.",
            "toolCalls": [{"id": "c1", "name": "read", "arguments": {"path": "hello.py"}}],
        },
        {"text": "It prints hello."},
    )
    # The installed command as a process; `show` in this process must print the same.
    run = tether(home, "run", "What does hello.py do?", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    assert "> What does hello.py do?" in run.stdout
    assert "Let me read it." in run.stdout
    assert "hello.py" in run.stdout and "lines 1–1 of 1" in run.stdout
    assert 'print("hello")' in run.stdout
    assert "It prints hello." in run.stdout
    [row] = sessions_listed(home, tether_in_process)
    assert row["title"] == "What does hello.py do?"
    assert (row["cwd"], row["turns"]) == (str(ws), 1)
    assert f"tether show {row['id']}" in run.stderr

    show = tether_in_process(home, "show", row["id"][:14])
    assert show.returncode == 0, show.stderr
    assert show.stdout == run.stdout

    as_json = tether_in_process(home, "show", row["id"], "--json")
    document = json.loads(as_json.stdout)
    assert document["id"] == row["id"]
    kinds = [u["kind"] for u in document["updates"]]
    assert kinds[0] == "user_text" and kinds[-1] == "turn_ended"
    finished = next(u for u in document["updates"] if u["kind"] == "tool_call_finished")
    assert finished["view"]["card"] == "read"
    assert finished["result"]["isError"] is False


def test_run_continues_a_session(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    assert tether_in_process(home, "run", "one", "--model", model, "--cwd", str(ws)).returncode == 0
    [row] = sessions_listed(home, tether_in_process)
    again = tether_in_process(home, "run", "two", "--model", model, "--continue", row["id"])
    assert again.returncode == 0, again.stderr
    [row] = sessions_listed(home, tether_in_process)
    assert (row["turns"], row["title"]) == (2, "one")


def test_a_headless_run_in_ask_mode_rejects_commands_with_the_policy_error(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": "touch made"}}]},
        {"text": "It was refused."},
    )
    run = tether_in_process(home, "run", "make a file", "--model", model, "--cwd", str(ws))
    # A failed tool call is the model's to handle, but a refusal for want of someone to
    # approve it means the run did not do what was asked: exit 2, the card marked rejected.
    assert run.returncode == 2, run.stderr
    words = " ".join(run.stdout.replace("│", " ").split())
    assert "but there is no one to ask in this session; run with --mode auto" in words
    assert "✕ rejected · not applied: no one to approve it" in words
    assert "running…" not in words
    assert not (ws / "made").exists()


def test_a_model_error_fails_the_run(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"error": "the API key was rejected"})
    run = tether_in_process(home, "run", "hi", "--model", model, "--cwd", str(ws))
    assert run.returncode == 1
    assert "error: the API key was rejected" in run.stderr


def test_a_bad_model_spec_or_script_is_a_clear_error(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "bad.json").write_text('{"turns": 3}')
    bad = tether_in_process(
        home, "run", "hi", "--model", f"script:{tmp_path / 'bad.json'}", "--cwd", str(ws)
    )
    assert bad.returncode == 1
    assert "tether: error: bad model script" in bad.stderr
    unknown = tether_in_process(home, "run", "hi", "--model", "nonsense", "--cwd", str(ws))
    assert unknown.returncode == 1
    assert "unknown model 'nonsense'" in unknown.stderr


@pytest.mark.usefixtures("hello")
def test_the_step_cap_is_a_non_zero_exit(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    turn = {"toolCalls": [{"id": "c", "name": "read", "arguments": {"path": "hello.py"}}]}
    model = scripted_model(tmp_path / "s.json", *[turn] * 60)
    run = tether_in_process(
        home, "run", "loop", "--model", model, "--cwd", str(ws), "--mode", "auto"
    )
    assert run.returncode == 2
    assert "step limit" in run.stderr


def test_sessions_lists_newest_first_and_honours_the_limit(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "ok"})
    for prompt in ("alpha", "beta", "gamma"):
        assert (
            tether_in_process(home, "run", prompt, "--model", model, "--cwd", str(ws)).returncode
            == 0
        )
    assert [row["title"] for row in sessions_listed(home, tether_in_process)] == [
        "gamma",
        "beta",
        "alpha",
    ]
    limited = json.loads(tether_in_process(home, "sessions", "--json", "--limit", "2").stdout)
    assert [row["title"] for row in limited] == ["gamma", "beta"]
    assert set(limited[0]) == {"id", "cwd", "title", "createdAt", "updatedAt", "turns"}
    table = tether_in_process(home, "sessions")
    assert table.returncode == 0
    assert "gamma" in table.stdout and limited[0]["id"] in table.stdout


def test_show_of_an_unknown_session_is_an_error(tmp_path: Path) -> None:
    shown = tether_in_process(tmp_path / "home", "show", "nothere")
    assert shown.returncode == 1
    assert "no session 'nothere'" in shown.stderr


def test_demo_prints_the_four_cards_and_how_to_show_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    workspace = tmp_path / "demo"
    demo = tether_in_process(home, "demo", "--dir", str(workspace))
    assert demo.returncode == 0, demo.stderr
    out = demo.stdout
    assert f"{workspace.resolve()}/greet.py  lines 1–12 of 12" in out  # read
    assert "notes/issues.md  lines 1–6 of 49" in out  # windowed read
    assert (
        '-     return f"Helo, {name}!"' in out and '+     return f"Hello, {name}!"' in out
    )  # edit
    assert "$ python3 greet.py tether" in out and "Hello, tether!" in out and "exit 0" in out
    [row] = sessions_listed(home, tether_in_process)
    assert f"tether show {row['id']}" in out
    assert 'return f"Hello, {name}!"' in (workspace / "greet.py").read_text()
    shown = tether_in_process(home, "show", row["id"])
    assert shown.stdout in out


def test_demo_refuses_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    demo = tether_in_process(tmp_path / "home", "demo", "--dir", str(tmp_path / "full"))
    assert demo.returncode == 1
    assert "is not empty" in demo.stderr
    assert (tmp_path / "full" / "keep.txt").read_text() == "mine"


def test_a_run_at_a_terminal_asks_the_person(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(
        tmp_path / "s.json",
        {
            "toolCalls": [
                {"id": "c1", "name": "bash", "arguments": {"command": "touch first"}},
                {"id": "c2", "name": "bash", "arguments": {"command": "touch second"}},
            ]
        },
        {"text": "One of two."},
    )
    leader, follower = pty.openpty()
    env = {**os.environ, "TETHER_HOME": str(home), "COLUMNS": "120", "NO_COLOR": "1"}
    process = subprocess.Popen(
        [str(TETHER), "run", "make files", "--model", model, "--cwd", str(ws)],
        env=env,
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(follower)
    try:
        assert process.stderr is not None
        asked = _read_until(process.stderr.fileno(), b"[n]o: ")
        assert b"Allow touch first?" in asked or b"Allow touch second?" in asked
        os.write(leader, b"y\n")
        _read_until(process.stderr.fileno(), b"[n]o: ")
        os.write(leader, b"n\n")
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
        os.close(leader)
    assert process.returncode == 0, err
    made = sorted(p.name for p in ws.iterdir() if p.name in ("first", "second"))
    assert len(made) == 1
    assert "✕ rejected · not applied" in out.decode()


def _read_until(fd: int, marker: bytes) -> bytes:
    """Bytes from `fd` until `marker` shows up (bounded by a deadline)."""
    seen = b""
    deadline = time.monotonic() + 30
    while marker not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no {marker!r} in {seen!r}"
        readable, _, _ = select.select([fd], [], [], remaining)
        if readable:
            chunk = os.read(fd, 4096)
            assert chunk, f"the process closed stderr before {marker!r}: {seen!r}"
            seen += chunk
    return seen


@pytest.mark.usefixtures("hello")
def test_run_prints_search_cards_headless_in_ask_mode(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    (ws / "many.txt").write_text("".join(f"hello {i}\n" for i in range(300)))
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "g", "name": "grep", "arguments": {"pattern": "hello"}}]},
        {"toolCalls": [{"id": "f", "name": "glob", "arguments": {"pattern": "*.py"}}]},
        {"text": "Found."},
    )
    # Ask mode with no terminal: a search inside the workspace needs nobody.
    run = tether_in_process(home, "run", "Find hello", "--model", model, "--cwd", str(ws))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Grep hello" in out and "301 matches" in out
    assert "hello.py" in out and '1 │ print("hello")' in out
    # The card shows the first 20 matches (the model got 250) and counts the rest.
    assert "many.txt" in out and "19 │ hello 18" in out and "hello 19" not in out
    assert "… 281 more matches" in out
    verbose = tether_in_process(
        home, "show", sessions_listed(home, tether_in_process)[0]["id"], "--verbose"
    ).stdout
    assert "249 │ hello 248" in verbose and "… 51 more matches" in verbose
    assert "Glob *.py" in out and "1 file" in out
    [row] = sessions_listed(home, tether_in_process)
    assert tether_in_process(home, "show", row["id"]).stdout == out


def test_a_failed_call_shows_its_error_marked_failed_not_its_change(
    tmp_path: Path, ws: Path, hello: Path
) -> None:
    home = tmp_path / "home"
    edit = {"path": "hello.py", "old_string": "hello", "new_string": "bye"}
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "e", "name": "edit", "arguments": edit}]},
        {"text": "I must read it first."},
    )
    run = tether_in_process(
        home, "run", "edit", "--model", model, "--cwd", str(ws), "--mode", "auto"
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    # One card, titled by the call, with the error and the label; the diff is not drawn.
    assert "Edit hello.py" in out and "edit requires reading" in out
    assert "failed" in out.splitlines()[out.splitlines().index(_line_with(out, "requires")) + 1]
    assert "+ print" not in out and "bye" not in out
    assert hello.read_text() == 'print("hello")\n'


def _line_with(text: str, word: str) -> str:
    return next(line for line in text.splitlines() if word in line)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text("0123ab", min_size=1, max_size=14), max_size=30))
def test_unique_prefixes_are_the_shortest_no_other_id_starts_with(ids: list[str]) -> None:
    found = unique_prefixes(ids)
    for session_id in set(ids):
        expected = next(
            (
                session_id[:n]
                for n in range(MIN_PREFIX, len(session_id))
                if not any(o != session_id and o.startswith(session_id[:n]) for o in ids)
            ),
            session_id,
        )
        assert found[session_id] == expected == unique_prefix(session_id, ids)
