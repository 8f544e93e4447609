"""The models an endpoint lists itself (`GET /models`), for the menus that switch models.

Each endpoint (and key) is asked at most once every `LIST_TTL` seconds, and every session of
the process shares the answer; the asking stops after `LIST_TIMEOUT` seconds and keeps at most
`LIST_LIMIT` ids (OpenRouter lists hundreds). An endpoint that cannot say (no list, a refused
key, unreachable, too slow) leaves the catalog's models only, with a warning that says why;
that answer is kept for the same time, so a slow endpoint is not waited on again and again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

__all__ = ["LIST_LIMIT", "LIST_TIMEOUT", "LIST_TTL", "Lister", "cached_list", "endpoint_list"]

log = logging.getLogger(__name__)

LIST_TIMEOUT = 5.0
"""Seconds an endpoint has to list its models."""
LIST_LIMIT = 300
"""The most ids kept from one list."""
LIST_TTL = 600.0
"""Seconds a list (or the lack of one) is kept before the endpoint is asked again."""

Lister = Callable[[int], Awaitable[tuple[str, ...]]]
"""Asks the endpoint for at most that many model ids."""


@dataclass(frozen=True)
class _Listed:
    at: float
    ids: tuple[str, ...]


_lists: dict[tuple[str, str, str], _Listed] = {}


def _key(kind: str, base_url: str, api_key: str | None) -> tuple[str, str, str]:
    # The key only tells endpoints apart (a list may depend on who asks): a digest will do.
    return kind, base_url, hashlib.sha256((api_key or "").encode()).hexdigest()[:16]


def cached_list(kind: str, base_url: str, api_key: str | None) -> tuple[str, ...] | None:
    """The endpoint's list if it was asked lately, else `None` (nothing is sent)."""
    listed = _lists.get(_key(kind, base_url, api_key))
    if listed is None or time.monotonic() - listed.at > LIST_TTL:
        return None
    return listed.ids


async def endpoint_list(
    kind: str,
    base_url: str,
    api_key: str | None,
    label: str,
    ask: Lister,
    *,
    prepare: Callable[[], object] = lambda: None,
) -> tuple[str, ...]:
    """The endpoint's model ids, asked through `ask` unless kept from lately; none when it
    cannot say, with a warning naming why. `prepare` (loading the SDK) runs first, outside
    the time the endpoint is given: a slow import is not a slow endpoint."""
    kept = cached_list(kind, base_url, api_key)
    if kept is not None:
        return kept
    try:
        prepare()
        async with asyncio.timeout(LIST_TIMEOUT):
            ids = await ask(LIST_LIMIT)
    except TimeoutError:
        log.warning(
            "%s: %s did not list its models within %g s; offering the known models only",
            label,
            base_url,
            LIST_TIMEOUT,
        )
        ids = ()
    except Exception as exc:  # a menu must open whatever the endpoint does
        log.warning(
            "%s: no model list from %s (%s); offering the known models only", label, base_url, exc
        )
        ids = ()
    ids = ids[:LIST_LIMIT]
    _lists[_key(kind, base_url, api_key)] = _Listed(time.monotonic(), ids)
    return ids
