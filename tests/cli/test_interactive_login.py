"""A first run with no API key, `/login` and `/logout`, in a real pty read through pyte,
against an Anthropic-speaking server on loopback that records the key each request carries."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from tests.cli.tui import Tui
from tests.models.sse_server import SSEServer


def _keys(server: SSEServer) -> list[str | None]:
    """The key each request to the messages endpoint carried (as a bearer token)."""
    sent = [r.headers.get("authorization") for r in server.requests if r.path.endswith("/messages")]
    return [value.removeprefix("Bearer ") if value else None for value in sent]


def test_a_first_run_without_a_key_asks_for_one_and_keeps_it(
    tmp_path: Path, ws: Path, tuis: list[Tui], anthropic: SSEServer
) -> None:
    home = tmp_path / "home"
    env = {"ANTHROPIC_BASE_URL": anthropic.url}
    tui = Tui(home, [], cwd=ws, columns=100, env=env)
    tuis.append(tui)
    tui.wait_for("No API key yet: which provider will you use?")
    assert f"No API key for {anthropic.url}" not in tui.everything  # DeepSeek's is missing
    tui.type("2")  # Anthropic
    tui.wait_for("Anthropic API key (hidden):")
    tui.type("sk-first-secret")
    tui.wait_for("•••••••••••••••")
    tui.press("enter")
    tui.wait_in_scrollback("logged in to Anthropic: the key is saved in")
    tui.wait_for("claude-sonnet-5-5")  # the status bar names the model now
    tui.line("hello")
    tui.wait_for("Done: both files are fine.")
    # The key never showed, and it went to the endpoint it was given for.
    assert "sk-first-secret" not in tui.raw
    assert _keys(anthropic) == ["sk-first-secret"]
    saved = home / "credentials.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert json.loads(saved.read_text()) == {
        "version": 1,
        "model": "anthropic",
        "keys": {anthropic.url: "sk-first-secret"},
    }
    assert "sk-first-secret" not in (home / "history").read_text()
    tui.press("ctrl-d")
    assert tui.finish() == 0

    # The next start reads it back: no question, the same provider and key.
    tui = Tui(home, [], cwd=ws, columns=100, env=env)
    tuis.append(tui)
    tui.wait_for("claude-sonnet-5-5")
    tui.line("again")
    tui.wait_for("Done: both files are fine.")
    assert "which provider" not in tui.everything
    assert _keys(anthropic)[-1] == "sk-first-secret"
    tui.press("ctrl-d")
    assert tui.finish() == 0

    # A key in the environment wins over the saved one.
    tui = Tui(home, [], cwd=ws, columns=100, env={**env, "ANTHROPIC_API_KEY": "sk-from-env"})
    tuis.append(tui)
    tui.wait_for("claude-sonnet-5-5")
    tui.line("from the environment")
    tui.wait_for("Done: both files are fine.")
    assert _keys(anthropic)[-1] == "sk-from-env"
    tui.press("ctrl-d")
    assert tui.finish() == 0


def test_a_prompt_typed_before_the_key_waits_and_logout_then_login(
    tmp_path: Path, ws: Path, tuis: list[Tui], anthropic: SSEServer
) -> None:
    home = tmp_path / "home"
    env = {"ANTHROPIC_BASE_URL": anthropic.url}
    tui = Tui(home, ["--model", "anthropic"], cwd=ws, columns=100, env=env)
    tuis.append(tui)
    tui.wait_for("which provider will you use?")
    tui.press("esc")  # not now
    tui.wait_in_scrollback("no key given: /login when you are ready")
    tui.line("first words")
    # Nothing is sent without a key: the prompt says why and is back in the box, unsent.
    tui.wait_in_scrollback(f"No API key for {anthropic.url}: set ANTHROPIC_API_KEY")
    tui.wait_for("› first words")
    assert _keys(anthropic) == []
    tui.press("ctrl-c")  # clear the box
    tui.line("/login")
    tui.wait_for("Log in: which provider?")
    tui.press("enter")  # the model named on the command line is the one selected
    tui.wait_for("Anthropic API key (hidden):")
    tui.press("enter")  # an empty key is no key
    tui.wait_in_scrollback("that is no key")
    tui.press("enter")
    tui.type("\x1b[200~sk-second\x1b[201~")  # pasted, as a key usually is
    tui.wait_for("•••••••••")
    tui.press("enter")
    tui.wait_in_scrollback("logged in to Anthropic")
    tui.line("now it goes")
    tui.wait_for("Done: both files are fine.")
    assert _keys(anthropic) == ["sk-second"]
    tui.line("/logout")
    logged_out = f"logged out: the key saved for {anthropic.url} is deleted"
    tui.wait_in_scrollback(logged_out)
    assert json.loads((home / "credentials.json").read_text())["keys"] == {}
    # Refused as before the login, and back in the box (the box shows it as it is typed, too:
    # the refusal is what says Enter was taken). Counted after the logout's line only: what
    # was shown before it (the start's notice, the first refusal) is no part of the count,
    # however much of it the scrollback still holds.
    refused = f"No API key for {anthropic.url}: set ANTHROPIC_API_KEY"

    def refusals() -> int:
        return tui.everything.rpartition(logged_out)[2].count(refused)

    assert refusals() == 0
    tui.line("after logout")
    tui.wait(lambda: refusals() == 1, "the prompt refused again")
    tui.wait_for("› after logout")
    assert _keys(anthropic) == ["sk-second"]
    tui.press("ctrl-c")
    tui.press("ctrl-d")
    assert tui.finish() == 0
