"""The search card's narrowing: what the tool stores comes back; anything off falls back to
the generic card, and the narrowing never raises."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tether.content import TextContent
from tether.tools import ToolResult
from tether.tools.card_context import CardContext
from tether.tools.present import result_view
from tether.tools.web import NoSearch, WebSearchArgs, WebSearchTool
from tether.tools.web.search_meta import SearchMeta, web_search_meta_from_meta
from tether.tools.web.search_value import WebSearchValue
from tether.views import GenericResultView, WebSearchHit, WebSearchResultView

GOOD: dict[str, Any] = {
    "query": "httpx 1.0",
    "provider": "exa",
    "results": [
        {
            "title": "Changelog",
            "url": "https://www.python-httpx.org/changelog/",
            "snippet": "What changed",
            "published": "2026-10-05",
        },
        {"title": "Discussion", "url": "http://github.com/encode/httpx/discussions/1"},
    ],
    "truncated": True,
}
_DELETE = object()


def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(GOOD)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def test_good_meta_narrows() -> None:
    assert web_search_meta_from_meta(GOOD) == SearchMeta(
        query="httpx 1.0",
        provider="exa",
        results=(
            WebSearchHit(
                title="Changelog",
                url="https://www.python-httpx.org/changelog/",
                snippet="What changed",
                published="2026-10-05",
            ),
            WebSearchHit(title="Discussion", url="http://github.com/encode/httpx/discussions/1"),
        ),
        truncated=True,
    )
    assert web_search_meta_from_meta({**GOOD, "results": [], "extra": {"x": 1}}) is not None


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("query",), _DELETE),
        (("query",), 3),
        (("provider",), "bing"),
        (("provider",), None),
        (("provider",), ["exa"]),
        (("truncated",), 1),
        (("truncated",), "false"),
        (("truncated",), _DELETE),
        (("results",), {}),
        (("results",), _DELETE),
        (("results",), [GOOD["results"][1]] * 21),
        (("results", 0), "https://x.org"),
        (("results", 0, "title"), None),
        (("results", 0, "title"), _DELETE),
        (("results", 0, "url"), "javascript:alert(1)"),
        (("results", 0, "url"), "https://a b.org"),
        (("results", 0, "url"), " https://x.org"),
        (("results", 0, "url"), "https://x.org/\x1b]8;;evil\x1b\\"),
        (("results", 0, "url"), _DELETE),
        (("results", 0, "snippet"), 5),
        (("results", 0, "published"), ["2026"]),
    ],
)
def test_malformed_meta_is_refused(path: tuple[Any, ...], value: Any) -> None:
    assert web_search_meta_from_meta(changed(path, value)) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
keys = st.sampled_from(
    ["query", "provider", "results", "truncated", "title", "url", "snippet", "published"]
)


@given(st.dictionaries(keys, json_values, max_size=6) | json_values)
def test_narrowing_never_raises_and_a_rejection_is_the_generic_card(meta: object) -> None:
    narrowed = web_search_meta_from_meta(meta)
    tool = WebSearchTool(NoSearch("none"))
    args = WebSearchArgs(query="q")
    result = ToolResult(content=(TextContent(text="t"),), meta=meta)  # type: ignore[arg-type]
    view = result_view(tool, args, result, CardContext())
    if narrowed is None:
        assert view == GenericResultView(content="t")
    else:
        assert isinstance(view, WebSearchResultView) and view.results == narrowed.results


hits = st.lists(
    st.builds(
        WebSearchHit,
        title=st.text(max_size=20),
        url=st.sampled_from(["https://a.org/", "http://b.example/x?y=1", "https://c.io/#f"]),
        snippet=st.none() | st.text(max_size=30),
        published=st.none() | st.text(max_size=12),
    ),
    max_size=20,
)


@given(hits, st.booleans(), st.sampled_from(["brave", "exa", "tavily", "searxng"]))
def test_what_the_tool_stores_narrows_back(
    found: list[WebSearchHit], cut: bool, provider: Any
) -> None:
    value = WebSearchValue(
        query="q", provider=provider, label="L", hits=tuple(found), truncated=cut, max_results=20
    )
    assert web_search_meta_from_meta(value.meta()) == SearchMeta("q", provider, tuple(found), cut)


def test_an_error_result_is_the_generic_card() -> None:
    tool = WebSearchTool(NoSearch("none"))
    failed = ToolResult(content=(TextContent(text="Exa failed"),), is_error=True, meta=GOOD)
    assert tool.present_result(WebSearchArgs(query="q"), failed, CardContext()) is None
