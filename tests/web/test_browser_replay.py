"""Replay equals live in the page: the transcript a session showed live is the one a reload
shows (`session/load` in the page), with the workspace's trust answered and a rewind."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.refusing_agent import REFUSING_AGENT
from tests.web.served import TETHER, WebServer

SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "w1", "name": "write",
                        "arguments": {"path": "notes.md", "content": "- a\n"}}]},
        {"text": "Wrote the notes."},
    ]
}  # fmt: skip


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebServer]:
    """`tether web` on a workspace whose settings choose auto mode once it is trusted."""
    ws = (tmp_path / "ws").resolve()
    (ws / ".tether").mkdir(parents=True)
    (ws / ".tether/settings.json").write_text(json.dumps({"permissions": {"defaultMode": "auto"}}))
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--sandbox", "off"])
    with web_in_process(agent, ws, env={"TETHER_HOME": str(tmp_path / "home")}) as server:
        yield server


def _transcript(page: Page) -> list[list[str]]:
    """Each node of the transcript: its classes and its text."""
    nodes: list[list[str]] = page.eval_on_selector_all(
        "#transcript > *", "nodes => nodes.map(n => [n.className, n.innerText.trim()])"
    )
    return nodes


def test_trust_and_a_rewind_read_the_same_after_a_reload(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "write the notes")
        request = page.locator(".permission", has_text="Trust this workspace")
        request.wait_for()
        names = [b.inner_text() for b in request.locator("button").all()]
        assert names == ["Trust it for this session", "Trust this workspace", "Do not trust it"]
        # Enter takes the least lasting choice; the hints read as the buttons do.
        focused = page.evaluate("() => document.activeElement.textContent")
        assert focused == "Trust it for this session"
        assert request.locator(".perm-keys").inner_text() == "y / a / n"
        page.keyboard.press("Enter")
        page.wait_for_selector(".msg-agent:has-text('Wrote the notes.')")
        wait_idle(page)
        # Answered: the question gives way to the answer (no PENDING card, no "Allowed once").
        assert page.locator("section.tool[data-tool-call-id=workspace-trust]").count() == 0
        assert page.locator(".notice", has_text="is trusted for this session").count() == 1

        page.click(".rewind-row[data-prompt='1'] .rewind-here")
        page.click(".rewind-code")
        page.wait_for_selector(".notice:has-text('rewind: restored 1 file to before prompt 1')")
        wait_idle(page)
        live = _transcript(page)
        assert ["msg msg-user", "/rewind 1"] in live

        page.reload()
        page.wait_for_selector("#conn[data-state=ready]", state="attached")
        page.wait_for_selector(".notice:has-text('rewind: restored 1 file to before prompt 1')")
        wait_idle(page)
        assert _transcript(page) == live


def test_a_prompt_that_fails_stays_in_the_box_and_says_why_once(
    browser: Browser, tmp_path: Path, ws: Path
) -> None:
    agent = shlex.join([sys.executable, str(REFUSING_AGENT)])
    with web_in_process(agent, ws) as server, open_page(browser, server.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "explain the build")
        notice = page.locator(".notice-error")
        notice.wait_for()
        assert notice.locator(".notice-text").inner_text() == (
            'The prompt failed: Authentication required ({"authMethods": ["api-key"], '
            '"hint": "set GEMINI_API_KEY"})'
        )
        assert page.input_value("#prompt") == "explain the build"


def test_a_new_session_has_one_name_in_the_list_and_the_header(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        page.click("#refresh")
        row = page.locator("#sessions .session-name").first
        row.wait_for()
        assert row.inner_text() == page.locator("#session-title").inner_text() == "New session"


TASK_SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "t1", "name": "task",
                        "arguments": {"description": "check the notes",
                                      "prompt": "Read notes.md."}}]},
        {"text": "The agent is done."},
        {"text": "Second answer."},
    ],
    "tasks": {
        "t1": {"turns": [
            {"toolCalls": [{"id": "r1", "name": "read", "arguments": {"path": "notes.md"}}]},
            {"text": "The notes say **remember the milk**."},
        ]}
    },
}  # fmt: skip


@pytest.fixture
def task_web(tmp_path: Path) -> Iterator[WebServer]:
    """`tether web` in auto mode, whose first prompt (in each session) runs a task."""
    ws = (tmp_path / "ws").resolve()
    ws.mkdir()
    (ws / "notes.md").write_text("remember the milk\n")
    script = tmp_path / "script.json"
    script.write_text(json.dumps(TASK_SCRIPT))
    agent = shlex.join(
        [*TETHER, "acp", "--model", f"script:{script}", "--sandbox", "off", "--mode", "auto"]
    )
    with web_in_process(agent, ws, env={"TETHER_HOME": str(tmp_path / "home")}) as server:
        yield server


def _reloaded(page: Page, last_answer: str) -> list[list[str]]:
    """The transcript after a reload, once the session has replayed to its last answer."""
    page.reload()
    page.wait_for_selector("#conn[data-state=ready]", state="attached")
    page.wait_for_selector(f".msg-agent:has-text('{last_answer}')")
    wait_idle(page)
    return _transcript(page)


def test_a_task_and_a_fork_read_the_same_after_a_reload(
    browser: Browser, task_web: WebServer
) -> None:
    with open_page(browser, task_web.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "check the notes")
        page.wait_for_selector(".tool .card-task .pill[data-stop=end_turn]")
        page.wait_for_selector(".msg-agent:has-text('The agent is done.')")
        wait_idle(page)
        send_prompt(page, "and then")
        page.wait_for_selector(".msg-agent:has-text('Second answer.')")
        wait_idle(page)
        live = _transcript(page)
        assert sum("card-task" in n[0] or "remember the milk" in n[1] for n in live) == 1
        assert _reloaded(page, "Second answer.") == live

        # Continue in a fork before prompt 2: it holds prompt 1 and its task, then goes on.
        original = page.evaluate("() => location.hash")
        page.click(".rewind-row[data-prompt='2'] .rewind-here")
        page.click(".rewind-conversation")
        page.wait_for_function(
            "was => location.hash.startsWith('#session=') && location.hash !== was", arg=original
        )
        page.wait_for_selector("#send:not([disabled])")
        assert page.locator(".msg-user").all_inner_texts() == ["check the notes"]
        send_prompt(page, "in the fork")
        # The fork's agent has its own script model, which starts over: a second task.
        page.wait_for_selector(".msg-agent:has-text('The agent is done.') >> nth=1")
        wait_idle(page)
        forked = _transcript(page)
        assert page.locator(".tool .card-task .pill[data-stop=end_turn]").count() == 2
        assert _reloaded(page, "The agent is done.") == forked
