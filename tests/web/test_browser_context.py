"""The context budget in the page: the header's gauge (green, amber past 60%, red past the
compaction point, which its tooltip names) and the compaction notice, live and reopened."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.web.browser import open_page, send_prompt, shoot_both, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer
from tether.cli import COMMANDS
from tether.cli.web import configure, options_from_args

SCRIPT = {
    "turns": [
        {"text": "hi", "usage": {"inputTokens": 2100, "outputTokens": 40}},
        {"text": "The user said hello and got an answer."},
        {"text": "again", "usage": {"inputTokens": 40000, "outputTokens": 5}},
        {"text": "and again", "usage": {"inputTokens": 52000, "outputTokens": 5}},
    ]
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` whose agent has a 64k window and a script that reports usage."""
    root = tmp_path_factory.mktemp("context")
    (root / "ws").mkdir()
    script = root / "script.json"
    script.write_text(json.dumps(SCRIPT))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}", "--context-window", "64000"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield server


def test_the_header_shows_the_budget_and_the_transcript_the_compaction(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as page:
        budget = page.locator("#budget")
        assert budget.is_hidden()
        send_prompt(page, "hello")
        page.wait_for_selector("#budget:not([hidden])")
        wait_idle(page)
        assert budget.inner_text() == "2.1k / 64k · 3%"
        assert budget.get_attribute("data-level") == "ok"
        assert budget.get_attribute("aria-valuenow") == "3"

        send_prompt(page, "/compact")
        notice = page.locator(".notice[data-topic=context]")
        notice.wait_for()
        wait_idle(page)
        assert notice.inner_text().startswith("context compacted by summary: ")
        # The notice is not part of the model's message.
        assert page.locator(".msg-agent", has_text="context compacted").count() == 0
        compacted = notice.inner_text()

        # Amber past 60%, red past the compaction point; the tooltip says where that is.
        send_prompt(page, "more")
        page.wait_for_selector("#budget[data-level=warn]")
        wait_idle(page)
        assert budget.inner_text() == "40k / 64k · 63%"
        assert "compacted at 80% (51.2k tokens)" in (budget.get_attribute("title") or "")
        send_prompt(page, "more again")
        page.wait_for_selector("#budget[data-level=high]")
        wait_idle(page)
        assert budget.inner_text() == "52k / 64k · 81%"
        shoot_both(page, "budget-gauge", "#topbar")

        page.locator("#sessions .session.current").wait_for()
        session_id = page.locator("#session-id").inner_text()
    with open_page(browser, web.url) as page:
        page.locator(f"#sessions .session[data-session-id='{session_id}']").click()
        page.locator(".notice[data-topic=context]").wait_for()
        assert page.locator(".notice[data-topic=context]").inner_text() == compacted
        # The replay goes on after the notice: wait for its last usage, not the first.
        page.wait_for_selector("#budget[data-level=high]")
        wait_idle(page)
        assert page.locator("#budget").inner_text() == "52k / 64k · 81%"


def test_the_default_agent_gets_the_context_flags(tmp_path: Path) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=COMMANDS["web"].help)
    configure(parser)
    args = parser.parse_args(
        ["--cwd", str(tmp_path), "--model", "script:x.json", "--context-window", "9000"]
    )
    agent = list(options_from_args(args).agent)
    assert agent[agent.index("--context-window") + 1] == "9000"
    assert agent[agent.index("--compact-at") + 1] == "0.8"
