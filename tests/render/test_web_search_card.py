"""The web search card in the terminal: numbered results, each URL a terminal link, the date
and snippet beneath, the backend and count in the footer."""

from __future__ import annotations

from tests.golden import check_golden
from tests.render.helpers import GOLDEN, plain, segments
from tether.render.terminal import render_result_view
from tether.render.web_search_card import SNIPPET_CHARS
from tether.views import WebSearchHit, WebSearchResultView

LONG = "Lorem ipsum dolor sit amet, " * 12
VIEW = WebSearchResultView(
    query="httpx 1.0 changes",
    results=(
        WebSearchHit(
            title="HTTPX 1.0 release notes",
            url="https://www.python-httpx.org/changelog/",
            snippet="What changed in httpx 1.0 & why.",
            published="2026-10-05",
        ),
        WebSearchHit(title="Migrating", url="https://github.com/encode/httpx/discussions/1"),
        WebSearchHit(title="A long one", url="https://example.org/long", snippet=LONG),
    ),
    truncated=True,
    provider="searxng",
)


def test_results_are_numbered_with_their_urls_dates_and_snippets() -> None:
    check_golden(GOLDEN / "web_search.txt", plain(render_result_view(VIEW)))
    collapsed = plain(render_result_view(VIEW, full=False))
    assert LONG.strip() not in " ".join(collapsed.split())
    assert "…" in collapsed
    assert len(LONG) > SNIPPET_CHARS


def test_each_url_is_a_terminal_link_to_the_page() -> None:
    links = {
        s.text: s.style.link for s in segments(render_result_view(VIEW)) if s.style and s.style.link
    }
    assert links == {hit.url: hit.url for hit in VIEW.results}


def test_no_results_and_hostile_text() -> None:
    empty = WebSearchResultView(query="zzz", results=(), truncated=False, provider="brave")
    text = plain(render_result_view(empty))
    assert "no results" in text and "Brave Search · 0 results" in text
    hostile = WebSearchResultView(
        query="q\x1b[2J",
        results=(
            WebSearchHit(title="t\x1b]0;pwned\x07", url="https://x.org/", snippet="\x1b[31mred"),
        ),
        truncated=False,
        provider="exa",
    )
    shown = plain(render_result_view(hostile))
    assert "\x1b" not in shown and "\x07" not in shown
    assert "␛]0;pwned␇" in shown and "Exa · 1 result" in shown
