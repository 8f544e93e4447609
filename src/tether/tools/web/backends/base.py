"""What every search backend takes and gives, and the one error they raise."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from tether.errors import SearchFailed
from tether.tools.web.backends.fields import (
    MAX_SNIPPET_CHARS,
    MAX_TITLE_CHARS,
    checked_url,
    plain_text,
    published_date,
)
from tether.tools.web.backends.providers import MAX_RESULTS
from tether.views import SearchProvider, WebSearchHit

if TYPE_CHECKING:
    import httpx

__all__ = [
    "MAX_RESULTS",
    "Backend",
    "SearchPage",
    "SearchRequest",
    "search_hits",
    "site_query",
]


@dataclass(frozen=True)
class SearchRequest:
    """One search: the query, how many results are wanted, and the domain filters."""

    query: str
    max_results: int
    allowed_domains: tuple[str, ...] = ()
    blocked_domains: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchPage:
    """What a backend answered: its results in its own ranking (URLs checked, text plain),
    and a note for the model when it has one (engines that did not answer)."""

    hits: Sequence[WebSearchHit]
    note: str | None = None


Item = dict[str, Any]
"""One result as a backend's JSON has it."""


def search_hits(
    results: object,
    missing: str,
    *,
    snippet: str | Callable[[Item], str | None],
    published: Sequence[str],
) -> list[WebSearchHit]:
    """The hits of a backend's list of results, made safe to show.

    `missing` is the error when `results` is no list. An item without a usable URL is left
    out; a title falls back to the URL. `snippet` names the item's field holding the preview
    (or works it out); the first of the `published` fields that holds a date dates the hit.
    """
    if not isinstance(results, list):
        raise SearchFailed(missing)
    hits = []
    for item in results:
        if not isinstance(item, dict) or (url := checked_url(item.get("url"))) is None:
            continue
        preview = (
            plain_text(item.get(snippet), MAX_SNIPPET_CHARS)
            if isinstance(snippet, str)
            else snippet(item)
        )
        dates = (published_date(item.get(name)) for name in published)
        hits.append(
            WebSearchHit(
                title=plain_text(item.get("title"), MAX_TITLE_CHARS) or url,
                url=url,
                snippet=preview,
                published=next((date for date in dates if date), None),
            )
        )
    return hits


def site_query(request: SearchRequest) -> str:
    """The query with the domain filters as search operators (`site:a.org OR site:b.org`)."""
    parts = [request.query]
    if request.allowed_domains:
        parts.append(" OR ".join(f"site:{d}" for d in request.allowed_domains))
    parts.extend(f"-site:{d}" for d in request.blocked_domains)
    return " ".join(parts)


class Backend(Protocol):
    """A search API: who it is, where it is, and how to ask it."""

    provider: ClassVar[SearchProvider]
    label: ClassVar[str]
    """Its name for people: `Brave Search`, `Exa`, `Tavily`, `SearXNG`."""
    base_url: str

    async def search(
        self, client: httpx.AsyncClient, request: SearchRequest, deadline: float
    ) -> SearchPage:
        """The results of `request`, by `deadline` (the event loop's clock); raises
        `SearchFailed` saying what went wrong."""
        ...
