"""`web_fetch`: a web page as markdown, from an address that was checked, as a `web` card."""

from tether.tools.web.address import ALLOW_PRIVATE_FLAG
from tether.tools.web.envelope import WebMeta, web_meta_from_meta
from tether.tools.web.tool import TIMEOUT_S, WebFetchArgs, WebFetchTool

__all__ = [
    "ALLOW_PRIVATE_FLAG",
    "TIMEOUT_S",
    "WebFetchArgs",
    "WebFetchTool",
    "WebMeta",
    "web_meta_from_meta",
]
