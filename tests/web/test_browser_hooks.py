"""A PreToolUse hook refusing `rm -rf`, seen on the web page live and when the session is
opened again, in real Chromium against `tether acp`."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.hooks.scripts import GUARD, bash_hook, group
from tests.web.browser import open_page, send_prompt, shot, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER

PROMPT = "Clean the build."
SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "c1", "name": "bash", "arguments": {"command": "rm -rf build"}}]},
        {"text": "A hook refused it; the build stays."},
    ]
}


def test_a_hook_refusing_a_command_is_shown_live_and_on_load(
    browser: Browser, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    workspace = tmp_path / "ws"
    (workspace / "build").mkdir(parents=True)
    guard = bash_hook(tmp_path, "guard", GUARD)
    (home / "settings.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [group(guard, matcher="Bash")]}})
    )
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join(
        [*TETHER, "acp", "--model", f"script:{script}", "--mode", "auto", "--sandbox", "off"]
    )
    with web_in_process(agent, workspace, env={"TETHER_HOME": str(home)}) as web:
        with open_page(browser, web.url) as page:
            send_prompt(page, PROMPT)
            page.wait_for_selector(".msg-agent:has-text('the build stays')")
            wait_idle(page)
            _check(page)
            shot(page, "#transcript", "hook-refused")
            page.locator("#sessions .session.current").wait_for()
        with open_page(browser, web.url) as page:
            page.locator("#sessions .session", has_text=PROMPT).click()
            page.wait_for_selector(".msg-agent:has-text('the build stays')")
            _check(page)
    assert (workspace / "build").is_dir()


def _check(page: Page) -> None:
    notice = page.locator(".notice[data-topic=hook]")
    assert notice.count() == 1
    assert notice.get_attribute("data-event") == "PreToolUse"
    assert notice.get_attribute("data-decision") == "deny"
    assert "notice-warn" in (notice.get_attribute("class") or "")
    assert notice.inner_text().startswith(
        "PreToolUse hook blocked the call: rm -rf is not allowed here (bash "
    )
    card = page.locator("section.tool[data-tool-call-id=c1]")
    assert card.get_attribute("data-status") == "failed"
    assert "blocked this call: rm -rf is not allowed here" in card.inner_text()
