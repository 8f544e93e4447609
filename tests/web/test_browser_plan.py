"""The plan panel, the plan update's one line, the slash-command menu, `/help`, an unknown
`/command` and recalling earlier prompts, in real Chromium against `tether acp`."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import assert_accessible, open_page, shoot_both, shot, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

TODOS = [
    {"content": "Read the parser", "status": "completed"},
    {"content": "Fix the off-by-one", "status": "in_progress", "priority": "high"},
    {"content": "Add a regression test", "status": "pending"},
    {"content": "Rewrite the lexer", "status": "cancelled"},
]
SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "t1", "name": "todo", "arguments": {"todos": TODOS}}]},
        {"text": "Planned the review."},
        {"text": "Sent as text."},
    ]
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on a workspace with one custom command."""
    root = tmp_path_factory.mktemp("plan")
    workspace = root / "ws"
    (workspace / ".tether" / "commands").mkdir(parents=True)
    (workspace / ".tether" / "commands" / "review.md").write_text(
        "---\ndescription: Review one file\nargument-hint: PATH\n---\nReview $ARGUMENTS.\n"
    )
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with web_in_process(agent, workspace, env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def test_commands_are_listed_as_you_type_and_the_plan_is_shown(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        page.fill("#prompt", "/")
        menu = page.locator("#command-menu")
        menu.locator("li[data-name=review]").wait_for()
        names = [item.get_attribute("data-name") for item in menu.locator("li").all()]
        assert_accessible(page)  # the menu open: a named listbox the prompt box controls
        # The agent's commands, then the page's own.
        assert names == [
            "compact",
            "init",
            "mode",
            "permissions",
            "skills",
            "agents",
            "rewind",
            "undo",
            "redo",
            "fork",
            "review",
            "help",
        ]
        page.fill("#prompt", "/rev")
        page.wait_for_function("document.querySelectorAll('#command-menu li').length === 1")
        assert "Review one file" in menu.inner_text()
        assert "PATH" in menu.inner_text()
        page.press("#prompt", "Tab")
        assert page.input_value("#prompt") == "/review "
        assert menu.is_hidden()
        page.type("#prompt", "parser.py")
        page.press("#prompt", "Enter")

        plan = page.locator("#plan")
        plan.wait_for(state="visible")
        # One line until opened: done of all, and the task in progress.
        strip = plan.locator(".plan-strip")
        assert strip.inner_text().split("\n")[:3] == ["PLAN", "1/3", "Fix the off-by-one"]
        assert plan.locator(".plan-entries").is_hidden()
        strip.click()
        assert strip.get_attribute("aria-expanded") == "true"
        assert_accessible(page)
        entries = plan.locator("li.plan-entry")
        assert [e.get_attribute("data-status") for e in entries.all()] == [
            "completed",
            "in_progress",
            "pending",
            "cancelled",
        ]
        assert entries.nth(1).inner_text().startswith("◐")
        cancelled = entries.nth(3)
        assert cancelled.locator(".plan-text").inner_text() == "Rewrite the lexer"
        assert cancelled.locator(".plan-state").inner_text() == "cancelled"
        assert cancelled.inner_text().startswith("✕")
        assert "Fix the off-by-one" in entries.nth(1).inner_text()
        assert plan.locator(".plan-count").inner_text() == "1/3"
        page.wait_for_selector(".msg-agent:has-text('Planned the review.')")
        wait_idle(page)
        shot(page, "#main", "plan-panel")
        # The todo call itself is one line beside the strip, its checklist on demand.
        call = page.locator("section.tool[data-tool-call-id=t1]")
        assert call.locator(".tool-title").inner_text() == "Plan updated · 1/3 · Fix the off-by-one"
        assert "plan-line" in (call.get_attribute("class") or "")
        assert call.locator(".tool-body").is_hidden()
        head = call.locator(".tool-head").bounding_box()
        assert head is not None and head["height"] < 40
        strip.click()  # folded again: the strip and the line are all the plan takes
        shoot_both(page, "plan-strip")
        call.locator(".tool-toggle").click()
        assert "[~] Fix the off-by-one (high)" in call.locator(".tool-body").inner_text()
        _commands_said_and_prompts_recalled(page)


def _commands_said_and_prompts_recalled(page: Page) -> None:
    """`/help` lists the commands; `/nosuch` is said to be none, and goes as text when sent
    again; Up and Down walk the prompts sent before."""
    prompt = page.locator("#prompt")
    prompt.fill("/help")
    prompt.press("Enter")
    listing = page.locator(".notice-help")
    listing.wait_for()
    assert "/review PATH" in listing.inner_text() and "Review one file" in listing.inner_text()
    prompt.fill("/nosuch thing")
    prompt.press("Enter")
    said = page.locator(".notice[data-topic=unknown-command]")
    said.wait_for()
    assert said.inner_text().startswith("/nosuch is not a command here.")
    assert prompt.input_value() == "/nosuch thing"  # nothing lost
    assert page.locator(".msg-user").count() == 1
    prompt.press("Enter")
    page.wait_for_selector(".msg-agent:has-text('Sent as text.')")
    wait_idle(page)
    assert page.locator(".msg-user").all_inner_texts()[-1] == "/nosuch thing"
    # Up at the box's first line: the prompts sent before, newest first; Down comes back.
    prompt.fill("draft")
    prompt.press("ArrowUp")
    assert prompt.input_value() == "/nosuch thing"
    prompt.press("ArrowUp")
    assert prompt.input_value() == "/help"
    prompt.press("ArrowUp")
    assert prompt.input_value() == "/review parser.py"
    for _ in range(3):
        prompt.press("ArrowDown")
    assert prompt.input_value() == "draft"
