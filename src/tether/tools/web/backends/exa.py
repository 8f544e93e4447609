"""Exa: `POST /search` with `x-api-key`, a JSON body `{query, numResults, type, contents,
includeDomains?, excludeDomains?}`.

The answer is `{requestId, results: [{title, url, publishedDate?, author?, highlights?}]}`;
the snippet is the result's highlights (the passages Exa found most relevant), which the
request asks for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tether.tools.web.backends.base import SearchPage, SearchRequest, search_hits
from tether.tools.web.backends.fields import (
    MAX_SNIPPET_CHARS,
    plain_text,
)
from tether.tools.web.backends.http import Endpoint, request_json
from tether.tools.web.backends.providers import PROVIDER_LABELS
from tether.views import SearchProvider, WebSearchHit

if TYPE_CHECKING:
    import httpx

__all__ = ["BASE_URL", "ExaSearch"]

BASE_URL = "https://api.exa.ai"
PATH = "/search"


class ExaSearch:
    """Exa's search API with an API key."""

    provider: ClassVar[SearchProvider] = "exa"
    label: ClassVar[str] = PROVIDER_LABELS["exa"]

    def __init__(self, key: str, base_url: str = BASE_URL, *, address_setting: str) -> None:
        self.base_url = base_url
        self._key = key
        self._endpoint = Endpoint(self.label, base_url, "EXA_API_KEY", address_setting)

    async def search(
        self, client: httpx.AsyncClient, request: SearchRequest, deadline: float
    ) -> SearchPage:
        """Ask for `max_results` results with their highlights, Exa filtering the domains."""
        body: dict[str, Any] = {
            "query": request.query,
            "numResults": request.max_results,
            "type": "auto",
            "contents": {"highlights": {"maxCharacters": MAX_SNIPPET_CHARS}},
        }
        if request.allowed_domains:
            body["includeDomains"] = list(request.allowed_domains)
        if request.blocked_domains:
            body["excludeDomains"] = list(request.blocked_domains)
        headers = {"Accept": "application/json", "x-api-key": self._key}
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


def _hits(data: Any, label: str) -> list[WebSearchHit]:
    return search_hits(
        data.get("results") if isinstance(data, dict) else None,
        f"{label} answered without a list of results (`results`)",
        snippet=_snippet,
        published=("publishedDate",),
    )


def _snippet(item: dict[str, Any]) -> str | None:
    highlights = item.get("highlights")
    if isinstance(highlights, list):
        parts = [text for h in highlights if (text := plain_text(h, MAX_SNIPPET_CHARS))]
        if parts:
            return plain_text(" … ".join(parts), MAX_SNIPPET_CHARS)
    # Without highlights (a proxy that strips them), the page text or summary is the preview.
    return plain_text(item.get("summary"), MAX_SNIPPET_CHARS) or plain_text(
        item.get("text"), MAX_SNIPPET_CHARS
    )
