"""The interactive `tether` in a real pseudo-terminal, read through a terminal emulator.

Each test drives the real program the way a person would (keys, not function calls) and
checks the screen and the scrollback, at 80 and 160 columns; the scripted model answers.
"""

from __future__ import annotations

import json
import re
import signal
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.cli.in_process import tether_in_process
from tests.cli.support import logged_records, scripted_model
from tests.cli.tui import Tui
from tests.hooks.scripts import group, recorded, recorder
from tests.processes import processes_with


@pytest.fixture
def app(ws: Path) -> Path:
    """A workspace with `src/greet.py`, misspelled, and a file ignored by `.gitignore`."""
    (ws / "src").mkdir()
    (ws / "src" / "greet.py").write_text('def greet(name):\n    return "Helo, " + name\n')
    (ws / ".gitignore").write_text("build/\n")
    (ws / "build").mkdir()
    (ws / "build" / "greet_generated.py").write_text("x = 1\n")
    return ws


def _poll(condition: Any, what: str, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {within} s"
        time.sleep(0.05)


def test_a_day_starts_at_80_columns(tmp_path: Path, app: Path, tuis: list[Tui]) -> None:
    """Streamed Markdown and cards, an edit approved in place, a rejection the model reads,
    Shift+Tab through the modes, Ctrl+D with the resume hint, and the terminal as it was."""
    home = tmp_path / "home"
    edit = {"path": "src/greet.py", "old_string": "Helo", "new_string": "Hello"}
    hi = {"path": "src/greet.py", "old_string": "Hello", "new_string": "Hi"}
    model = scripted_model(
        tmp_path / "s.json",
        {
            "text": "## Findings\n\nThe **greeting** is misspelled.\n\n- read it\n- fix it\n",
            "toolCalls": [{"id": "r", "name": "read", "arguments": {"path": "src/greet.py"}}],
        },
        {"toolCalls": [{"id": "e", "name": "edit", "arguments": edit}]},
        {"text": "Fixed the greeting."},
        {"toolCalls": [{"id": "e2", "name": "edit", "arguments": hi}]},
        {"text": "I will keep Hello then."},
    )
    before, after = tmp_path / "stty.before", tmp_path / "stty.after"
    tui = Tui(home, ["--model", model], cwd=app, columns=80, stty_to=(before, after))
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("fix the greeting")
    # The question's rows come after its title, maybe in a later read.
    tui.wait_for_all("Allow Edit", "Always allow edits of src/greet.py for this session")
    # The change is on screen before the question, with its line numbers and context.
    shown = tui.everything
    assert "Findings" in shown and "##" not in shown
    assert "The greeting is misspelled." in shown and "**" not in shown
    assert "● Read 2 lines ·" in shown  # a read is one line
    assert re.search(r"1 1 │\s+def greet\(name\):", shown)
    assert re.search(r"2\s+│ -\s+return \"Helo, \" \+ name", shown)
    assert re.search(r"2 │ \+\s+return \"Hello, \" \+ name", shown)
    tui.wait_for("enter to choose")  # keys answer once the question's guard time is over
    tui.type("1")
    tui.wait_for("Fixed the greeting.")
    assert "✓ allowed once · applied" in tui.everything
    assert (app / "src" / "greet.py").read_text().endswith('"Hello, " + name\n')

    tui.line("now say hi")
    tui.wait_for_all("Allow Edit", "Reject and tell the model what to do instead")
    # The policy's own choices come first (a project rule may add one): find the last.
    [number] = re.findall(r"(\d)\. Reject and tell the model what to do instead", tui.display)
    tui.wait_for("enter to choose")
    tui.type(number)
    tui.wait_for("What should the model do instead?")
    tui.line("keep Hello, it is right")
    tui.wait_for("I will keep Hello then.")
    assert "✕ rejected · not applied" in tui.everything
    assert "↳ instead: keep Hello, it is right" in tui.everything
    assert "Hello" in (app / "src" / "greet.py").read_text()
    results = [e for e in logged_records(home) if e["type"] == "tool/result"]
    assert results[-1]["permission"] == "reject"
    assert "The person says to do this instead: keep Hello, it is right" in json.dumps(
        results[-1]["content"]
    )

    for mode in ("accept-edits", " auto ", "plan", "ask ·"):
        tui.press("shift-tab")
        tui.wait(lambda m=mode: m in tui.status_bar, f"mode {mode!r}")
    tui.press("ctrl-d")
    assert tui.finish() == 0
    [header] = [e for e in logged_records(home) if e["type"] == "session"]
    assert f"Resume: tether --continue  ·  tether --resume {header['id']}" in tui.everything
    assert before.read_text() == after.read_text()


def test_esc_a_queue_and_the_menus_at_160_columns(
    tmp_path: Path, app: Path, tuis: list[Tui]
) -> None:
    """A prompt typed while a turn runs waits and is sent after it; Esc stops a running
    command and leaves no process; `/` and `@` open their menus."""
    home = tmp_path / "home"
    wait_for_go = "for i in $(seq 1 1200); do [ -e go ] && break; sleep 0.05; done; echo went"
    # A length of sleep no other run's has: its processes are found by their command line.
    sleeper = f"sleep 317.{uuid.uuid4().int % 10**12:012d}"
    seconds = sleeper.split()[1]
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "w", "name": "bash", "arguments": {"command": wait_for_go}}]},
        {"text": "The first is done."},
        {"text": "Answer to the queued one."},
        {"toolCalls": [{"id": "s", "name": "bash", "arguments": {"command": sleeper}}]},
        {"text": "Still here after the interrupt."},
    )
    tui = Tui(home, ["--model", model, "--mode", "auto"], cwd=app, columns=160, rows=40)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("start waiting")
    tui.wait_for("esc to interrupt")
    tui.line("the queued one")
    tui.wait_for("queued: the queued one")
    (app / "go").touch()
    tui.wait_for("Answer to the queued one.")
    text = tui.everything
    assert text.index("The first is done.") < text.index("> the queued one")

    tui.line("sleep now")
    tui.wait_for("esc to interrupt")
    _poll(lambda: processes_with(seconds), "the sleep running")
    tui.line("never sent")
    tui.wait_for("queued: never sent")
    tui.press("esc")
    tui.wait_for("cancelled")
    # Interrupted, the queued prompt comes back into the box to be edited, not sent.
    tui.wait(lambda: "› never sent" in tui.display, "the queued prompt back in the box")
    tui.press("ctrl-c")
    _poll(lambda: not processes_with(seconds), "no sleep left")
    tui.line("are you there")
    tui.wait_for("Still here after the interrupt.")

    def stops() -> list[str]:
        return [e["stopReason"] for e in logged_records(home) if e["type"] == "turn/end"]

    # The reply is on screen a moment before its turn's end is in the log.
    _poll(lambda: len(stops()) == 4, "the last turn's end logged")
    assert stops() == ["end_turn", "end_turn", "cancelled", "end_turn"]

    tui.type("/")
    # The first rows of the menu (it scrolls to the rest).
    tui.wait_for_all("Keys and commands", "/compact", "/help", "/clear")
    tui.type("cle")
    tui.wait(lambda: "Keys and" not in tui.display and "/clear" in tui.display, "/clear alone")
    tui.press("esc", "ctrl-c")
    tui.wait_gone("/clear")
    tui.type("look at @gre")
    tui.wait_for("src/greet.py")
    assert "greet_generated" not in tui.display  # ignored by .gitignore
    tui.press("tab")
    tui.wait_for("look at @src/greet.py")
    tui.press("ctrl-c", "ctrl-c")
    tui.wait_for("press Ctrl+C again to exit")
    tui.press("ctrl-c")
    assert tui.finish() == 0


