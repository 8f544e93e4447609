"""The web card in real Chromium: `tether web --allow-private-fetch` passes the flag to its
agents, which fetch from a loopback server the test runs; the page shows a safe link, the
status and the page's markdown rendered without any of its raw HTML."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.tools.web.server import PageServer, reply, serve
from tests.web.browser import open_page, send_prompt, shot, titled_session, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import WebServer

PAGE = b"""# Guide

Read [the docs](/docs) or [this](javascript:alert(1)).

<img src="x" onerror="window.pwned = 1"> <b>raw</b>

![a chart](/chart.png)

| a | b |
|---|---|
| 1 | 2 |

```python
def f():
    return 1
```
"""


@pytest.fixture(scope="module")
def pages() -> Iterator[PageServer]:
    """The pages the scripted model fetches."""
    with serve() as server:
        server.routes["/guide.md"] = lambda h: reply(h, 200, PAGE, "text/markdown")
        yield server


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory, pages: PageServer) -> Iterator[WebServer]:
    """`tether web` running its default agent with a script and `--allow-private-fetch`."""
    root = tmp_path_factory.mktemp("fetch")
    (root / "ws").mkdir()
    script = root / "script.json"
    turns = [
        {"toolCalls": [{"id": "f1", "name": "web_fetch", "arguments": {"url": url}}]}
        for url in (pages.url("/guide.md"), pages.url("/missing"))
    ]
    script.write_text(json.dumps({"turns": [*turns, {"text": "Fetched both."}]}))
    extra = ["--model", f"script:{script}", "--mode", "auto", "--allow-private-fetch"]
    with web_in_process(
        None, root / "ws", env={"TETHER_HOME": str(root / "home")}, extra=extra
    ) as s:
        yield s


def test_the_web_card_shows_a_safe_link_the_status_and_the_markdown(
    browser: Browser, web: WebServer, pages: PageServer
) -> None:
    with open_page(browser, web.url) as page:
        send_prompt(page, "read the guide")
        page.wait_for_selector(".msg-agent:has-text('Fetched both.')")
        wait_idle(page)
        cards = page.locator("[data-card=web]")
        assert cards.count() == 2
        card = cards.nth(0)
        link = card.locator(".card-head a.web-url")
        assert link.get_attribute("href") == pages.url("/guide.md")
        assert link.get_attribute("rel") == "noopener noreferrer"
        assert link.get_attribute("target") == "_blank"
        assert card.locator(".card-head .pill-ok").inner_text() == "200"
        assert "text/markdown" in card.locator(".web-facts").inner_text()
        body = card.locator(".web-body")
        assert body.locator("h1").inner_text() == "Guide"
        # Set apart from the agent's own answer: its own ground, and headings smaller than
        # the transcript's (an h1 of the page is under the answer's 20 px one).
        size = body.locator("h1").evaluate("h => parseFloat(getComputedStyle(h).fontSize)")
        assert size < 20
        ground = body.evaluate("b => getComputedStyle(b).backgroundColor")
        answer = page.locator(".msg-agent").last.evaluate(
            "m => getComputedStyle(m).backgroundColor"
        )
        assert ground != answer
        docs = body.locator("a", has_text="the docs")
        assert docs.get_attribute("href") == pages.url("/docs")  # relative to the fetched page
        assert docs.get_attribute("rel") == "noopener noreferrer"
        assert body.locator("a", has_text="this").count() == 0  # javascript: is no link
        assert body.locator("img, b").count() == 0  # raw HTML is shown as text, not made
        chart = body.locator("a", has_text="[image: a chart]")  # images are links, not loads
        assert chart.get_attribute("href") == pages.url("/chart.png")
        assert '<img src="x" onerror="window.pwned = 1">' in body.inner_text()
        assert page.evaluate("window.pwned") is None
        assert body.locator("table td").all_inner_texts() == ["1", "2"]
        assert body.locator("pre.hl .k", has_text="def").count() == 1
        shot(page, "[data-card=web]", "card-web")
        missing = cards.nth(1)
        assert missing.locator(".card-head .pill-bad").inner_text() == "404"
        assert "Not here" in missing.locator(".web-body").inner_text()
        live = [c.inner_text() for c in cards.all()]
        title = titled_session(page)
    with open_page(browser, web.url) as page:
        page.locator("#sessions .session", has_text=title).click()
        page.wait_for_selector(".msg-agent:has-text('Fetched both.')")
        assert [c.inner_text() for c in page.locator("[data-card=web]").all()] == live
