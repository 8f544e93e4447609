"""The web card in the terminal: URL, status pill, size, and the first lines of the page."""

from __future__ import annotations

from rich.style import Style

from tests.render.helpers import plain, segments
from tether.render.terminal import render_result_view
from tether.render.web_card import PREVIEW_LINES
from tether.views import WebFetchResultView

PAGE = "\n".join(
    [
        "# Install",
        "",
        "Run `pip install thing` **now**, see [the docs](https://d.example/).",
        "",
        *[f"- line {n}" for n in range(40)],
    ]
)


def test_a_page_shows_its_url_title_size_status_and_first_lines() -> None:
    view = WebFetchResultView(
        url="https://example.com/docs",
        status_code=200,
        truncated=False,
        title="Docs",
        content_type="text/html; charset=utf-8",
        bytes=12_345,
        content=PAGE,
    )
    text = plain(render_result_view(view))
    lines = text.splitlines()
    assert "https://example.com/docs  Docs" in lines[0]
    # The markdown is rendered: no raw `#`, `**` or `[..](..)`, the link's address kept.
    assert "Install" in lines[1] and "#" not in text
    assert "Run pip install thing now, see the docs (https://d.example/)." in text
    assert "**" not in text and "](" not in text
    assert f"line {PREVIEW_LINES - 5}" in text and f"line {PREVIEW_LINES - 4}" not in text
    assert f"… {len(PAGE.splitlines()) - PREVIEW_LINES} more lines" in text
    assert "text/html; charset=utf-8 · 12.1 KB" in lines[-1] and " 200 " in lines[-1]
    pill = [s for s in segments(render_result_view(view)) if s.text == "200"]
    assert (
        pill
        and pill[0].style is not None
        and pill[0].style.bgcolor == Style(bgcolor="green").bgcolor
    )


def test_an_error_is_a_red_pill_and_a_cut_page_says_so() -> None:
    view = WebFetchResultView(
        url="https://example.com/x", status_code=404, truncated=True, bytes=900, content="gone"
    )
    text = plain(render_result_view(view))
    assert "900 B" in text and "404" in text
    assert "truncated: the model saw the start of the page" in text
    pill = [s for s in segments(render_result_view(view)) if s.text == "404"]
    assert pill[0].style is not None and pill[0].style.bgcolor == Style(bgcolor="red").bgcolor


def test_a_redirect_names_where_it_points_and_control_characters_are_shown() -> None:
    view = WebFetchResultView(
        url="https://a.example/",
        status_code=301,
        truncated=False,
        redirect="https://b.example/\x1b[2J",
    )
    text = plain(render_result_view(view))
    assert "redirects to another host, not followed: https://b.example/␛[2J" in text
    assert "\x1b" not in text
    empty = plain(
        render_result_view(WebFetchResultView(url="https://a/", status_code=204, truncated=False))
    )
    assert "no text" in empty
