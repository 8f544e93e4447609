"""Tavily: `POST /search` with `Authorization: Bearer KEY`, a JSON body `{query,
max_results, search_depth, topic, include_domains?, exclude_domains?}`.

The answer is `{query, results: [{title, url, content, score, published_date?}],
response_time}`; `content` is the snippet. Tavily says 432 and 433 when a plan's or a
pay-as-you-go limit is reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tether.tools.web.backends.base import SearchPage, SearchRequest, search_hits
from tether.tools.web.backends.http import Endpoint, request_json
from tether.tools.web.backends.providers import PROVIDER_LABELS
from tether.views import SearchProvider, WebSearchHit

if TYPE_CHECKING:
    import httpx

__all__ = ["BASE_URL", "TavilySearch"]

BASE_URL = "https://api.tavily.com"
PATH = "/search"


class TavilySearch:
    """Tavily's search API with an API key."""

    provider: ClassVar[SearchProvider] = "tavily"
    label: ClassVar[str] = PROVIDER_LABELS["tavily"]

    def __init__(self, key: str, base_url: str = BASE_URL, *, address_setting: str) -> None:
        self.base_url = base_url
        self._key = key
        self._endpoint = Endpoint(self.label, base_url, "TAVILY_API_KEY", address_setting, _limit)

    async def search(
        self, client: httpx.AsyncClient, request: SearchRequest, deadline: float
    ) -> SearchPage:
        """A basic-depth general search for `max_results`, Tavily filtering the domains."""
        body: dict[str, Any] = {
            "query": request.query,
            "max_results": request.max_results,
            "search_depth": "basic",
            "topic": "general",
            "include_answer": False,
            "include_raw_content": False,
            "include_images": False,
        }
        if request.allowed_domains:
            body["include_domains"] = list(request.allowed_domains)
        if request.blocked_domains:
            body["exclude_domains"] = list(request.blocked_domains)
        headers = {"Accept": "application/json", "Authorization": f"Bearer {self._key}"}
        data = await request_json(
            client,
            self._endpoint,
            "POST",
            self.base_url.rstrip("/") + PATH,
            deadline=deadline,
            headers=headers,
            body=body,
        )
        return SearchPage(hits=_hits(data, self.label))


def _limit(status: int, detail: str) -> str | None:
    if status in (432, 433):
        said = f"HTTP {status}: {detail}" if detail else f"HTTP {status}"
        return f"Tavily says the key in TAVILY_API_KEY reached its usage limit ({said})"
    return None


def _hits(data: Any, label: str) -> list[WebSearchHit]:
    return search_hits(
        data.get("results") if isinstance(data, dict) else None,
        f"{label} answered without a list of results (`results`)",
        snippet="content",
        published=("published_date",),
    )
