"""`tether` without a subcommand where nothing is drawn, and how arguments pick the command.

No pseudo-terminal here: stdin is a pipe, so the session reads one prompt per line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.cli.in_process import tether_in_process
from tests.cli.support import piped, scripted_model, sessions_listed
from tests.fresh import printed


def test_piped_lines_are_prompts_and_commands_of_one_session(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    model = scripted_model(
        tmp_path / "s.json",
        {"text": "First **answer**."},
        {"toolCalls": [{"id": "b", "name": "bash", "arguments": {"command": "echo ran"}}]},
        {"text": "Second answer."},
    )
    lines = "hello\n/help\n/resume\n/review x\n!ls\n/mode auto\nrun it\n"
    done = piped(home, lines, "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "> hello" in out and "First answer." in out and "**" not in out
    assert "/resume [id]  Open another session of this workspace" in out
    assert "/resume needs a terminal that can draw" in done.stderr
    # Not sent: the model's turns go to the prompts alone.
    assert "unknown command /review; did you mean /rewind, /resume?" in done.stderr
    assert "!command needs a terminal that can draw" in done.stderr
    assert "mode: auto" in done.stderr
    assert "ran" in out and "exit 0" in out and "Second answer." in out
    [row] = sessions_listed(home, tether_in_process)
    assert row["turns"] == 2
    assert f"Resume: tether --continue  ·  tether --resume {row['id']}" in done.stderr

    # `-c` opens it again, replays it, and goes on; a quoted prompt that starts with a
    # subcommand's name is a prompt.
    again = piped(home, "", "--model", model, "--cwd", str(ws), "-c", "run tests")
    assert again.returncode == 0, again.stderr
    assert "Second answer." in again.stdout and "> run tests" in again.stdout
    [row] = sessions_listed(home, tether_in_process)
    assert row["turns"] == 3


def test_exit_ends_the_lines_and_the_terminal_commands_go_through_dispatch(
    tmp_path: Path, ws: Path
) -> None:
    home = tmp_path / "home"
    model = scripted_model(tmp_path / "s.json", {"text": "First answer."}, {"text": "Never."})
    lines = "/help\nhello\n/model x\n/exit\nnot read\n"
    done = piped(home, lines, "--model", model, "--cwd", str(ws))
    assert done.returncode == 0, done.stderr
    assert "/exit  Leave (the session can be resumed)" in done.stdout
    assert "First answer." in done.stdout
    assert "/model needs a terminal that can draw" in done.stderr
    assert "not read" not in done.stdout and "Never." not in done.stdout
    [row] = sessions_listed(home, tether_in_process)
    assert row["turns"] == 1


def test_bad_arguments_and_a_bad_session_are_clear_errors(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "home"
    # In the test's process, with nothing on standard input (not a terminal), as `piped`
    # runs a process with no lines: what is checked is what the command says and exits with.
    bad = tether_in_process(home, "--mode", "sideways")
    assert bad.returncode == 2
    assert "usage: tether" in bad.stderr and "invalid choice: 'sideways'" in bad.stderr
    missing = tether_in_process(home, "--model", "script:/nowhere.json", "--cwd", str(ws))
    assert missing.returncode == 1 and "tether: error:" in missing.stderr
    model = scripted_model(tmp_path / "s.json", {"text": "x"})
    unknown = tether_in_process(home, "--model", model, "--cwd", str(ws), "--resume", "nosuch")
    assert unknown.returncode == 1 and "no session 'nosuch'" in unknown.stderr
    assert not (home / "sessions").exists() or not list((home / "sessions").iterdir())


def test_help_lists_the_interactive_options_and_every_subcommand(tmp_path: Path) -> None:
    shown = tether_in_process(tmp_path / "home", "--help")
    assert shown.returncode == 0
    assert "tether [options] [PROMPT]" in shown.stdout
    assert "--continue" in shown.stdout and "--resume" in shown.stdout
    for command in ("run", "sessions", "show", "demo", "acp", "web"):
        assert f"\n  {command} " in shown.stdout
    # Every description starts in the same column, the longest name's included.
    listed = shown.stdout.split("commands (tether COMMAND --help):\n", 1)[1].splitlines()
    starts = {len(line) - len(line[2:].split(" ", 1)[1].lstrip()) for line in listed if line}
    assert len(starts) == 1, listed
    run_help = tether_in_process(tmp_path / "home", "run", "--help")
    assert run_help.stdout.startswith("usage: tether run")


_EACH_COMMAND = """
import json, sys
from tether.cli import main
loaded = {}
for command in (["run", "hi", "--model", "script:/nowhere.json"], ["sessions"], ["show", "none"]):
    try:
        main(command)
    except SystemExit:
        pass
    loaded[command[0]] = sorted(m for m in sys.modules if m.startswith("prompt_toolkit"))
print(json.dumps(loaded))
"""
"""`run`, `sessions` and `show`, one after the other in one interpreter: what of
prompt_toolkit was loaded after each. A module once loaded stays, so none after the last means
that none of them loaded any (a module one imports would be there after it)."""


def test_run_sessions_and_show_never_import_prompt_toolkit(tmp_path: Path) -> None:
    env = {**os.environ, "TETHER_HOME": str(tmp_path / "home")}
    loaded = json.loads(printed(_EACH_COMMAND, env)[-1])
    assert loaded == {"run": [], "sessions": [], "show": []}
