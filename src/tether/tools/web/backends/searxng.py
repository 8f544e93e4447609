"""SearXNG: a self-hosted instance's JSON API, `GET {SEARXNG_URL}/search?q=...&format=json`.

The answer is `{query, results: [{url, title, content, publishedDate?, engine}],
unresponsive_engines: [[engine, reason]], ...}`. An instance serves JSON only when its
`settings.yml` lists `json` under `search.formats` (else it answers 403), and its
limiter may refuse clients it does not know (429). It returns one page (about 20 results)
whatever is asked, and takes domain filters only as `site:` operators in the query, which
not every engine honours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tether.tools.web.backends.base import SearchPage, SearchRequest, search_hits, site_query
from tether.tools.web.backends.fields import (
    plain_text,
)
from tether.tools.web.backends.http import Endpoint, request_json
from tether.tools.web.backends.providers import PROVIDER_LABELS
from tether.views import SearchProvider

if TYPE_CHECKING:
    import httpx

__all__ = ["SearxngSearch"]

PATH = "/search"


class SearxngSearch:
    """A SearXNG instance (no key)."""

    provider: ClassVar[SearchProvider] = "searxng"
    label: ClassVar[str] = PROVIDER_LABELS["searxng"]

    def __init__(self, base_url: str, *, address_setting: str) -> None:
        self.base_url = base_url
        self._endpoint = Endpoint(self.label, base_url, None, address_setting, self._explain)

    async def search(
        self, client: httpx.AsyncClient, request: SearchRequest, deadline: float
    ) -> SearchPage:
        """The first page of general results."""
        params = {
            "q": site_query(request),
            "format": "json",
            "pageno": "1",
            "categories": "general",
        }
        data = await request_json(
            client,
            self._endpoint,
            "GET",
            self.base_url.rstrip("/") + PATH,
            deadline=deadline,
            headers={"Accept": "application/json"},
            params=params,
        )
        return _page(data, self.label)

    def _explain(self, status: int, detail: str) -> str | None:
        said = f"HTTP {status}: {detail}" if detail else f"HTTP {status}"
        if status == 403:
            return (
                f"The SearXNG instance at {self.base_url} refused the JSON format ({said}); "
                "add `json` to `search.formats` in its settings.yml"
            )
        if status == 429:
            return (
                f"The SearXNG instance at {self.base_url} is limiting requests ({said}); "
                "its limiter (`server.limiter` in settings.yml) may be refusing API clients"
            )
        return None


def _page(data: Any, label: str) -> SearchPage:
    hits = search_hits(
        data.get("results") if isinstance(data, dict) else None,
        f"{label} answered without a list of results (`results`)",
        snippet="content",
        published=("publishedDate",),
    )
    note = None
    silent = _unresponsive(data.get("unresponsive_engines"))
    if silent:
        note = f"Engines that did not answer: {silent}."
    return SearchPage(hits=hits, note=note)


def _unresponsive(value: object) -> str:
    """`google (timeout), bing (access denied)` from SearXNG's `[[engine, reason], ...]`."""
    if not isinstance(value, list):
        return ""
    named = []
    for entry in value[:10]:
        if isinstance(entry, list) and entry and (name := plain_text(entry[0], 40)):
            reason = plain_text(entry[1], 80) if len(entry) > 1 else None
            named.append(f"{name} ({reason})" if reason else name)
    return ", ".join(named)
