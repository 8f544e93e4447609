"""Settings in real Chromium against `tether acp`: the workspace's trust asked in the page,
and the permissions panel listing each rule with its file."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.browser import open_page, shot, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

PROJECT = {
    "permissions": {"allow": ["bash(*)"], "deny": ["read(secret.txt)"], "defaultMode": "auto"},
    "colour": "blue",
}
CLAUDE = """{
  // Claude Code's project settings, comments and all
  "permissions": {"deny": ["Read(./.env*)"],},
  "statusLine": {"type": "command", "command": "echo"}
}"""
MODE = "#settings select[data-menu-id=mode]"
SCRIPT = {
    "turns": [
        {"toolCalls": [{"id": "b1", "name": "bash", "arguments": {"command": "touch ran"}}]},
        {"text": "done"},
    ]
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cloned repository whose settings allow everything once trusted."""
    root = tmp_path_factory.mktemp("settings")
    ws = (root / "ws").resolve()
    (ws / ".tether").mkdir(parents=True)
    (ws / ".tether/settings.json").write_text(json.dumps(PROJECT))
    (ws / ".claude").mkdir()
    (ws / ".claude/settings.json").write_text(CLAUDE)
    return ws


@pytest.fixture(scope="module")
def web(workspace: Path) -> Iterator[WebServer]:
    """`tether web` on that workspace, with its own data directory."""
    script = workspace.parent / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--sandbox", "off"])
    home = workspace.parent / "home"
    with web_in_process(agent, workspace, env={"TETHER_HOME": str(home)}) as server:
        yield server


def test_trust_is_asked_in_the_page_and_the_panel_lists_the_rules(
    browser: Browser, web: WebServer, workspace: Path
) -> None:
    with open_page(browser, web.url) as page:
        page.click("#new-session")
        page.wait_for_selector("#send:not([disabled])")
        assert page.locator(MODE).input_value() == "ask"  # nothing granted yet
        page.fill("#prompt", "go")
        page.press("#prompt", "Enter")
        request = page.locator(".permission", has_text="Trust this workspace")
        request.wait_for()
        assert not (workspace / "ran").exists()
        names = [b.inner_text() for b in request.locator("button").all()]
        assert names == ["Trust it for this session", "Trust this workspace", "Do not trust it"]
        shot(page, "section.tool[data-tool-call-id=workspace-trust]", "settings-trust")
        request.locator("button[data-option-id=allow_always]").click()
        wait_idle(page)
        # Trusted: auto mode and bash(*) apply at once, so the command ran without asking.
        page.locator("section.tool[data-tool-call-id=b1]").wait_for()
        assert (workspace / "ran").exists()
        assert page.locator(MODE).input_value() == "auto"
        trusted = json.loads((workspace.parent / "home/trusted.json").read_text())
        assert str(workspace) in trusted["workspaces"]

        assert page.locator("#permissions-button").is_visible()  # tether says it has it
        page.click("#permissions-button")
        panel = page.locator("dialog#permissions")
        panel.locator(".perms-rule").first.wait_for()
        assert panel.locator(".perms-trust").inner_text() == "trusted"
        assert panel.locator(".perms-mode").inner_text().startswith("Mode: auto (from project")
        deny = panel.locator(".perms-rule[data-kind=deny]").last
        assert deny.locator("code").inner_text() == "read(secret.txt)"
        assert deny.locator(".perms-source").get_attribute("title") == str(
            workspace / ".tether/settings.json"
        )
        claude = panel.locator(".perms-rule[data-kind=deny]").first
        assert claude.locator("code").inner_text() == "read(./.env*)"
        assert claude.locator(".perms-source").get_attribute("title") == str(
            workspace / ".claude/settings.json"
        )
        assert claude.locator(".perms-source").inner_text().startswith("claude · ")
        assert panel.locator(".perms-claude li").inner_text() == (
            f"{workspace}/.claude/settings.json: read 1 deny rule; not supported: statusLine "
            "(see the warnings)"
        )
        assert "statusLine: not supported" in panel.locator(".perms-problems").inner_text()
        assert panel.locator(".perms-rule[data-kind=allow] code").inner_text() == "bash(*)"
        assert "colour: unknown key" in panel.locator(".perms-problems").inner_text()
        shot(page, "dialog#permissions", "settings-panel")
        page.keyboard.press("Escape")
        panel.wait_for(state="hidden")


def test_the_default_agent_gets_the_rule_flags(tmp_path: Path) -> None:
    import argparse

    from tether.cli.web import configure, options_from_args

    parser = argparse.ArgumentParser()
    configure(parser)
    args = parser.parse_args(
        ["--cwd", str(tmp_path), "--allow", "bash(npm test)", "--deny", "read(.env)"]
    )
    agent = list(options_from_args(args).agent)
    assert agent[-4:] == ["--allow", "bash(npm test)", "--deny", "read(.env)"]
    assert "--mode" not in agent and "--sandbox" not in agent  # the settings decide those
