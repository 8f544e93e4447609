"""An agent's thought on its task card in real Chromium against `tether acp`: shown in its own
box while the agent thinks, gone once it reads, hidden on the finished card."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

THOUGHT = "The notes are in notes.md; read them before saying anything."
SCRIPT = {
    "turns": [
        {
            "toolCalls": [
                {
                    "id": "t1",
                    "name": "task",
                    "arguments": {"description": "check the notes", "prompt": "Read notes.md."},
                }
            ]
        },
        {"text": "The agent is done."},
    ],
    "tasks": {
        "t1": {
            "turns": [
                {
                    "thinking": THOUGHT,
                    "toolCalls": [{"id": "r1", "name": "read", "arguments": {"path": "notes.md"}}],
                },
                {"text": "The notes say remember the milk."},
            ]
        }
    },
}

# Every text the thought box of a task card is given, in order: the card changes faster than
# anything could poll it.
RECORD = """
window.thoughts = [];
new MutationObserver(() => {
  for (const box of document.querySelectorAll(".card-task .task-thought")) {
    const seen = box.hidden ? "" : box.textContent;
    if (window.thoughts.at(-1) !== seen) window.thoughts.push(seen);
  }
}).observe(document.body, {subtree: true, childList: true, characterData: true,
                           attributes: true, attributeFilter: ["hidden"]});
"""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on `tether acp` in auto mode, whose agent thinks before it reads."""
    root = tmp_path_factory.mktemp("task-thought")
    (root / "ws").mkdir()
    (root / "ws" / "notes.md").write_text("remember the milk\n")
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--mode", "auto"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def test_the_thought_shows_while_the_agent_thinks(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url) as page:
        page.evaluate(RECORD)
        send_prompt(page, "check the notes")
        card = page.locator(".tool .card-task")
        card.locator(".pill[data-stop=end_turn]").wait_for()
        wait_idle(page)
        seen = page.evaluate("window.thoughts")
        # Its own box, italic, with the thought's end; then gone when the agent reads.
        assert THOUGHT in seen, seen
        assert seen[-1] == ""
        assert card.locator(".task-thought").is_hidden()
        style = card.locator(".task-thought").evaluate("node => getComputedStyle(node).fontStyle")
        assert style == "italic"
