"""The task card in real Chromium against `tether acp`: live, asked through, opened, reloaded."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import open_page, send_prompt, shot, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

SCRIPT = {
    "turns": [
        {
            "toolCalls": [
                {
                    "id": "t1",
                    "name": "task",
                    "arguments": {
                        "description": "check the notes",
                        "prompt": "Read notes.md, then say hi from the shell.",
                    },
                }
            ]
        },
        {"text": "The agent is done."},
    ],
    "tasks": {
        "t1": {
            "turns": [
                {"toolCalls": [{"id": "r1", "name": "read", "arguments": {"path": "notes.md"}}]},
                {"toolCalls": [{"id": "b1", "name": "bash", "arguments": {"command": "echo hi"}}]},
                {
                    "text": "The notes say **remember the milk**.",
                    "usage": {"inputTokens": 2000, "outputTokens": 345},
                },
            ]
        }
    },
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on `tether acp` in ask mode, with the script above."""
    root = tmp_path_factory.mktemp("task")
    (root / "ws").mkdir()
    (root / "ws" / "notes.md").write_text("remember the milk\n")
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--sandbox", "off"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def check_finished_card(page: Page) -> None:
    """The finished task card: its report rendered, calls, tokens, the pill."""
    card = page.locator(".tool .card-task")
    card.locator(".pill[data-stop=end_turn]").wait_for()
    assert card.locator(".task-report strong").inner_text() == "remember the milk"
    assert card.locator(".task-facts").inner_text() == "2 calls · 2.3k tokens"
    assert card.locator(".task-agent").first.inner_text() == "general"
    assert card.locator(".task-activity").is_hidden()


def test_a_task_runs_live_asks_through_its_parent_and_opens_its_transcript(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as page:
        send_prompt(page, "check the notes")
        card = page.locator(".tool .card-task")
        # Live: the child waits for the person, the card says what it is doing now.
        permission = page.locator(".tool .permission:not(.answered)")
        permission.wait_for()
        assert card.locator(".pill[data-stop=running]").is_visible()
        assert card.locator(".task-activity").inner_text() == "echo hi"
        assert card.locator(".task-facts").inner_text() == "2 calls"
        # The question names the agent and shows the command it would run.
        question = permission.locator(".perm-delegated")
        assert question.locator(".task-agent").inner_text() == "general"
        assert question.locator(".perm-step").inner_text() == "echo hi"
        assert "echo hi" in question.locator(".card-terminal .term-cmd").inner_text()
        # Opened while it runs: the transcript so far, from the child's log.
        card.locator("summary.task-open").click()
        nested = card.locator(".task-transcript")
        nested.locator(".msg-user:has-text('Read notes.md')").wait_for()
        nested.locator(".card-read").wait_for()
        shot(page, ".tool:has(.card-task)", "task-running")
        permission.locator("button[data-kind=allow_once]").click()
        # The answer is the agent's call's: its transcript shows it there, not on the card.
        permission.wait_for(state="detached")
        assert page.locator("#transcript > .tool > .permission").count() == 0
        nested.locator(".permission.answered:has-text('Allowed once')").wait_for()
        # ...and followed as the child goes on, to its end.
        nested.locator(".card-terminal:has-text('hi')").wait_for()
        nested.locator(".msg-agent strong:has-text('remember the milk')").wait_for()
        check_finished_card(page)
        page.wait_for_selector(".msg-agent:has-text('The agent is done.')")
        wait_idle(page)
        shot(page, ".tool:has(.card-task)", "task-done")
        session = page.evaluate("() => location.hash")

    # Opened again (session/load): the same card, and the child's whole transcript.
    with open_page(browser, f"{web.url}{session}") as again:
        check_finished_card(again)
        card = again.locator(".tool .card-task")
        card.locator("summary.task-open").click()
        nested = card.locator(".task-transcript")
        card.locator(".task-transcript[data-done=true]").wait_for()
        assert nested.locator(".msg-agent strong:has-text('remember the milk')").count() == 1
        assert nested.locator(".card-read").count() == 1
        assert nested.locator(".card-terminal").count() == 1
        # On the narrowest phone the description keeps its words (it was cut to a letter).
        again.set_viewport_size({"width": 320, "height": 640})
        description = card.locator(".task-description")
        again.wait_for_function(
            "d => d.scrollWidth <= d.clientWidth", arg=description.element_handle()
        )
        assert description.evaluate("d => d.clientWidth") >= 120
        assert description.inner_text() == "check the notes"
        # Folded and opened again: drawn afresh, once.
        card.locator("summary.task-open").click()
        card.locator("summary.task-open").click()
        card.locator(".task-transcript[data-done=true]").wait_for()
        assert nested.locator(".msg-agent strong:has-text('remember the milk')").count() == 1
        assert nested.locator(".card-read").count() == 1
