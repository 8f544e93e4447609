"""The plan `exit_plan_mode` hands over, in real Chromium against `tether acp`: its Markdown
rendered on the card the person approves, and on the card that says what they decided."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from playwright.sync_api import Browser

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER

PLAN = "## Rename\n\n1. Rename `helo` to `hello` in greet.py.\n2. Run **all** the tests."


def test_the_plan_is_rendered_markdown_before_and_after_it_is_approved(
    browser: Browser, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    script = tmp_path / "script.json"
    call = {"id": "p", "name": "exit_plan_mode", "arguments": {"plan": PLAN}}
    script.write_text(json.dumps({"turns": [{"toolCalls": [call]}, {"text": "Starting."}]}))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--mode", "plan"])
    with (
        web_in_process(agent, workspace, env={"TETHER_HOME": str(tmp_path / "home")}) as web,
        open_page(browser, web.url) as page,
    ):
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "plan the rename")
        block = page.locator("section.tool[data-tool-call-id=p]")
        block.locator(".permission button").first.wait_for()
        # The plan the person is asked about: headings, lists, code and emphasis, rendered.
        asked = block.locator(".card-generic .md")
        assert asked.locator("h2").inner_text() == "Rename"
        assert asked.locator("ol > li").all_inner_texts() == [
            "Rename helo to hello in greet.py.",
            "Run all the tests.",
        ]
        assert asked.locator("code").all_inner_texts() == ["helo", "hello"]
        assert asked.locator("strong").inner_text() == "all"
        assert "##" not in block.inner_text() and "**" not in block.inner_text()
        block.locator(".permission button[data-kind=allow_once]").click()
        page.wait_for_selector(".msg-agent:has-text('Starting.')")
        wait_idle(page)
        assert block.locator(".tool-status.status-completed").count() == 1
        assert block.locator(".card-generic .md h2").inner_text() == "Rename"
        assert block.locator(".card-generic .md ol > li").count() == 2
