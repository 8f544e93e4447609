"""A JSON endpoint whose answers stream as server-sent events, over `httpx` and `httpx-sse`.

This is the request path of the wire formats tether writes itself (chat completions): the
body is tether's own JSON, the answer's `data:` lines are parsed by `httpx-sse`, and each is
decoded with `json.loads`. A provider's SDK costs a third of a second to import for hundreds
of types a chat request never uses; `httpx` alone is what the request needs.

It raises what the provider's `_failure` turns into words: `StatusError` for an HTTP error
status (its body, headers and the error's `code`), `StreamError` for an error reported inside
a stream, `NotAStream` for a 200 that is no event stream; lost connections and timeouts stay
`httpx.TransportError`s, and a chunk that is not JSON a `json.JSONDecodeError`. Retries are
the caller's (`tether.models.retry`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Mapping
from typing import Any

import httpx
from httpx_sse import EventSource, SSEError

from tether.errors import NotAStream, StatusError, StreamError
from tether.models.tls import verifying_context

__all__ = ["TIMEOUT", "USER_AGENT", "SSEClient", "SSEStream"]

TIMEOUT = httpx.Timeout(600.0, connect=5.0)
"""As the providers' SDKs wait: 5 s to connect, then 10 minutes for each read (a model may
think a long while before its first token)."""
USER_AGENT = "tether/0.1 (coding agent)"


def _error_message(error: object) -> str:
    """An in-stream error's words, as the SDKs word it when it has none."""
    message = error.get("message") if isinstance(error, dict) else None
    if isinstance(message, str) and message:
        return message
    return "An error occurred during streaming"


class SSEStream:
    """The decoded `data:` objects of one streamed answer, up to `[DONE]`; `close()` hangs up."""

    def __init__(self, response: httpx.Response) -> None:
        self._response = response
        self._source = EventSource(response)

    async def __aiter__(self) -> AsyncGenerator[Any, None]:
        """Each event's JSON in order; an event naming an `error` raises `StreamError`."""
        events = self._source.aiter_sse()
        try:
            async for event in events:
                if event.data.startswith("[DONE]"):
                    # The rest of the body is read (as the SDKs read it) so that the
                    # connection goes back to the pool: closing a half-read answer hangs up,
                    # and the next request would pay a new TCP and TLS handshake.
                    async for _ in events:
                        pass
                    return
                if not event.data:
                    continue  # a bare `event:` line or keep-alive carries nothing to decode
                data = json.loads(event.data)
                if isinstance(data, dict) and data.get("error"):
                    raise StreamError(_error_message(data["error"]), data["error"])
                yield data
        except SSEError as exc:
            content_type = self._response.headers.get("content-type", "")
            raise NotAStream(content_type.partition(";")[0].strip()) from exc

    async def close(self) -> None:
        """Close the answer and release its connection."""
        await self._response.aclose()


class SSEClient:
    """One endpoint's connection pool, with the headers every request carries."""

    def __init__(self, base_url: str, headers: Mapping[str, str]) -> None:
        # Redirects are followed, as the SDKs follow them (httpx drops the key's header when
        # one leads to another host). The CA bundle loads with the first TLS connection.
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers={"User-Agent": USER_AGENT, **headers},
            timeout=TIMEOUT,
            follow_redirects=True,
            verify=verifying_context(),
        )

    async def stream(
        self, path: str, body: Mapping[str, object], *, headers: Mapping[str, str] | None = None
    ) -> SSEStream:
        """POST `body` to `path` (under the base URL), with `headers` besides the client's;
        the answer streams as `SSEStream`."""
        request = self._http.build_request(
            "POST",
            path,
            json=body,
            headers={"Accept": "text/event-stream", "Cache-Control": "no-store", **(headers or {})},
        )
        response = await self._http.send(request, stream=True)
        if response.is_error:
            await _raise_status(response)
        return SSEStream(response)

    async def get(self, path: str) -> Any:
        """GET `path` (under the base URL) and decode its JSON."""
        response = await self._http.get(path, headers={"Accept": "application/json"})
        if response.is_error:
            await _raise_status(response)
        return response.json()

    async def close(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()


async def _raise_status(response: httpx.Response) -> None:
    """Read the error answer whole and raise it as a `StatusError`."""
    try:
        raw = await response.aread()
    finally:
        await response.aclose()
    text = raw.decode("utf-8", errors="replace")
    try:
        body: object = json.loads(text)
    except (ValueError, RecursionError):
        body = text
    raise StatusError(response.status_code, body, response.headers)