def test_resume_a_session_of_tether_run_then_clear(
    tmp_path: Path, app: Path, tuis: list[Tui]
) -> None:
    """`/resume` replays a session `tether run` made and continues it; `/clear` starts anew;
    `tether -c PROMPT` opens the newest; SIGTERM leaves the terminal as it was."""
    home = tmp_path / "home"
    first = scripted_model(tmp_path / "run.json", {"text": "Answer from run."})
    made = tether_in_process(home, "run", "the first question", "--model", first, "--cwd", str(app))
    assert made.returncode == 0, made.stderr
    record, inputs = recorder(tmp_path)
    # The recorder writes outside the workspace: it runs outside the sandbox.
    unsandboxed = group(record, sandbox=False)
    both = {"SessionStart": [unsandboxed], "SessionEnd": [unsandboxed]}
    (home / "settings.json").write_text(json.dumps({"hooks": both}))
    model = scripted_model(
        tmp_path / "s.json",
        {"text": "Answer to the follow-up."},
        {"text": "Answer in a new session."},
        {"text": "Answer after continue."},
    )
    tui = Tui(home, ["--model", model], cwd=app, columns=100)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("/resume")
    tui.wait_for_all("Resume which session?", "the first question")
    tui.press("enter")
    tui.wait_in_scrollback("Answer from run.")
    assert "> the first question" in tui.everything
    tui.line("a follow-up")
    tui.wait_for("Answer to the follow-up.")
    [resumed] = list((home / "sessions").glob("*.jsonl"))
    assert "a follow-up" in resumed.read_text()

    tui.line("/clear")
    tui.wait_for("new session")
    tui.line("fresh start")
    tui.wait_for("Answer in a new session.")
    assert len(list((home / "sessions").glob("*.jsonl"))) == 2
    tui.press("ctrl-d")
    assert tui.finish() == 0
    # The hooks heard why each session started and ended.
    ran = [(i["hook_event_name"], i.get("source") or i.get("reason")) for i in recorded(inputs)]
    assert ran == [
        ("SessionStart", "resume"),
        ("SessionEnd", "clear"),
        ("SessionStart", "clear"),
        ("SessionEnd", "prompt_input_exit"),
    ]

    before, after = tmp_path / "stty.before", tmp_path / "stty.after"
    again = Tui(home, ["--model", model, "-c", "go on"], cwd=app, stty_to=(before, after))
    tuis.append(again)
    again.wait_for("Answer to the follow-up.")  # the scripted model starts over
    assert "> fresh start" in again.everything  # the newest session, replayed
    again.press("up")  # the history is kept in TETHER_HOME
    again.wait_for("› fresh start")
    again.signal_tether(signal.SIGTERM)
    assert again.finish() == 0
    assert before.read_text() == after.read_text()


