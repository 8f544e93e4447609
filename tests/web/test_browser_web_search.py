"""The web search card in real Chromium: `tether web`'s agent searches a loopback server
speaking Brave's API; each result is a safe link, snippets are text, nothing from a result
is loaded, and a reopened session shows the same card."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.tools.web.search_api import Hit, SearchApi, env_for, ok_reply, serve_api
from tests.web.browser import open_page, send_prompt, shot, titled_session, wait_idle
from tests.web.in_process import web_in_process
from tests.web.served import WebServer

HITS = [
    Hit(
        "HTTPX 1.0 release notes",
        "https://www.python-httpx.org/changelog/",
        "What changed in <strong>httpx</strong> 1.0.",
        "2026-10-05T08:00:00",
    ),
    Hit(
        "&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt; Hostile title",
        "https://evil.example/page",
        "&lt;script&gt;window.pwned=2&lt;/script&gt; a snippet with markup in it",
    ),
    Hit("Not a link", "javascript:alert(1)", "dropped by the backend"),
]


@pytest.fixture(scope="module")
def api() -> Iterator[SearchApi]:
    with serve_api() as running:
        running.answer(ok_reply("brave", HITS, "httpx 1.0"))
        yield running


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory, api: SearchApi) -> Iterator[WebServer]:
    """`tether web` whose agents search with Brave at the loopback server."""
    root = tmp_path_factory.mktemp("search")
    (root / "ws").mkdir()
    script = root / "script.json"
    call = {"id": "s1", "name": "web_search", "arguments": {"query": "httpx 1.0"}}
    script.write_text(json.dumps({"turns": [{"toolCalls": [call]}, {"text": "Searched."}]}))
    env = {"TETHER_HOME": str(root / "home"), **env_for("brave", api)}
    extra = ["--model", f"script:{script}", "--mode", "auto"]
    with web_in_process(None, root / "ws", env=env, extra=extra) as server:
        yield server


def test_results_are_safe_links_with_text_snippets_and_nothing_loads(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as page:
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        send_prompt(page, "what changed in httpx 1.0?")
        page.wait_for_selector(".msg-agent:has-text('Searched.')")
        wait_idle(page)
        card = page.locator("[data-card=web][data-kind=search]")
        assert card.count() == 1
        assert "Brave Search · 2 results" in card.locator(".web-facts").inner_text()
        links = card.locator("a.web-hit-title")
        assert links.count() == 2
        assert [links.nth(i).get_attribute("href") for i in range(2)] == [
            "https://www.python-httpx.org/changelog/",
            "https://evil.example/page",
        ]
        for i in range(2):
            assert links.nth(i).get_attribute("rel") == "noopener noreferrer"
            assert links.nth(i).get_attribute("target") == "_blank"
        assert links.nth(0).inner_text() == "HTTPX 1.0 release notes"
        assert links.nth(1).inner_text() == '<img src=x onerror="window.pwned=1"> Hostile title'
        snippets = card.locator(".web-hit-snippet").all_inner_texts()
        assert snippets == [
            "What changed in httpx 1.0.",
            "<script>window.pwned=2</script> a snippet with markup in it",
        ]
        assert card.locator(".web-hit-date").all_inner_texts() == ["2026-10-05"]
        assert card.locator("img, script").count() == 0
        assert page.evaluate("window.pwned") is None
        assert "javascript" not in card.inner_html()
        # Nothing from a result was fetched: every request went to the page's own server.
        origin = web.url.split("/?", 1)[0]
        assert [u for u in requested if not u.startswith(origin)] == []
        shot(page, "[data-card=web][data-kind=search]", "card-web-search")
        live = card.inner_text()
        title = titled_session(page)
    with open_page(browser, web.url) as page:
        page.locator("#sessions .session", has_text=title).click()
        page.wait_for_selector(".msg-agent:has-text('Searched.')")
        assert page.locator("[data-card=web][data-kind=search]").inner_text() == live
