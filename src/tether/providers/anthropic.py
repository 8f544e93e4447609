"""Anthropic's endpoint: `ANTHROPIC_BASE_URL` or the public API, keyed by `ANTHROPIC_API_KEY`."""

from __future__ import annotations

from tether.providers.discovery import Discovery

__all__ = ["ANTHROPIC", "DEFAULT_BASE_URL"]

DEFAULT_BASE_URL = "https://api.anthropic.com"


def _key_names(host: str) -> tuple[str, ...]:
    """One variable, whatever the host."""
    return ("ANTHROPIC_API_KEY",)


ANTHROPIC = Discovery("ANTHROPIC_BASE_URL", DEFAULT_BASE_URL, _key_names, blank_key_unset=True)
"""`anthropic[:MODEL]`: `--base-url`, else `ANTHROPIC_BASE_URL`, else Anthropic's own."""
