"""Endpoints that speak chat completions: DeepSeek by default, any other by its base URL.

The key is looked up by the endpoint's host: DeepSeek never gets `OPENAI_API_KEY` (that key
belongs to another vendor), OpenRouter prefers its own, and a server on this machine or a
private network gets a placeholder when none is set. `TETHER_API_KEY` is the last resort.
"""

from __future__ import annotations

import ipaddress

from tether.providers.discovery import Discovery

__all__ = ["DEFAULT_BASE_URL", "LOCAL_KEY", "OPENAI", "OPENAI_RESPONSES"]

DEFAULT_BASE_URL = "https://api.deepseek.com"
LOCAL_KEY = "local-no-key"
"""Sent to local servers (Ollama, vLLM) that need no key: the SDK insists on one."""


def _is_local(host: str) -> bool:
    """Whether `host` is this machine or a private network, where servers rarely want keys."""
    if host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def _placeholder(host: str) -> str | None:
    """The placeholder key for a local server, none for a remote one."""
    return LOCAL_KEY if _is_local(host) else None


def _key_names(host: str) -> tuple[str, ...]:
    """Environment variables that may hold the key for `host`, in order."""
    if host == "api.deepseek.com":
        return ("DEEPSEEK_API_KEY", "TETHER_API_KEY")
    if host == "openrouter.ai" or host.endswith(".openrouter.ai"):
        return ("OPENROUTER_API_KEY", "OPENAI_API_KEY", "TETHER_API_KEY")
    return ("OPENAI_API_KEY", "TETHER_API_KEY")


OPENAI = Discovery("TETHER_BASE_URL", DEFAULT_BASE_URL, _key_names, _placeholder)
"""`openai[:MODEL]`: `--base-url`, else `TETHER_BASE_URL`, else DeepSeek."""


def _responses_key_names(host: str) -> tuple[str, ...]:
    """OpenAI's own key first: the Responses API is OpenAI's."""
    return ("OPENAI_API_KEY", "TETHER_API_KEY")


OPENAI_RESPONSES = Discovery(
    "OPENAI_BASE_URL", "https://api.openai.com/v1", _responses_key_names, _placeholder
)
"""`openai-responses[:MODEL]`: `--base-url`, else `OPENAI_BASE_URL`, else OpenAI's own."""
