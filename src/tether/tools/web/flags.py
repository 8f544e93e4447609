"""The flag that lets `web_fetch` reach loopback, private and link-local addresses: a leaf, so
every command that takes it names it without loading the tools."""

from __future__ import annotations

__all__ = ["ALLOW_PRIVATE_FLAG"]

ALLOW_PRIVATE_FLAG = "--allow-private-fetch"
