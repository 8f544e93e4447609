"""The search providers, their names for people, and how many results one search lists: a
leaf that the choice of a backend and every backend name, so that choosing loads none."""

from __future__ import annotations

from tether.views import SearchProvider

__all__ = ["MAX_RESULTS", "PROVIDERS", "PROVIDER_LABELS"]

PROVIDERS: tuple[SearchProvider, ...] = ("brave", "exa", "tavily", "searxng")
"""In the order their keys are looked for."""
MAX_RESULTS = 20
"""The most results one search lists (every backend can give this many per request)."""
PROVIDER_LABELS: dict[SearchProvider, str] = {
    "brave": "Brave Search",
    "exa": "Exa",
    "tavily": "Tavily",
    "searxng": "SearXNG",
}
"""Each backend's name for people (its `label`)."""
