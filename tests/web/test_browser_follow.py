"""A session open in one tab, opened in a second: read-only, following the log, then taken over.

Real Chromium, two tabs (two agent processes) on one `tether web`, desktop and phone.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.web.browser import ARTIFACTS, open_page, send_prompt, wait_idle
from tests.web.conftest import TETHER, WebServer, running_web

SCRIPT = {"turns": [{"text": "First **answer**."}, {"text": "Second answer."}]}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on `tether acp` with the script above."""
    root = tmp_path_factory.mktemp("follow")
    (root / "ws").mkdir()
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with running_web(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]
)
def test_a_second_tab_follows_read_only_then_takes_over(
    browser: Browser, web: WebServer, viewport: dict[str, int]
) -> None:
    with open_page(browser, web.url, viewport=viewport) as first:
        send_prompt(first, "one")
        first.wait_for_selector(".msg-agent:has-text('First answer.')")
        wait_idle(first)
        session = first.evaluate("() => location.hash")
        with open_page(browser, f"{web.url}{session}", viewport=viewport) as second:
            banner = second.locator("#banner")
            banner.wait_for()
            assert "Read-only" in banner.inner_text()
            second.wait_for_selector(".msg-agent strong:has-text('answer')")
            assert second.locator("#prompt").is_disabled()
            assert second.locator("#take-over").is_disabled()
            # New events in the other tab show up here as the log grows.
            send_prompt(first, "two")
            second.wait_for_selector(".msg-user:has-text('two')")
            second.wait_for_selector(".msg-agent:has-text('Second answer.')")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            name = "desktop" if viewport["width"] > 800 else "phone"
            second.screenshot(path=ARTIFACTS / f"read-only-{name}.png")
            first.close()
            # The other side let go: the session can be taken over.
            second.wait_for_selector("#take-over:not([disabled])")
            second.locator("#take-over").click()
            banner.wait_for(state="hidden")
            second.wait_for_selector("#prompt:not([disabled])")
            assert second.locator(".msg-agent:has-text('Second answer.')").count() == 1
            send_prompt(second, "three")
            second.wait_for_selector(".msg-user:has-text('three')")
            wait_idle(second)
            assert second.locator(".msg-agent").count() == 3
