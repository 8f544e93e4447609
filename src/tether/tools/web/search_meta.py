"""A stored search result's projection narrowed back for the card; anything off is `None`.

`web_search_meta_from_meta` takes the opaque JSON `presentation_meta` stored and returns
`None`, never raising, for: a non-dict; a `query` that is not a string; a `provider` that
is not one of brave, exa, tavily, searxng; a `truncated` that is not a bool; `results` not
a list, or longer than 20; a result that is not an object, whose `title` is not a string,
whose `url` is not an http(s) URL without spaces or control characters, or whose
`snippet` or `published` is present but not a string. Unknown keys are ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from tether.tools.web.backends.providers import MAX_RESULTS, PROVIDERS
from tether.views import SearchProvider, WebSearchHit

__all__ = ["SearchMeta", "web_search_meta_from_meta"]


@dataclass(frozen=True)
class SearchMeta:
    """A search result's projection, checked: what the search card is drawn from."""

    query: str
    provider: SearchProvider
    results: tuple[WebSearchHit, ...]
    truncated: bool


def web_search_meta_from_meta(meta: object) -> SearchMeta | None:
    """Narrow opaque persisted JSON to a `SearchMeta`; `None` when anything is off."""
    if not isinstance(meta, dict):
        return None
    query, provider, truncated = meta.get("query"), meta.get("provider"), meta.get("truncated")
    results = meta.get("results")
    if not isinstance(query, str) or not isinstance(truncated, bool):
        return None
    if provider not in PROVIDERS or not isinstance(results, list) or len(results) > MAX_RESULTS:
        return None
    hits = []
    for item in results:
        hit = _hit(item)
        if hit is None:
            return None
        hits.append(hit)
    return SearchMeta(query, _provider(provider), tuple(hits), truncated)


def _hit(item: object) -> WebSearchHit | None:
    # The fields' checks load with a stored search's card, not with the tool.
    from tether.tools.web.backends.fields import checked_url

    if not isinstance(item, dict):
        return None
    title, url = item.get("title"), item.get("url")
    snippet, published = item.get("snippet"), item.get("published")
    if not isinstance(title, str) or not isinstance(url, str) or checked_url(url) != url:
        return None
    if snippet is not None and not isinstance(snippet, str):
        return None
    if published is not None and not isinstance(published, str):
        return None
    return WebSearchHit(title=title, url=url, snippet=snippet, published=published)


def _provider(name: object) -> SearchProvider:
    for provider in PROVIDERS:
        if provider == name:
            return provider
    raise AssertionError(f"checked above: {name!r}")
