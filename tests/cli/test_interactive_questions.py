"""Permission questions in the interactive `tether`, in a real pty read through pyte.

A question opens by itself while the person may be typing the next prompt: keys that arrive
in its first moments go on into the draft, never answer it; a plain reject ends the turn and
gives the input box back, and the model is told where its turn stopped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.cli.support import logged_records, scripted_model
from tests.cli.tui import Tui

CHOOSE = "enter to choose"
"""The keys line of a question once keys answer it."""


def test_typing_cannot_answer_a_reject_ends_the_turn_and_a_call_leaves_one_card(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    """Keys typed as a question opens go on into the draft, and a reject ends the turn; then
    an approved command leaves one card (its result), never a stale `awaiting approval` one,
    and a change taller than the screen is cut with a count and `v` pages it whole."""
    home = tmp_path / "home"
    hazard = {"id": "h", "name": "bash", "arguments": {"command": "touch HAZARD.txt"}}
    body = "".join(f"line_{n} = {n}\n" for n in range(60))
    made = {"id": "m", "name": "bash", "arguments": {"command": "echo made-by-$((6 * 7))"}}
    write = {"id": "w", "name": "write", "arguments": {"path": "big.py", "content": body}}
    # Had the turn gone on after the reject, it would have taken "Noted." at once.
    model = scripted_model(
        tmp_path / "s.json",
        {"text": "Making it.", "toolCalls": [hazard]},
        {"text": "Noted."},
        {"toolCalls": [made]},
        {"toolCalls": [write]},
        {"text": "Both done."},
    )
    tui = Tui(home, ["--model", model, "--sandbox", "off"], cwd=ws, columns=60, rows=30)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("make a hazard")
    tui.type("note: ")
    tui.wait_for("Allow touch HAZARD.txt?")
    # The question appeared mid-word: the rest of the draft, its `1` too, is typing (at once:
    # the guard lasts 0.8 s from when the question was first drawn, which it now has been).
    tui.type("1 thing")
    # Its keys line said it waits. Read from what was written: on screen that line comes after
    # the title, maybe in a later read, and is gone once the guard is over.
    tui.wait(lambda: "waiting for you" in tui.raw, "the keys line saying the question waits")
    tui.wait_for(CHOOSE)
    assert not (ws / "HAZARD.txt").exists()
    [reject] = re.findall(r"(\d)\. Reject\s*$", tui.display, re.MULTILINE)
    tui.type(reject)
    # The turn ends at the reject: the draft is back in the box, the model not asked again.
    tui.wait_for("› note: 1 thing")
    tui.wait_gone("esc to interrupt")
    assert "Noted." not in tui.everything
    assert not (ws / "HAZARD.txt").exists()
    logged = logged_records(home)
    [result] = [e for e in logged if e["type"] == "tool/result"]
    assert result["permission"] == "reject"
    assert logged[-1]["type"] == "turn/end" and logged[-1]["stopReason"] == "cancelled"

    tui.press("enter")
    tui.wait_for("Noted.")
    said = [e for e in logged_records(home) if e["type"] == "user/message"]
    assert said[-1]["content"] == [{"type": "text", "text": "note: 1 thing"}]

    _one_card_per_call_and_the_whole_change(tui, ws)
    tui.press("ctrl-d")
    assert tui.finish() == 0


def _one_card_per_call_and_the_whole_change(tui: Tui, ws: Path) -> None:
    """An approved command leaves one card, never a stale `awaiting approval` one; a change
    taller than the screen is cut with a count, and `v` pages it whole."""
    tui.line("go")
    tui.wait_for(CHOOSE)
    tui.type("1")
    tui.wait_for("Allow Write")
    # The keys line is rewritten in place when keys answer: its start may be read before
    # its end, so what it ends with is waited for too.
    tui.wait_for_all(CHOOSE, "v: see it whole", "more lines · v shows it whole")
    shown = tui.display
    assert "more lines · v shows it whole" in shown and "v: see it whole" in shown
    # At 60 columns the question wraps: its path and its reason are there whole.
    assert f"AllowWrite{ws / 'big.py'}?" in "".join(shown.split())
    assert "editsneedapprovalinaskmode" in "".join(shown.split())
    assert "line_59" not in tui.everything
    tui.type("v")  # PAGER=cat: the whole change is written out
    tui.wait_in_scrollback("line_59 = 59")
    tui.wait_for(CHOOSE)
    tui.type("1")
    tui.wait_for("Both done.")
    scrollback = tui.everything
    # The command's one card, with its output, and no card left awaiting approval.
    assert scrollback.count("$ echo made-by-$((6 * 7))") == 1
    assert "made-by-42" in scrollback
    assert "awaiting approval" not in scrollback
    assert scrollback.count("✓ allowed once") == 2


def test_an_always_allow_for_the_project_is_not_a_change_of_the_prompt(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    """The rule "always allow for this project" writes to `.tether/settings.local.json` is
    the person's: the prompt's checkpoint does not count it and /undo leaves it."""
    home = tmp_path / "home"
    (ws / ".git/info").mkdir(parents=True)
    (ws / ".git/HEAD").write_text("ref: refs/heads/main\n")
    made = {"id": "m", "name": "bash", "arguments": {"command": "touch made"}}
    model = scripted_model(tmp_path / "s.json", {"toolCalls": [made]}, {"text": "Made it."})
    tui = Tui(home, ["--model", model, "--sandbox", "off"], cwd=ws, columns=120)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("make it")
    tui.wait_for(CHOOSE)
    [project] = re.findall(r"(\d)\. Always allow .* for this project", tui.display)
    tui.type(project)
    tui.wait_for("Made it.")
    local = ws / ".tether" / "settings.local.json"
    assert json.loads(local.read_text()) == {"permissions": {"allow": ["bash(touch made)"]}}
    tui.wait_in_scrollback("checkpoint: prompt 1 changed 1 file: made (/undo reverts it)")
    assert "settings.local.json" not in tui.everything

    tui.line("/undo")
    tui.wait_in_scrollback("restored 1 file")
    assert not (ws / "made").exists()
    assert json.loads(local.read_text()) == {"permissions": {"allow": ["bash(touch made)"]}}
    tui.press("ctrl-d")
    assert tui.finish() == 0


def test_permissions_shows_the_live_rules_and_takes_an_answer_back(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    """/permissions after answers: the rule written for the project with its file (not "No
    settings files"), the session's own answer, and a picker that takes it back. Then a fetch
    that would be refused is refused before anyone is asked."""
    home = tmp_path / "home"
    (ws / ".git/info").mkdir(parents=True)
    (ws / ".git/HEAD").write_text("ref: refs/heads/main\n")

    def bash(call_id: str, command: str) -> dict[str, Any]:
        return {"toolCalls": [{"id": call_id, "name": "bash", "arguments": {"command": command}}]}

    model = scripted_model(
        tmp_path / "s.json",
        bash("a", "touch a"),
        bash("b", "touch b"),
        {"text": "Both made."},
        bash("a2", "touch a"),
        {"text": "Asked again."},
        _loopback_fetches(),
        {"text": "Refused."},
    )
    tui = Tui(home, ["--model", model, "--sandbox", "off"], cwd=ws, columns=120)
    tuis.append(tui)
    tui.wait_for("script:s.json")
    tui.line("make them")
    tui.wait_for(CHOOSE)
    [session] = re.findall(r"(\d)\. Always allow .* for this session", tui.display)
    tui.type(session)
    tui.wait_for("Allow touch b?")
    tui.wait_for(CHOOSE)
    [project] = re.findall(r"(\d)\. Always allow .* for this project", tui.display)
    tui.type(project)
    tui.wait_for("Both made.")

    tui.line("/permissions")
    tui.wait_for("Take back an answer of this session?")
    report = tui.everything
    # The rule and its file (the path may wrap at the edge).
    assert re.search(r"bash\(touch b\)\s+local\s+", report)
    assert f"{ws}/.tether/settings.local.json" in "".join(report.split())
    assert "No settings files" not in report
    assert "allowed for this session (your answers):" in report
    assert re.search(r"1\. .*touch a", report)
    tui.press("up", "enter")  # the answer above "Keep them all"
    tui.wait_in_scrollback("taken back:")
    tui.line("again")
    tui.wait_for("Allow touch a?")  # asked again
    tui.wait_for(CHOOSE)
    tui.type("1")
    tui.wait_for("Asked again.")

    tui.line("fetch it")
    tui.wait_for("Refused.")
    everything = tui.everything
    shown = " ".join(everything[everything.rindex("> fetch it") :].split())
    assert "Allow" not in shown  # refused before anyone was asked
    assert "Refusing to fetch from 127.0.0.1: it is a loopback address" in shown
    assert "Refusing to fetch from ::1: it is a loopback address" in shown
    assert "Refusing to fetch from localhost: it is a loopback name" in shown
    assert "Refusing to fetch from app.localhost: it is a loopback name" in shown
    tui.press("ctrl-d")
    assert tui.finish() == 0


def _loopback_fetches() -> dict[str, Any]:
    """A turn of four fetches from this machine, each refused before anyone is asked."""
    fetch = {"id": "f", "name": "web_fetch", "arguments": {"url": "http://127.0.0.1:9/admin"}}
    local = {"id": "l", "name": "web_fetch", "arguments": {"url": "http://[::1]:9/"}}
    # Names that always mean this machine are refused before asking too, with no lookup.
    named = {"id": "n", "name": "web_fetch", "arguments": {"url": "http://localhost:9/"}}
    under = {"id": "u", "name": "web_fetch", "arguments": {"url": "http://app.localhost/"}}
    return {"toolCalls": [fetch, local, named, under]}


def test_the_trust_question_starts_on_the_least_lasting_choice(
    tmp_path: Path, ws: Path, tuis: list[Tui]
) -> None:
    home = tmp_path / "home"
    (ws / ".tether").mkdir()
    (ws / ".tether/settings.json").write_text(json.dumps({"permissions": {"allow": ["bash(*)"]}}))
    model = scripted_model(
        tmp_path / "s.json",
        {"toolCalls": [{"id": "b", "name": "bash", "arguments": {"command": "touch ran"}}]},
        {"text": "Ran it."},
    )
    tui = Tui(home, ["--model", model, "--sandbox", "off"], cwd=ws, columns=100)
    tuis.append(tui)
    # Asked as the terminal opens, before the first prompt.
    tui.wait_for("Do not trust it")
    tui.wait_for(CHOOSE)
    rows = [r.strip() for r in tui.display.splitlines() if "trust" in r.lower() and ". " in r]
    # Selected first, so Enter trusts for this session only, never for good.
    assert rows[-3:] == [
        "❯ 1. Trust it for this session",
        "2. Trust this workspace",
        "3. Do not trust it",
    ], tui.display
    # The answer and the first prompt typed straight after it, in one write: the keys after
    # the answer are the input box's, none is lost to the question that has just closed.
    tui.type("\r" + "run it\r")
    tui.wait_for("Ran it.")
    assert (ws / "ran").exists()  # the workspace's allow rule applied, without asking
    assert not (home / "trusted.json").exists()  # for this session: not kept
    tui.press("ctrl-d")
    assert tui.finish() == 0
