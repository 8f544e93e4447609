"""`web_fetch` (a web page as markdown, from an address that was checked) and `web_search`
(ranked results from a search API), both shown as the `web` card.

Each name loads its module on first use: a command that only names the fetch flag or the
search settings does not load the tools themselves.
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.tools.web.backends import (
        NoSearch,
        SearchChoice,
        SearchSettings,
        SearchSetup,
        choose_backend,
    )
    from tether.tools.web.envelope import WebMeta, web_meta_from_meta
    from tether.tools.web.flags import ALLOW_PRIVATE_FLAG
    from tether.tools.web.search import WebSearchArgs, WebSearchTool
    from tether.tools.web.tool import TIMEOUT_S, WebFetchArgs, WebFetchTool

__all__ = [
    "ALLOW_PRIVATE_FLAG",
    "TIMEOUT_S",
    "NoSearch",
    "SearchChoice",
    "SearchSettings",
    "SearchSetup",
    "WebFetchArgs",
    "WebFetchTool",
    "WebMeta",
    "WebSearchArgs",
    "WebSearchTool",
    "choose_backend",
    "web_meta_from_meta",
]

__getattr__ = lazy_names(
    __name__,
    {
        "ALLOW_PRIVATE_FLAG": "tether.tools.web.flags",
        "NoSearch": "tether.tools.web.backends",
        "SearchChoice": "tether.tools.web.backends",
        "SearchSettings": "tether.tools.web.backends",
        "SearchSetup": "tether.tools.web.backends",
        "choose_backend": "tether.tools.web.backends",
        "WebMeta": "tether.tools.web.envelope",
        "web_meta_from_meta": "tether.tools.web.envelope",
        "WebSearchArgs": "tether.tools.web.search",
        "WebSearchTool": "tether.tools.web.search",
        "TIMEOUT_S": "tether.tools.web.tool",
        "WebFetchArgs": "tether.tools.web.tool",
        "WebFetchTool": "tether.tools.web.tool",
    },
)
