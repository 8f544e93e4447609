"""What the session cost, in the budget gauge's tooltip: live, and 'unknown' without a price."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.web.browser import open_page, send_prompt, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import TETHER, WebServer

TURNS = {"turns": [{"text": "hi", "usage": {"inputTokens": 1000, "outputTokens": 100}}]}


@pytest.fixture(scope="module", params=["priced", "unpriced"])
def web(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, WebServer]]:
    """`tether web` whose scripted model reports usage, priced by the settings or not."""
    name: str = request.param
    root = tmp_path_factory.mktemp(name)
    (root / "ws").mkdir()
    (root / "home").mkdir()
    script = root / f"{name}.json"
    script.write_text(json.dumps(TURNS))
    price = {"models": {"priced.json": {"price": {"input": 2.0, "output": 10.0}}}}
    (root / "home" / "settings.json").write_text(json.dumps(price))
    agent = shlex.join([*TETHER, "acp", "--model", f"script:{script}"])
    with web_in_process(agent, root / "ws", env={"TETHER_HOME": str(root / "home")}) as server:
        yield name, server


def test_the_gauge_says_what_the_session_cost(browser: Browser, web: tuple[str, WebServer]) -> None:
    name, server = web
    with open_page(browser, server.url) as page:
        send_prompt(page, "hello")
        page.wait_for_selector("#budget:not([hidden])")
        wait_idle(page)
        title = page.locator("#budget").get_attribute("title") or ""
    expected = (
        "Cost so far: $0.0030." if name == "priced" else "Cost: unknown (no price for this model)."
    )
    assert title.endswith(expected), title
