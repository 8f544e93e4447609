"""One JSON request to a search API: bounded, retried the way the providers ask, and every
failure a `SearchFailed` that names the backend and what to fix.

Retries: a 429 or a 5xx answer, or a connection that failed, is tried again up to
`ATTEMPTS` times in all, after an exponential backoff with jitter, or after the
`Retry-After` the server sent (at most `MAX_RETRY_AFTER_S`, and never past the search's
deadline: a server that asks for longer fails the search at once, saying how long it asked).
No redirect is followed: a search API does not redirect, so one means a wrong address.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from tether.errors import SearchFailed
from tether.jsontext import parse_json
from tether.tools.web.backends.fields import plain_text

if TYPE_CHECKING:
    import httpx

__all__ = [
    "ATTEMPTS",
    "MAX_BODY_BYTES",
    "MAX_RETRY_AFTER_S",
    "Endpoint",
    "error_detail",
    "request_json",
]

ATTEMPTS = 3
"""Tries of one request in all, the first included."""
BACKOFF_S = 0.5
"""The wait before the second try; it doubles each time (with up to 25% jitter either way)."""
MAX_RETRY_AFTER_S = 10.0
"""The longest `Retry-After` obeyed; a server asking for more fails the search at once."""
MAX_BODY_BYTES = 4 * 1024 * 1024
"""A search answer is a few KB; anything past this is not one."""
_DETAIL_CHARS = 300

Explain = Callable[[int, str], str | None]
"""A backend's own reading of an HTTP error status and its detail, or `None` for the default."""


@dataclass(frozen=True)
class Endpoint:
    """Who is asked, for messages: its name, where it is, and how its key and address are set."""

    label: str
    base_url: str
    key_variable: str | None
    """Where the key comes from (`BRAVE_API_KEY`); `None` for a backend without one."""
    address_setting: str
    """What sets `base_url` (`BRAVE_BASE_URL or webSearch.baseUrl`)."""
    explain: Explain | None = None


async def request_json(
    client: httpx.AsyncClient,
    endpoint: Endpoint,
    method: str,
    url: str,
    *,
    deadline: float,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, str] | None = None,
    body: Any = None,
) -> Any:
    """The decoded JSON answer of one request, retried as the module says."""
    import httpx

    loop = asyncio.get_running_loop()
    for attempt in range(1, ATTEMPTS + 1):
        last = attempt == ATTEMPTS
        try:
            status, got_headers, raw = await _exchange(
                client, method, url, headers=headers, params=params, body=body
            )
        except httpx.TimeoutException:
            raise
        except httpx.TransportError as exc:
            if last:
                raise SearchFailed(
                    f"Could not reach {endpoint.label} at {endpoint.base_url} "
                    f"({_what(exc)}) after {ATTEMPTS} attempts; check the network, or "
                    f"{endpoint.address_setting}"
                ) from exc
            await asyncio.sleep(_backoff(attempt))
            continue
        if status == 429 or status >= 500:
            if last:
                raise SearchFailed(_failure(endpoint, status, raw, attempts=ATTEMPTS))
            wait = _retry_after(got_headers.get("retry-after"))
            if wait is None:
                wait = _backoff(attempt)
            elif wait > MAX_RETRY_AFTER_S or loop.time() + wait > deadline:
                raise SearchFailed(
                    f"{_failure(endpoint, status, raw, attempts=attempt)} "
                    f"It asks to wait {wait:g} s before trying again."
                )
            await asyncio.sleep(wait)
            continue
        if status >= 300:
            raise SearchFailed(
                _failure(endpoint, status, raw, location=got_headers.get("location"))
            )
        try:
            decoded: Any = parse_json(raw)
        except ValueError:
            start = plain_text(raw[:200].decode("utf-8", "replace"), 120) or "(an empty body)"
            raise SearchFailed(
                f"{endpoint.label} at {endpoint.base_url} answered with something that is not "
                f"JSON ({got_headers.get('content-type') or 'no content type'}): {start}; "
                f"check {endpoint.address_setting}"
            ) from None
        return decoded
    raise AssertionError("unreachable: the last attempt returns or raises")


async def _exchange(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    headers: Mapping[str, str] | None,
    params: Mapping[str, str] | None,
    body: Any,
) -> tuple[int, httpx.Headers, bytes]:
    """Status, headers and body (at most `MAX_BODY_BYTES`, else `SearchFailed`)."""
    request = client.build_request(method, url, headers=headers, params=params, json=body)
    response = await client.send(request, stream=True)
    try:
        chunks = bytearray()
        async for chunk in response.aiter_bytes():
            chunks += chunk
            if len(chunks) > MAX_BODY_BYTES:
                raise SearchFailed(
                    f"The answer from {request.url.host} is larger than "
                    f"{MAX_BODY_BYTES // (1024 * 1024)} MB: it is not a search result"
                )
        return response.status_code, response.headers, bytes(chunks)
    finally:
        await response.aclose()


def _failure(
    endpoint: Endpoint,
    status: int,
    raw: bytes,
    *,
    attempts: int = 1,
    location: str | None = None,
) -> str:
    detail = error_detail(raw)
    said = f"HTTP {status}: {detail}" if detail else f"HTTP {status}"
    if endpoint.explain is not None:
        special = endpoint.explain(status, detail)
        if special is not None:
            return special
    label = endpoint.label
    if status == 401:
        if endpoint.key_variable is None:
            return f"{label} at {endpoint.base_url} asks for authentication ({said})"
        return f"{label} refused the key in {endpoint.key_variable} ({said}); check the key"
    if status == 403:
        whose = f"the key in {endpoint.key_variable}" if endpoint.key_variable else "this client"
        return f"{label} refused the request ({said}); check that {whose} may use its search API"
    if status == 429:
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        return (
            f"{label} is limiting requests ({said}){tries}; wait a moment and search again, "
            "or check the plan's quota."
        )
    if status >= 500:
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        return f"{label} failed ({said}){tries}; search again later."
    if 300 <= status < 400:
        where = f" to {plain_text(location, 200)}" if location else ""
        return (
            f"{label} at {endpoint.base_url} redirected the search{where} ({said}); "
            f"set {endpoint.address_setting} to the address of its API"
        )
    return f"{label} rejected the search ({said})"


def error_detail(raw: bytes) -> str:
    """What an error body says, in one line: the usual JSON error fields, else its text."""
    try:
        data = parse_json(raw[:65536])
    except ValueError:
        return plain_text(raw[:2000].decode("utf-8", "replace"), _DETAIL_CHARS) or ""
    for path in (
        ("error", "detail"),
        ("error", "message"),
        ("detail", "error"),
        ("error",),
        ("detail",),
        ("message",),
    ):
        found: object = data
        for key in path:
            found = found.get(key) if isinstance(found, dict) else None
        text = plain_text(found, _DETAIL_CHARS)
        if text is not None:
            return text
    return ""


def _retry_after(value: str | None) -> float | None:
    """Seconds a `Retry-After` header asks for (a number or an HTTP date); `None` if unreadable."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = (when - datetime.now(UTC)).total_seconds() if when.tzinfo else 0.0
    return None if math.isnan(seconds) else max(0.0, seconds)


def _backoff(attempt: int) -> float:
    return float(BACKOFF_S * 2 ** (attempt - 1) * random.uniform(0.75, 1.25))


def _what(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