SGR_COLOUR = re.compile(r"\x1b\[(?:[0-9]*;)*(?:3[0-7]|9[0-7]|4[0-7]|10[0-7]|38|48)(?:;[0-9]*)*m")
"""A select-graphic-rendition sequence that sets a colour (bold, dim or reverse do not)."""


def test_narrow_without_colour_commands_a_shell_line_errors_and_a_long_paste(
    tmp_path: Path, app: Path, tuis: list[Tui]
) -> None:
    """At 60 columns with NO_COLOR: no colour at all; a resize redraws; `!command` reaches
    the model with the next prompt; /help, /usage, /model, /mode, /transcript; a model error
    is printed and the session goes on; new lines with Alt+Enter and Ctrl+J; a long paste
    is one token in the box and sent whole."""
    home = tmp_path / "home"
    other = scripted_model(tmp_path / "other.json", {"text": "Answer of the other model."})
    model = scripted_model(
        tmp_path / "s.json",
        {"text": "Saw it.", "usage": {"inputTokens": 64000, "outputTokens": 100}},
        {"error": "the provider is down"},
    )
    tui = Tui(home, ["--model", model], cwd=app, columns=60, env={"NO_COLOR": "1"})
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("!echo from-the-shell")
    # Typed by the person: it runs at once, though the mode is ask (in the sandbox).
    output = re.compile(r"^[│ ]*from-the-shell[│ ]*$", re.MULTILINE)
    tui.wait(lambda: output.search(tui.everything) is not None, "the command's output")
    assert "Allow echo" not in tui.everything
    tui.line("what did I run?")
    tui.wait_for("Saw it.")
    logged = _the_command_logged(home)
    [said] = [e for e in logged if e["type"] == "user/message"]
    [ran] = [e for e in logged if e["type"] == "tool/result"]
    assert ran["seq"] < said["seq"]  # logged when it ran, before the prompt that told of it
    assert "<bash-input>echo from-the-shell</bash-input>" in said["content"][0]["text"]
    assert "from-the-shell" in said["content"][0]["text"]
    assert [b["text"] for b in said["shown"]] == ["!echo from-the-shell", "what did I run?"]
    tui.wait(lambda: "50% of 128k" in tui.status_bar, "the budget in the status bar")

    tui.line("and now?")
    tui.wait_for("error: the provider is down")
    tui.line("/usage")
    tui.wait_for("64,000")
    tui.line("/model " + other)
    tui.wait_for("model: script:other.json (from the next request)")
    tui.line("one more")
    tui.wait_for("Answer of the other model.")
    tui.line("/help")
    tui.wait_in_scrollback("Shift+Tab")
    tui.line("/mode")
    tui.wait_for("Which mode?")
    tui.type("3")
    tui.wait(lambda: " auto " in tui.status_bar, "auto in the status bar")
    tui.resize(120, 30)
    tui.wait(lambda: "compacts at 80%" in tui.status_bar, "the wider status bar")
    tui.line("/transcript")  # PAGER=cat: the whole session, written out
    tui.wait(lambda: tui.everything.count("Answer of the other model.") == 2, "the transcript")

    _new_lines_and_a_paste(tui, home)
    tui.press("ctrl-d")
    assert tui.finish() == 0
    assert not SGR_COLOUR.search(tui.raw), "a colour was written despite NO_COLOR"

    _the_command_replayed(home, app, model, tuis)


