"""Thinking in the page: a collapsed block above the answer, labelled with how long the model
thought, open on a click; the same when the session is opened again; the thinking menu."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

THOUGHT = "The person wants a greeting. A short one will do."
SCRIPT = {"turns": [{"thinking": THOUGHT, "text": "Hello!"}]}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` whose scripted model thinks before it answers."""
    root = tmp_path_factory.mktemp("thinking")
    (root / "ws").mkdir()
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def _thought(page: Page) -> tuple[str, str, bool]:
    block = page.locator("details.msg-thought")
    block.wait_for()
    return (
        block.locator("summary").inner_text(),
        block.locator(".msg-text").text_content() or "",
        block.evaluate("node => node.open"),
    )


def test_a_thought_is_a_collapsed_block_live_and_reopened(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url) as page:
        send_prompt(page, "say hello")
        page.locator(".msg-agent", has_text="Hello!").wait_for()
        wait_idle(page)
        # The session's thinking option is a menu in the header, as the model's is.
        menu = page.locator("select[data-menu-id=thinking]")
        assert menu.input_value() == "off"
        summary, text, opened = _thought(page)
        assert summary.startswith("Thought for ") and text == THOUGHT and opened is False
        # Above the answer, apart from it.
        order = page.evaluate(
            "() => [...document.querySelectorAll('.msg-thought, .msg-agent')].map(n => n.className)"
        )
        assert order[0].startswith("msg msg-thought") and "msg-agent" in order[1]
        page.locator("details.msg-thought summary").click()
        assert page.locator("details.msg-thought").evaluate("node => node.open") is True
        live = (summary, text)
        session_id = page.locator("#session-id").inner_text()

    with open_page(browser, web.url) as page:
        page.locator(f"#sessions .session[data-session-id='{session_id}']").click()
        page.locator(".msg-agent", has_text="Hello!").wait_for()
        summary, text, opened = _thought(page)
        assert (summary, text) == live and opened is False  # the same duration: the log's
