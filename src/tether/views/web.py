"""The web card: a fetched page (`kind: fetch`) or a web search's results (`kind: search`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict
from pydantic.dataclasses import dataclass
from typing_extensions import TypeAliasType

from tether.wire import WIRE_CONFIG, Opt

__all__ = [
    "SearchProvider",
    "WebFetchResultView",
    "WebResultView",
    "WebSearchHit",
    "WebSearchResultView",
]

SearchProvider = Literal["brave", "exa", "tavily", "searxng"]
"""The search backends `web_search` speaks to."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class WebFetchResultView:
    """A fetched web page: where it ended up, how the server answered, and its markdown."""

    card: Literal["web"] = "web"
    kind: Literal["fetch"] = "fetch"
    """The web card's own discriminant: `fetch` here, `search` for a web search."""
    url: str
    """The final URL, after the redirects that were followed."""
    status_code: Annotated[int, Strict()]
    truncated: bool
    title: Opt[str] = None
    content_type: Opt[str] = None
    bytes: Opt[Annotated[int, Strict()]] = None
    """How many bytes of body were read (after content decoding)."""
    redirect: Opt[str] = None
    """Where a redirect to another host pointed; it was reported, not followed."""
    content: Opt[str] = None
    """The page as markdown, exactly as the model saw it."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class WebSearchHit:
    """One search result: the page's title and http(s) URL, the backend's snippet as plain
    text, and its date (`YYYY-MM-DD` when the backend gave one that reads as a date)."""

    title: str
    url: str
    snippet: Opt[str] = None
    published: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class WebSearchResultView:
    """A web search: the query, the results in the backend's ranking, and who answered.

    `truncated` says more results came back (within the domain filters) than were listed.
    """

    card: Literal["web"] = "web"
    kind: Literal["search"] = "search"
    query: str
    results: tuple[WebSearchHit, ...]
    truncated: bool
    provider: SearchProvider
    title: Opt[str] = None


WebResultView = TypeAliasType(
    "WebResultView",
    Annotated[WebFetchResultView | WebSearchResultView, Field(discriminator="kind")],
)
"""Both kinds of the web card; `kind` tells them apart inside `card: 'web'`."""
