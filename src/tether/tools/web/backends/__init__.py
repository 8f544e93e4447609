"""The search APIs `web_search` speaks to, one module each, and which one is configured."""

from tether.tools.web.backends.base import MAX_RESULTS, Backend, SearchPage, SearchRequest
from tether.tools.web.backends.choice import (
    KEY_VARIABLES,
    PROVIDER_LABELS,
    PROVIDERS,
    NoSearch,
    SearchChoice,
    SearchSettings,
    SearchSetup,
    choose_backend,
)

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
