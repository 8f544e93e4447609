"""Accessibility of the page in real Chromium: axe-core (npm) finds no serious violation in
either theme, and the keyboard works (y/a/n on a permission, Esc cancels, `#session=` opens).

axe-core is installed from `tests/web/node/package-lock.json` on first use (`npm ci`).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.npm import npm_package
from tests.web.browser import ARTIFACTS, open_page, send_prompt, wait_idle
from tests.web.conftest import TETHER, WebServer, running_web

NODE_DIR = Path(__file__).with_name("node")
AXE_VERSION = "4.14.1"

SCRIPT = {
    "turns": [
        {
            "text": "## Checking\n\nRunning the **slow** check; `code` too.",
            "toolCalls": [
                {"id": "s1", "name": "bash", "arguments": {"command": "sleep 30"}},
            ],
        },
        {
            "text": "Reading it.",
            "toolCalls": [{"id": "r1", "name": "read", "arguments": {"path": "a.py"}}],
        },
        {"text": "It defines `f`."},
    ]
}


@pytest.fixture(scope="module")
def axe() -> str:
    """axe-core's source, installed from the lock file on first use."""
    return (npm_package(NODE_DIR, "axe-core", AXE_VERSION) / "axe.min.js").read_text()


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on `tether acp` with the script above (mode ask)."""
    root = tmp_path_factory.mktemp("a11y")
    (root / "ws").mkdir()
    (root / "ws" / "a.py").write_text("def f():\n    return 1\n")
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with running_web(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def _serious(page: Page, axe: str) -> list[dict[str, Any]]:
    page.add_script_tag(content=axe)
    report: dict[str, Any] = page.evaluate(
        """async () => await axe.run(document, {
            runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
            resultTypes: ["violations"],
        })"""
    )
    # axe really ran, contrast included (it is judged on the rendered colours).
    checked = {rule["id"] for rule in report["passes"]} | {v["id"] for v in report["violations"]}
    assert {"color-contrast", "label", "button-name"} <= checked, sorted(checked)
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["html"][:160] for n in v["nodes"]]}
        for v in report["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def _session_with_everything(page: Page) -> None:
    """A prompt answered by keyboard (y), cancelled by Esc, then one that reads a file."""
    send_prompt(page, "check it")
    box = page.locator("section.tool[data-tool-call-id=s1] .permission")
    box.locator("button").first.wait_for()
    page.keyboard.press("y")
    page.locator("section.tool[data-tool-call-id=s1] .perm-decision").wait_for()
    assert page.locator("section.tool[data-tool-call-id=s1] .perm-decision").inner_text() == (
        "Allowed once"
    )
    page.locator("section.tool[data-tool-call-id=s1] .pill-run").wait_for()
    page.keyboard.press("Escape")
    page.locator(".notice:has-text('Cancelled.')").wait_for()
    wait_idle(page)
    send_prompt(page, "read a.py")
    page.wait_for_selector(".msg-agent:has-text('It defines')")
    page.locator("section.tool[data-tool-call-id=r1] [data-card=read]").wait_for()
    wait_idle(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation(
    browser: Browser, web: WebServer, axe: str, scheme: Any
) -> None:
    with open_page(browser, web.url, color_scheme=scheme, bypass_csp=True) as page:
        if scheme == "light":
            _session_with_everything(page)
        else:
            page.locator("#sessions .session").first.click()
            page.wait_for_selector(".msg-agent:has-text('It defines')")
        # Labels and text where there were only icons and colours.
        assert page.locator("#prompt").get_attribute("aria-label") == "Prompt"
        assert page.locator("#refresh").get_attribute("aria-label")
        assert page.locator("#conn-text").inner_text() == "Connected"
        # Only new things are announced, not the whole transcript on every change.
        assert page.locator("#transcript").get_attribute("aria-live") is None
        assert page.locator("#announcer").get_attribute("aria-live") == "polite"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"a11y-{scheme}.png")
        assert _serious(page, axe) == []


def test_changing_the_address_opens_that_session(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url) as page:
        first = page.locator("#sessions .session").first
        first.wait_for()
        wanted = first.get_attribute("data-session-id")
        page.locator("#new-session").click()
        page.wait_for_function(
            "wanted => location.hash.startsWith('#session=') && !location.hash.endsWith(wanted)",
            arg=wanted,
        )
        assert page.locator(".msg-agent").count() == 0
        page.evaluate("wanted => { location.hash = `session=${wanted}`; }", wanted)
        page.wait_for_selector(".msg-agent:has-text('It defines')")
        assert page.locator("#session-id").inner_text() == wanted
