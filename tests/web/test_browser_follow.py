"""A session open in one tab, opened in a second: read-only, following the log, then taken over.

Real Chromium, two tabs (two agent processes) on one `tether web`. The second tab shows the
history at once (measured from navigation: `measure-time-to-history.json`), never as a blank
new session, with the plan and a read-only bar pinned above a disabled composer; it follows
the first tab's prompts, takes the session over once the first tab closes, and keeps it
through a reload (the old agent's lock goes moments later).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import DESKTOP, open_page, record, send_prompt, shoot_both, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

TODOS = [
    {"content": "Read the parser", "status": "completed"},
    {"content": "Fix the off-by-one", "status": "in_progress"},
]
# Each tab's agent plays the script from its start.
SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "t1", "name": "todo", "arguments": {"todos": TODOS}}]},
        {"text": "First **answer**.", "usage": {"inputTokens": 90000, "outputTokens": 7400}},
        {"text": "Second answer."},
    ]
}

# When the first message of the history appears, and every title the header shows.
WATCH = """
window.__titles = [];
window.__historyAt = null;
new MutationObserver(() => {
  const title = document.getElementById("session-title");
  if (title && window.__titles[window.__titles.length - 1] !== title.textContent) {
    window.__titles.push(title.textContent);
  }
  if (window.__historyAt === null && document.querySelector("#transcript .msg-user")) {
    window.__historyAt = performance.now();
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on `tether acp` with the script above."""
    root = tmp_path_factory.mktemp("follow")
    (root / "ws").mkdir()
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def _read_only(second: Page) -> None:
    bar = second.locator("#read-only")
    bar.wait_for()
    assert "Read-only" in bar.inner_text()
    prompt = second.locator("#prompt")
    assert prompt.is_disabled()
    assert prompt.get_attribute("placeholder") == (
        "Read-only: this session is open in another tab or process"
    )
    assert second.locator("#take-over").is_disabled()
    # Rewinding needs the session here: said so, not "wait for the running prompt".
    second.click(".rewind-row[data-prompt='1'] .rewind-here")
    assert second.locator(".rewind-note").inner_text() == (
        "This session is open in another tab or process: take it over to rewind it here."
    )
    assert second.locator(".rewind-panel .rewind-code").is_disabled()
    second.click(".rewind-panel .rewind-cancel")
    # Pinned: in view whatever the transcript's scroll.
    second.locator("#scroller").evaluate("s => { s.scrollTop = 0; }")
    box = bar.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
    # The plan, as the other tab shows it; the settings cannot be switched from here.
    second.locator("#plan .plan-current").wait_for()
    assert second.locator("#plan .plan-current").inner_text() == "Fix the off-by-one"
    assert second.locator("#settings select").count() == 0
    # The budget too, measured as the agent measures it (a script model's 128k window).
    budget = second.locator("#budget")
    assert budget.inner_text() == "97.4k / 128k · 76%"
    assert budget.get_attribute("data-level") == "warn"


def test_a_second_tab_follows_read_only_then_takes_over(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url, viewport=DESKTOP) as first:
        send_prompt(first, "one")
        first.wait_for_selector(".msg-agent:has-text('First answer.')")
        wait_idle(first)
        title = first.locator("#session-title").inner_text()
        session = first.evaluate("() => location.hash")
        with open_page(
            browser, f"{web.url}{session}", viewport=DESKTOP, init_script=WATCH, ready=False
        ) as second:
            second.wait_for_selector(".msg-agent strong:has-text('answer')")
            record("time-to-history", {"ms": round(second.evaluate("() => window.__historyAt"))})
            # Never a blank new session: loading, then the session's own title.
            assert "New session" not in second.evaluate("() => window.__titles")
            second.wait_for_function("t => document.title.startsWith(t)", arg=title)
            _read_only(second)
            shoot_both(second, "read-only")
            # New events in the other tab show up here as the log grows.
            send_prompt(first, "two")
            second.wait_for_selector(".msg-user:has-text('two')")
            second.wait_for_selector(".msg-agent:has-text('Second answer.')")
            first.close()
            # The other side let go: the session can be taken over.
            second.wait_for_selector("#take-over:not([disabled])")
            assert "let go" in second.locator("#read-only").inner_text()
            second.locator("#take-over").click()
            second.locator("#read-only").wait_for(state="hidden")
            second.wait_for_selector("#prompt:not([disabled])")
            assert second.locator(".msg-agent:has-text('Second answer.')").count() == 1
            send_prompt(second, "three")
            second.wait_for_selector(".msg-user:has-text('three')")
            wait_idle(second)
            # Reloaded, the tab gets its session back by itself (its old agent lets go).
            second.reload()
            second.wait_for_selector("#conn[data-state=ready]", state="attached")
            second.wait_for_selector(".msg-user:has-text('three')")
            second.wait_for_selector("#prompt:not([disabled])")
            assert second.locator("#read-only").is_hidden()
            assert second.locator(".msg-user").count() == 3