def _the_command_logged(home: Path) -> list[dict[str, Any]]:
    """The `!command` run is in the log as the person's own call; the log, read."""
    logged = logged_records(home)
    ran = [e for e in logged if e["type"].startswith("tool/")]
    assert [(e["type"], e["toolCallId"]) for e in ran] == [
        ("tool/call", "shell"),
        ("tool/result", "shell"),
    ]
    assert json.loads(ran[0]["arguments"])["command"] == "echo from-the-shell"
    assert "permission" not in ran[1]  # nobody was asked: the person typed it
    return logged


def _the_command_replayed(home: Path, app: Path, model: str, tuis: list[Tui]) -> None:
    """`show` and a continued session replay the command's card where it ran."""
    shown = tether_in_process(home, "show", logged_records(home)[0]["id"])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.index("$ echo from-the-shell") < shown.stdout.index("from-the-shell\n")
    assert shown.stdout.index("from-the-shell\n") < shown.stdout.index("what did I run?")
    again = Tui(home, ["--continue", "--model", model], cwd=app, columns=60, env={"NO_COLOR": "1"})
    tuis.append(again)
    again.wait_in_scrollback("Saw it.")
    assert again.everything.index("$ echo from-the-shell") < again.everything.index("Saw it.")
    again.press("ctrl-d")
    assert again.finish() == 0


def _new_lines_and_a_paste(tui: Tui, home: Path) -> None:
    """Alt+Enter and Ctrl+J break the line; a long paste is one token, sent whole."""
    tui.type("two")
    tui.press("alt-enter")
    tui.type("lines")
    tui.press("ctrl-j")
    tui.type("three")
    tui.wait_for("  three")
    tui.press("enter")
    tui.wait_in_scrollback("> two")
    said = [e for e in logged_records(home) if e["type"] == "user/message"][-1]
    assert said["content"][0]["text"] == "two\nlines\nthree"

    block = "\n".join(f"pasted line {n}" for n in range(1, 21))
    tui.type(f"look: \x1b[200~{block}\x1b[201~")
    tui.wait_for("look: [Pasted text #1 +20 lines]")
    tui.press("enter")
    tui.wait_in_scrollback("pasted line 20")
    said = [e for e in logged_records(home) if e["type"] == "user/message"][-1]
    assert said["content"][0]["text"] == f"look: {block}"
