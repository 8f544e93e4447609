"""`open_page`'s tabs in real Chromium: the next page opens in the context a closed page left,
and finds nothing that page kept there (cookies, stored data)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.web.browser import open_page
from tests.web.in_process import web_in_process
from tests.web.served import WebServer, fake_agent_command


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """`tether web` on the test agent."""
    root = tmp_path_factory.mktemp("pages")
    (root / "ws").mkdir()
    with web_in_process(fake_agent_command(root / "store"), root / "ws") as server:
        yield server


def test_the_next_page_reuses_the_context_and_finds_nothing_kept(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as first:
        first.evaluate("() => { localStorage.setItem('kept', '1'); document.cookie = 'seen=1'; }")
        first.evaluate("() => sessionStorage.setItem('tab', '1')")
        assert "seen=1" in first.evaluate("() => document.cookie")
        context = first.context
    with open_page(browser, web.url) as second:
        assert second.context is context
        assert second.evaluate("() => localStorage.getItem('kept')") is None
        assert second.evaluate("() => sessionStorage.getItem('tab')") is None
        assert "seen=1" not in second.evaluate("() => document.cookie")
        # The server's own cookie came with this page's load, not from the last one.
        names = [c["name"] for c in second.context.cookies()]
        assert len(names) == 1 and names[0] != "seen"


def test_a_page_in_use_never_shares_its_context(browser: Browser, web: WebServer) -> None:
    with open_page(browser, web.url) as first, open_page(browser, web.url) as second:
        assert first.context is not second.context
        assert [p for p in first.context.pages if p.url != "about:blank"] == [first]


def test_other_options_get_their_own_context_and_an_init_script_stays_in_its_page(
    browser: Browser, web: WebServer
) -> None:
    with open_page(browser, web.url) as light:
        context = light.context
    phone = {"width": 390, "height": 844}
    with open_page(
        browser, web.url, color_scheme="dark", viewport=phone, init_script="window.__mark = 1"
    ) as dark:
        assert dark.context is not context
        assert dark.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark.evaluate("() => [innerWidth, screen.width]") == [390, 390]
        assert dark.evaluate("() => window.__mark") == 1
        context = dark.context
    with open_page(browser, web.url, color_scheme="dark", viewport=phone) as again:
        assert again.context is context
        assert again.evaluate("() => window.__mark") is None


def test_a_failed_test_s_context_is_closed_not_kept(browser: Browser, web: WebServer) -> None:
    with pytest.raises(RuntimeError), open_page(browser, web.url) as page:
        failed = page.context
        raise RuntimeError("the test failed")
    with open_page(browser, web.url) as page:
        assert page.context is not failed
    with pytest.raises(Exception, match="closed"):
        failed.new_page()
