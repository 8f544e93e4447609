"""`web_fetch` (a web page as markdown, from an address that was checked) and `web_search`
(ranked results from a search API), both shown as the `web` card."""

from tether.tools.web.address import ALLOW_PRIVATE_FLAG
from tether.tools.web.backends import (
    NoSearch,
    SearchChoice,
    SearchSettings,
    SearchSetup,
    choose_backend,
)
from tether.tools.web.envelope import WebMeta, web_meta_from_meta
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
