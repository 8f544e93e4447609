"""Gemini's endpoint: `GOOGLE_GEMINI_BASE_URL` or Google's, keyed by `GEMINI_API_KEY`."""

from __future__ import annotations

from tether.providers.discovery import Discovery

__all__ = ["DEFAULT_BASE_URL", "GEMINI"]

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"


def _key_names(host: str) -> tuple[str, ...]:
    """Google's two names for the key, as its SDK reads them."""
    return ("GEMINI_API_KEY", "GOOGLE_API_KEY")


GEMINI = Discovery("GOOGLE_GEMINI_BASE_URL", DEFAULT_BASE_URL, _key_names, blank_key_unset=True)
"""`gemini[:MODEL]`: `--base-url`, else `GOOGLE_GEMINI_BASE_URL`, else Google's Gemini API."""
