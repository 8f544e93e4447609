"""What every search backend takes and gives, and the one error they raise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from tether.views import SearchProvider, WebSearchHit

if TYPE_CHECKING:
    import httpx

__all__ = [
    "MAX_RESULTS",
    "Backend",
    "SearchPage",
    "SearchRequest",
    "site_query",
]

MAX_RESULTS = 20
"""The most results one search lists (every backend can give this many per request)."""


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
