"""The search APIs `web_search` speaks to, one module each, and which one is configured.

Each name loads its module on first use: choosing a backend (`choice`, as every session
starts) loads no backend's module, nor their requests and parsing, until one is configured.
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.tools.web.backends.base import Backend, SearchPage, SearchRequest
    from tether.tools.web.backends.choice import (
        KEY_VARIABLES,
        NoSearch,
        SearchChoice,
        SearchSettings,
        SearchSetup,
        choose_backend,
    )
    from tether.tools.web.backends.providers import MAX_RESULTS, PROVIDER_LABELS, PROVIDERS

__all__ = [
    "KEY_VARIABLES",
    "MAX_RESULTS",
    "PROVIDERS",
    "PROVIDER_LABELS",
    "Backend",
    "NoSearch",
    "SearchChoice",
    "SearchPage",
    "SearchRequest",
    "SearchSettings",
    "SearchSetup",
    "choose_backend",
]

__getattr__ = lazy_names(
    __name__,
    {
        "Backend": "tether.tools.web.backends.base",
        "SearchPage": "tether.tools.web.backends.base",
        "SearchRequest": "tether.tools.web.backends.base",
        "KEY_VARIABLES": "tether.tools.web.backends.choice",
        "MAX_RESULTS": "tether.tools.web.backends.providers",
        "PROVIDER_LABELS": "tether.tools.web.backends.providers",
        "PROVIDERS": "tether.tools.web.backends.providers",
        "NoSearch": "tether.tools.web.backends.choice",
        "SearchChoice": "tether.tools.web.backends.choice",
        "SearchSettings": "tether.tools.web.backends.choice",
        "SearchSetup": "tether.tools.web.backends.choice",
        "choose_backend": "tether.tools.web.backends.choice",
    },
)
