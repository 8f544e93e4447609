"""A background command's card in real Chromium against `tether acp`: running after its call
returned, then its new output and its exit as they come, and the same after a reload."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from playwright.sync_api import Browser

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER

COMMAND = (
    "echo one; i=0; until [ -e go ] || [ $i -ge 600 ]; do i=$((i+1)); sleep 0.05; done; "
    "echo two; exit 4"
)
"""Runs on (30 s at most) until the test has seen it running and made `go` in the workspace."""


def test_the_jobs_card_runs_on_after_its_call_and_shows_how_it_ended(
    browser: Browser, tmp_path: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    script = tmp_path / "script.json"
    call = {"id": "j", "name": "bash", "arguments": {"command": COMMAND, "run_in_background": True}}
    script.write_text(json.dumps({"turns": [{"toolCalls": [call]}, {"text": "Started."}]}))
    agent = shlex.join(
        [*TETHER, "acp", "--model", f"script:{script}", "--mode", "auto", "--sandbox", "off"]
    )
    with (
        web_in_process(agent, workspace, env={"TETHER_HOME": str(tmp_path / "home")}) as web,
        open_page(browser, web.url) as page,
    ):
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        send_prompt(page, "start it")
        page.wait_for_selector(".msg-agent:has-text('Started.')")
        wait_idle(page)
        card = page.locator("section.tool[data-tool-call-id=j] .card-terminal")
        # The call is done, the command is not: the card says it runs, with its first output.
        assert card.locator(".pill-run").count() == 1
        assert "one" in card.locator(".term-out").inner_text()
        (workspace / "go").touch()
        # Then, with no prompt running, its new output and its exit reach the card.
        card.locator(".pill:has-text('exit 4')").wait_for()
        assert card.locator(".term-out").inner_text().split() == ["one", "two"]
        assert "ran in the background as shell-1" in card.locator(".term-notes").inner_text()
        live = card.inner_text()
        page.reload()
        page.wait_for_selector("#conn[data-state=ready]", state="attached")
        again = page.locator("section.tool[data-tool-call-id=j] .card-terminal")
        again.locator(".pill:has-text('exit 4')").wait_for()
        assert again.inner_text() == live
