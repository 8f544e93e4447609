"""The fetch envelope and the narrowing of stored meta: malformed meta never makes a card."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.content import ImageContent, TextContent
from tether.tools import ToolResult
from tether.tools.card_context import CardContext
from tether.tools.web import WebFetchArgs, WebFetchTool, WebMeta, web_meta_from_meta
from tether.tools.web.envelope import MAX_TEXT_CHARS, envelope_content, render_envelope

GOOD: dict[str, Any] = {
    "url": "https://example.com/a",
    "statusCode": 200,
    "truncated": False,
    "contentType": "text/html",
    "bytes": 12,
    "title": "A",
}


def test_good_meta_narrows() -> None:
    assert web_meta_from_meta(GOOD) == WebMeta(
        url="https://example.com/a",
        status_code=200,
        truncated=False,
        content_type="text/html",
        bytes=12,
        title="A",
    )
    minimal = {"url": "http://x", "statusCode": 404, "truncated": True, "extra": [1]}
    assert web_meta_from_meta(minimal) == WebMeta(url="http://x", status_code=404, truncated=True)


@pytest.mark.parametrize(
    "change",
    [
        {"url": None},
        {"url": 3},
        {"url": "javascript:alert(1)"},
        {"url": "file:///etc/passwd"},
        {"statusCode": None},
        {"statusCode": "200"},
        {"statusCode": 200.0},
        {"statusCode": True},
        {"statusCode": 99},
        {"statusCode": 600},
        {"truncated": None},
        {"truncated": 0},
        {"truncated": "false"},
        {"bytes": -1},
        {"bytes": 1.5},
        {"bytes": False},
        {"bytes": "12"},
        {"contentType": 1},
        {"title": ["A"]},
        {"redirect": {"to": "x"}},
    ],
)
def test_malformed_meta_is_rejected(change: dict[str, Any]) -> None:
    assert web_meta_from_meta({**GOOD, **change}) is None


@pytest.mark.parametrize("meta", [None, [], "meta", 3, {"url": "http://x"}])
def test_meta_that_is_not_an_object_or_lacks_fields_is_rejected(meta: object) -> None:
    assert web_meta_from_meta(meta) is None


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    st.dictionaries(
        st.sampled_from(
            ["url", "statusCode", "truncated", "contentType", "bytes", "title", "redirect"]
        ),
        _JSON,
    )
    | _JSON
)
def test_narrowing_never_raises_and_what_passes_is_well_typed(meta: object) -> None:
    narrowed = web_meta_from_meta(meta)
    if narrowed is not None:
        assert isinstance(narrowed.url, str) and narrowed.url.startswith(("http://", "https://"))
        assert type(narrowed.status_code) is int and 100 <= narrowed.status_code <= 599
        assert type(narrowed.truncated) is bool


def test_the_card_needs_good_meta_and_one_text_block() -> None:
    tool = WebFetchTool()
    args = WebFetchArgs(url="https://example.com/a")
    text = (
        "URL: https://example.com/a | Status: 200 OK | Content-Type: text/html\n"
        "<web_content>\n# A\n</web_content>"
    )
    good = ToolResult(content=(TextContent(text=text),), meta=GOOD)
    card = tool.present_result(args, good, CardContext())
    assert card is not None and card.content == "# A" and card.title == "A"
    assert (
        tool.present_result(args, ToolResult(content=good.content, meta={"url": 1}), CardContext())
        is None
    )
    assert tool.present_result(args, ToolResult(content=good.content), CardContext()) is None
    two = ToolResult(content=(TextContent(text=text), TextContent(text="x")), meta=GOOD)
    assert tool.present_result(args, two, CardContext()) is None
    image = ToolResult(content=(ImageContent(data="AA==", mime_type="image/png"),), meta=GOOD)
    assert tool.present_result(args, image, CardContext()) is None
    plain = ToolResult(content=(TextContent(text="not an envelope"),), meta=GOOD)
    plain_card = tool.present_result(args, plain, CardContext())
    assert plain_card is not None and plain_card.content is None


def test_envelope_round_trip_and_cap() -> None:
    head = "URL: https://e.com/ | Status: 200 OK | Content-Type: text/plain"
    text, cut = render_envelope(head, "body\n", [])
    assert (text, cut) == (f"{head}\n<web_content>\nbody\n</web_content>", False)
    assert envelope_content(text) == "body"
    empty, _ = render_envelope(head, "", [])
    assert envelope_content(empty) == ""
    long, cut = render_envelope(head, "x" * 200_000, [])
    assert cut and len(long) <= MAX_TEXT_CHARS
    assert long.endswith(" of 200,000 characters.)")
    assert envelope_content("no header\n<web_content>\nx\n</web_content>") is None
    assert envelope_content(f"{head}\nno content") is None
    assert envelope_content(f"{head}\n</web_content>\n<web_content>\n") is None
