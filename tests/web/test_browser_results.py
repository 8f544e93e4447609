"""Results beyond text in real Chromium: an MCP tool's image drawn inline from its data, its
resources named and never fetched, and commands stopped by their timeout or by a cancel
marked failed.

A scripted `tether acp` (commands unsandboxed, so a shell's trap decides its exit code) runs
a command that traps SIGTERM and exits 0 when its timeout stops it, and calls the sample MCP
server (configured in `$TETHER_HOME/mcp.json`) for a picture and a document; a second prompt
runs a command the person cancels with Esc. The same cards come back when the stored session
is opened again.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Request

from tests.mcp.support import PNG, SAMPLE
from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

PROMPT = "Show me the picture"
WAITING = "echo started-$((6 * 7)); sleep 30"
STOPPED = "trap 'echo stopping; exit 0' TERM; echo begun; sleep 30 & wait"
SCRIPT = {
    "turns": [
        {
            "toolCalls": [
                {
                    "id": "timeout-1",
                    "name": "bash",
                    # Long enough for the shell to set its trap first on a loaded machine:
                    # at 500 ms a shell that started late was killed before it had one.
                    "arguments": {"command": STOPPED, "timeout_ms": 2000},
                },
                {"id": "image-1", "name": "mcp__sample__picture", "arguments": {}},
                {"id": "doc-1", "name": "mcp__sample__document", "arguments": {}},
            ]
        },
        {"text": "Here they are."},
        {
            "toolCalls": [
                {"id": "cancel-1", "name": "bash", "arguments": {"command": WAITING}},
            ]
        },
        {"text": "Never asked for: the turn was cancelled."},
    ]
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` whose agent has the sample MCP server and runs commands unsandboxed."""
    root = tmp_path_factory.mktemp("results")
    ws = root / "ws"
    ws.mkdir()
    home = root / "home"
    home.mkdir()
    servers = {"sample": {"command": sys.executable, "args": [str(SAMPLE), "stdio"]}}
    (home / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = [*TETHER, "acp", "--model", f"script:{script}", "--mode", "auto", "--sandbox", "off"]
    with web_in_process(shlex.join(agent), ws, env={"TETHER_HOME": str(home)}) as server:
        yield server


def _check(page: Page) -> None:
    stopped = page.locator("section.tool[data-tool-call-id=timeout-1]")
    stopped.locator("[data-card=terminal] .pill:not(.pill-run)").wait_for()
    # Stopped by its timeout: failed, though its shell's trap exited 0.
    assert stopped.get_attribute("data-status") == "failed"
    assert stopped.locator(".tool-status").text_content() == "failed"
    pill = stopped.locator("[data-card=terminal] .pill")
    assert pill.inner_text() == "exit 0"
    assert "pill-bad" in (pill.get_attribute("class") or "")
    assert "begun" in stopped.locator(".term-out").inner_text()

    # Cancelled by the person: failed too, its output kept, killed by the cancel's signal.
    cancelled = page.locator("section.tool[data-tool-call-id=cancel-1]")
    cancelled.locator("[data-card=terminal] .pill:not(.pill-run)").wait_for()
    assert cancelled.get_attribute("data-status") == "failed"
    assert cancelled.locator(".tool-status").text_content() == "failed"
    assert cancelled.locator("[data-card=terminal] .pill").inner_text() == "killed · SIGTERM"
    assert "started-42" in cancelled.locator(".term-out").inner_text()
    assert page.locator(".msg-agent:has-text('Never asked for')").count() == 0

    image = page.locator("section.tool[data-tool-call-id=image-1] [data-card=generic]")
    drawn = image.locator("figure.attachment-image img.content-image")
    drawn.wait_for()
    src = drawn.get_attribute("src") or ""
    assert src.startswith("data:image/png;base64,")
    assert drawn.evaluate("img => img.complete && img.naturalWidth") == 1  # decoded: 1x1
    assert image.locator("figcaption").inner_text() == f"image/png · {len(PNG)} B"

    doc = page.locator("section.tool[data-tool-call-id=doc-1] [data-card=generic]")
    doc.locator(".resource").wait_for()
    assert doc.locator(".generic-text").first.inner_text() == "Here is the README."
    assert "file:///project/README.md" in doc.locator(".resource .uri").first.inner_text()
    assert doc.locator(".resource pre").inner_text() == "# Project\n"
    link = doc.locator(".resource-link")
    assert "logo.png" in link.inner_text()
    assert "https://example.invalid/logo.png" in link.inner_text()
    assert "image/png · 2.0 KB" in link.inner_text()
    # A link to an image is named, never drawn or made a link the page could load.
    assert doc.locator("img").count() == 0
    assert doc.locator("a").count() == 0


def test_results_beyond_text_live_and_on_load(browser: Browser, web: WebServer) -> None:
    requested: list[str] = []

    def record(request: Request) -> None:
        requested.append(request.url)

    with open_page(browser, web.url) as page:
        page.on("request", record)
        send_prompt(page, PROMPT)
        page.wait_for_selector(".msg-agent:has-text('Here they are.')")
        wait_idle(page)
        send_prompt(page, "Wait for it")
        page.locator(
            "section.tool[data-tool-call-id=cancel-1] .term-out:has-text('started-42')"
        ).wait_for()
        page.keyboard.press("Escape")
        page.locator(".notice:has-text('Cancelled.')").wait_for()
        wait_idle(page)
        _check(page)
        page.locator("#sessions .session.current").wait_for()
    with open_page(browser, web.url) as page:
        page.on("request", record)
        page.locator("#sessions .session", has_text=PROMPT).click()
        page.wait_for_selector(".msg-agent:has-text('Here they are.')")
        _check(page)
    assert not [url for url in requested if "example.invalid" in url]
