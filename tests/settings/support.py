"""Shared by the tests of settings: a workspace the person trusts as its settings are now."""

from __future__ import annotations

from pathlib import Path

from tether.settings import TrustStore, load_settings

__all__ = ["trust"]


def trust(ws: Path, home: Path) -> None:
    """The person trusts `ws` with the settings it has now (the fingerprint they saw)."""
    TrustStore(home).trust(ws, load_settings(ws, home).trust.fingerprint)
