"""Signing an agent in from the page with its ACP `authMethods`: an API key asked for, kept
at mode 0600 in `$TETHER_HOME`, the agent restarted with it and asked to `authenticate`; the
key never comes back to the browser."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from playwright.sync_api import Browser, Page, WebSocket

from tests.web.browser import assert_accessible, open_page, send_prompt, wait_idle
from tests.web.fake_agent import API_KEY
from tests.web.in_process import web_in_process
from tests.web.served import fake_agent_command

KEY = "sk-test-4f1d9c0e"
KEY_INPUT = f"#sign-in-fake-key-{API_KEY}"

HOLD_REOPENING = """(() => {
  const waiting = [];
  window.holdingReopening = false;
  window.releaseReopening = () => {
    window.holdingReopening = false;
    for (const release of waiting.splice(0)) release();
  };
  const listen = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return listen.call(this, type, listener, options);
    let held = null;
    return listen.call(this, type, (event) => {
      if (held) return void held.push(event);
      let kind = null;
      try { kind = JSON.parse(event.data).type; } catch {}
      if (kind === "opening" && window.holdingReopening) {
        held = [event];
        waiting.push(() => {
          const events = held;
          held = null;
          for (const each of events) listener.call(this, each);
        });
        return;
      }
      listener.call(this, event);
    }, options);
  };
})();"""
"""Run in the page: once the test sets `holdingReopening`, each `opening` (and what follows
it) is held back until the test calls `releaseReopening()`, as over a slow network, so that
what the page does before the server says the session opens again is seen however slowly
the test looks."""


def _frames(page: Page) -> list[str]:
    """Every WebSocket frame the page receives from now on."""
    frames: list[str] = []

    def watch(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


def _authentications(store: Path) -> list[dict[str, object]]:
    path = store / "authenticate.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def _allow_the_edit(page: Page) -> None:
    """The test agent's prompt asks before its edit."""
    page.click(".permission button[data-kind=allow_once]")


def test_an_api_key_signs_the_agent_in_and_is_kept_for_its_next_start(
    browser: Browser, tmp_path: Path
) -> None:
    ws, store = tmp_path / "ws", tmp_path / "store"
    ws.mkdir()
    agent = fake_agent_command(store, auth=True)
    with web_in_process(agent, ws) as server:
        with open_page(browser, server.url, init_script=HOLD_REOPENING) as page:
            first = _sign_in_after_a_refused_prompt(page, agent, store, tmp_path / "tether-home")
        # A new page starts a new agent: it gets the kept key and is signed in at once.
        with open_page(browser, server.url, init_script=HOLD_REOPENING) as page:
            frames = _frames(page)
            page.wait_for_selector("#sign-in-button:text-is('Signed in')")
            page.click("#new-session")
            page.wait_for_selector("#send:not([disabled])")
            send_prompt(page, "again")
            _allow_the_edit(page)
            page.wait_for_selector(".msg-agent:has-text('All done.')")
            wait_idle(page)
            second = _authentications(store)[1]
            assert second["key"] == KEY and second["pid"] != first["pid"]

            # A key the service refuses is said in the dialog; a blank field keeps the saved one.
            page.click("#sign-in-button")
            assert page.get_attribute(KEY_INPUT, "placeholder") == "saved — leave blank to keep it"
            page.fill(KEY_INPUT, "wrong")
            page.click("dialog#sign-in button[type=submit]")
            page.wait_for_selector("#sign-in-status:has-text('the key is revoked')")
            assert "Signing in with Fake API key failed" in page.inner_text("#sign-in-status")
            assert not any(KEY in frame for frame in frames)

            # Signing out forgets the key and restarts the agent without it.
            page.evaluate("holdingReopening = true")
            page.click("dialog#sign-in .sign-in-out button")
            page.locator("dialog#sign-in").wait_for(state="hidden")
            page.wait_for_selector("#sign-in-button:text-is('Sign in')")
            assert page.inner_text("#announcer").startswith("Signed out")
            assert page.is_disabled("#send")  # until the session is open again
            page.evaluate("releaseReopening()")
            keys = json.loads((tmp_path / "tether-home" / "agent-keys.json").read_text())
            assert agent not in keys["agents"]
            page.wait_for_selector("#send:not([disabled])")
            send_prompt(page, "once more")
            page.locator("dialog#sign-in").wait_for(state="visible")
            assert page.input_value("#prompt") == "once more"


def _sign_in_after_a_refused_prompt(
    page: Page, agent: str, store: Path, home: Path
) -> dict[str, object]:
    """A prompt the agent refuses opens the sign-in; the key given signs it in. Returns the
    agent's record of the `authenticate` it was asked."""
    frames = _frames(page)
    assert page.inner_text("#sign-in-button") == "Sign in"
    page.click("#new-session")
    page.wait_for_selector("#send:not([disabled])")
    send_prompt(page, "hello there")
    # Refused until signed in: the prompt stays in the box and the sign-in opens.
    dialog = page.locator("dialog#sign-in")
    dialog.wait_for(state="visible")
    assert "asks you to sign in first" in page.inner_text("#sign-in-status")
    assert page.input_value("#prompt") == "hello there"
    assert page.get_attribute(KEY_INPUT, "type") == "password"
    assert page.get_attribute("dialog#sign-in a", "href") == "https://example.com/keys"
    terminal = page.locator("[data-kind=terminal]").inner_text()
    assert "--login" in terminal and "then reload this page" in terminal
    assert_accessible(page)

    page.fill(KEY_INPUT, KEY)
    page.evaluate("holdingReopening = true")
    page.click("dialog#sign-in button[type=submit]")
    dialog.wait_for(state="hidden")
    page.wait_for_selector("#sign-in-button:text-is('Signed in')")
    assert page.inner_text("#announcer").startswith("Signed in to fake-agent")
    # The session is being opened again in the restarted agent: a prompt sent now would find
    # no session shown and start a new one.
    assert page.is_disabled("#send")
    page.evaluate("releaseReopening()")
    keys = home / "agent-keys.json"
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600
    saved = json.loads(keys.read_text())["agents"][agent]
    assert saved == {"method": "fake-key", "env": {API_KEY: KEY}}
    [first] = _authentications(store)
    assert first["method"] == "fake-key" and first["key"] == KEY

    # The session was opened again in the restarted agent; the kept prompt now runs.
    page.wait_for_selector("#send:not([disabled])")
    page.press("#prompt", "Enter")
    _allow_the_edit(page)
    page.wait_for_selector(".msg-agent:has-text('All done.')")
    wait_idle(page)
    assert not any(KEY in frame for frame in frames)
    return first
