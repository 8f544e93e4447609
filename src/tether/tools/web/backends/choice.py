"""Which search backend `web_search` uses: the settings' `webSearch.provider`, else the first
key found in the environment, else none (and the tool is not offered).

| provider  | needs             | address (default)                               |
|-----------|-------------------|-------------------------------------------------|
| `brave`   | `BRAVE_API_KEY`   | `BRAVE_BASE_URL` (https://api.search.brave.com) |
| `exa`     | `EXA_API_KEY`     | `EXA_BASE_URL` (https://api.exa.ai)             |
| `tavily`  | `TAVILY_API_KEY`  | `TAVILY_BASE_URL` (https://api.tavily.com)      |
| `searxng` | `SEARXNG_URL`     | the instance itself                             |

Keys are looked for in that order. `webSearch.baseUrl` is the address of the provider
`webSearch.provider` names (a proxy, or the SearXNG instance); without a provider it means
SearXNG at that address.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from tether.tools.web.backends.providers import MAX_RESULTS, PROVIDER_LABELS, PROVIDERS
from tether.views import SearchProvider

if TYPE_CHECKING:
    from tether.tools.web.backends.base import Backend

__all__ = [
    "ADDRESS_VARIABLES",
    "KEY_VARIABLES",
    "MAX_RESULTS",
    "PROVIDERS",
    "PROVIDER_LABELS",
    "NoSearch",
    "SearchChoice",
    "SearchSettings",
    "SearchSetup",
    "choose_backend",
]

KEY_VARIABLES: dict[SearchProvider, str] = {
    "brave": "BRAVE_API_KEY",
    "exa": "EXA_API_KEY",
    "tavily": "TAVILY_API_KEY",
    "searxng": "SEARXNG_URL",
}
ADDRESS_VARIABLES: dict[SearchProvider, str] = {
    "brave": "BRAVE_BASE_URL",
    "exa": "EXA_BASE_URL",
    "tavily": "TAVILY_BASE_URL",
    "searxng": "SEARXNG_URL",
}
_NOTHING = (
    "no search backend is configured: set BRAVE_API_KEY (Brave Search), EXA_API_KEY (Exa), "
    "TAVILY_API_KEY (Tavily) or SEARXNG_URL (a SearXNG instance), or webSearch.provider "
    "in the settings"
)


@dataclass(frozen=True)
class SearchSettings:
    """The settings' `webSearch` section, and the file it came from (for messages)."""

    provider: SearchProvider | None = None
    base_url: str | None = None
    source: str = "the settings"


@dataclass(frozen=True)
class SearchChoice:
    """The backend to use, and why it was chosen (`BRAVE_API_KEY`, `webSearch.provider`)."""

    backend: Backend
    because: str


@dataclass(frozen=True)
class NoSearch:
    """No backend: why, and whether the settings asked for one (then it is said at startup,
    not only with `-v`)."""

    reason: str
    asked: bool = False


SearchSetup = SearchChoice | NoSearch


def choose_backend(env: Mapping[str, str], settings: SearchSettings | None = None) -> SearchSetup:
    """The backend the settings and the environment `env` configure, or why there is none."""
    settings = settings or SearchSettings()
    if settings.provider is not None:
        provider = settings.provider
        variable = KEY_VARIABLES[provider]
        secret = settings.base_url if provider == "searxng" else None
        secret = secret or _value(env, variable)
        if secret is None:
            return NoSearch(
                f"webSearch.provider is {provider} ({settings.source}), but {variable} is not set",
                asked=True,
            )
        because = f"webSearch.provider in {settings.source}"
        return _built(provider, secret, env, settings, because)
    if settings.base_url is not None:
        because = f"webSearch.baseUrl in {settings.source}"
        return _built("searxng", settings.base_url, env, settings, because)
    for provider in PROVIDERS:
        secret = _value(env, KEY_VARIABLES[provider])
        if secret is not None:
            return _built(provider, secret, env, SearchSettings(), KEY_VARIABLES[provider])
    return NoSearch(_NOTHING)


def _built(
    provider: SearchProvider,
    secret: str,
    env: Mapping[str, str],
    settings: SearchSettings,
    because: str,
) -> SearchSetup:
    """The backend with its key (or, for SearXNG, its address) and its address checked."""
    if provider == "searxng":
        setting = f"webSearch.baseUrl ({settings.source})" if settings.base_url else "SEARXNG_URL"
        problem = _bad_url(secret)
        if problem:
            return NoSearch(f"{setting} is {problem}", asked=True)
        from tether.tools.web.backends.searxng import SearxngSearch

        return SearchChoice(SearxngSearch(secret, address_setting=setting), because)
    variable = ADDRESS_VARIABLES[provider]
    if settings.base_url is not None:
        address, setting = settings.base_url, f"webSearch.baseUrl ({settings.source})"
    elif (given := _value(env, variable)) is not None:
        address, setting = given, variable
    else:
        address, setting = _default_url(provider), f"{variable} (if you use a proxy)"
    problem = _bad_url(address)
    if problem:
        return NoSearch(f"{setting} is {problem}", asked=True)
    # A backend's module (its requests, its results' parsing) loads once one is configured.
    match provider:
        case "brave":
            from tether.tools.web.backends.brave import BraveSearch

            backend: Backend = BraveSearch(secret, address, address_setting=setting)
        case "exa":
            from tether.tools.web.backends.exa import ExaSearch

            backend = ExaSearch(secret, address, address_setting=setting)
        case "tavily":
            from tether.tools.web.backends.tavily import TavilySearch

            backend = TavilySearch(secret, address, address_setting=setting)
        case _:
            raise AssertionError(f"searxng is built above, not {provider}")
    return SearchChoice(backend, because)


def _default_url(provider: SearchProvider) -> str:
    """The address of `provider`'s API (SearXNG has none: it is always given)."""
    match provider:
        case "brave":
            from tether.tools.web.backends.brave import BASE_URL
        case "exa":
            from tether.tools.web.backends.exa import BASE_URL
        case "tavily":
            from tether.tools.web.backends.tavily import BASE_URL
        case _:
            raise AssertionError(f"searxng has no default address, not {provider}")
    return BASE_URL


def _value(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _bad_url(url: str) -> str | None:
    """What is wrong with a backend's address, or `None` for an http(s) URL with a host."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        host = None
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        return f"not an http(s) URL: {url!r}"
    if parts.query or parts.fragment:
        return f"an address with a query or fragment, which a search URL is built on: {url!r}"
    return None
