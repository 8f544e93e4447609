"""Brave Search API: `GET /res/v1/web/search?q=...&count=N` with `X-Subscription-Token`.

The answer's web results are `web.results[]`, each `{title, url, description, page_age?,
age?}`; `web` is absent when nothing was found. Brave takes no domain filters as
parameters, so they go into the query as `site:` and `-site:` operators.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tether.errors import SearchFailed
from tether.tools.web.backends.base import (
    MAX_RESULTS,
    SearchPage,
    SearchRequest,
    search_hits,
    site_query,
)
from tether.tools.web.backends.http import Endpoint, request_json
from tether.tools.web.backends.providers import PROVIDER_LABELS
from tether.views import SearchProvider, WebSearchHit

if TYPE_CHECKING:
    import httpx

__all__ = ["BASE_URL", "BraveSearch"]

BASE_URL = "https://api.search.brave.com"
PATH = "/res/v1/web/search"


class BraveSearch:
    """The Brave Search API with a subscription key."""

    provider: ClassVar[SearchProvider] = "brave"
    label: ClassVar[str] = PROVIDER_LABELS["brave"]

    def __init__(self, key: str, base_url: str = BASE_URL, *, address_setting: str) -> None:
        self.base_url = base_url
        self._key = key
        self._endpoint = Endpoint(self.label, base_url, "BRAVE_API_KEY", address_setting)

    async def search(
        self, client: httpx.AsyncClient, request: SearchRequest, deadline: float
    ) -> SearchPage:
        """Ask for the web results only, without bold marks in the snippets."""
        filtered = bool(request.allowed_domains or request.blocked_domains)
        params = {
            "q": site_query(request),
            # With filters some results may still fall outside them: ask for all there are.
            "count": str(MAX_RESULTS if filtered else request.max_results),
            "result_filter": "web",
            "text_decorations": "false",
        }
        headers = {"Accept": "application/json", "X-Subscription-Token": self._key}
        data = await request_json(
            client,
            self._endpoint,
            "GET",
            self.base_url.rstrip("/") + PATH,
            deadline=deadline,
            headers=headers,
            params=params,
        )
        return SearchPage(hits=_hits(data, self.label))


def _hits(data: Any, label: str) -> list[WebSearchHit]:
    if not isinstance(data, dict):
        raise SearchFailed(f"{label} answered with JSON that is not a search response")
    web = data.get("web")
    if web is None:
        return []  # Brave leaves `web` out when it found nothing
    return search_hits(
        web.get("results") if isinstance(web, dict) else None,
        f"{label} answered without a list of web results (`web.results`)",
        snippet="description",
        published=("page_age", "age"),
    )
