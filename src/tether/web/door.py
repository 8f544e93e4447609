"""The server's door: every request needs the token, the Host must be ours, and a
WebSocket's Origin must be the page's own origin.

The token comes in the URL query (`?token=`) or in the cookie the page's first load sets,
so the page's own module imports and stylesheets work without carrying it. A foreign
Host header is refused too, which stops DNS-rebinding pages from reaching the server.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["Door", "Doorkeeper", "cookie_name"]

_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
_WILDCARD = ("0.0.0.0", "::", "[::]", "")


def cookie_name(port: int) -> str:
    """Cookies are per host, not per port: each server names its own."""
    return f"tether_{port}"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@dataclass(frozen=True)
class Door:
    """What a request must show: the token, and a Host/Origin naming this server."""

    token: str
    host: str
    port: int

    @property
    def open_to_any_host(self) -> bool:
        """Bound to a wildcard address on purpose: any Host name may reach us."""
        return self.host in _WILDCARD

    def hosts(self) -> set[str]:
        """`Host` header values that name this server."""
        names: Iterable[str] = (*_LOOPBACK, _url_host(self.host))
        return {f"{name}:{self.port}" for name in names}

    def token_ok(self, scope: Scope) -> bool:
        """The query's `token` or this server's cookie matches the token."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        offered = query.get("token", [])
        name = cookie_name(self.port)
        for key, value in scope.get("headers", []):
            if key != b"cookie":
                continue
            # Split by hand: `SimpleCookie` stops at the first cookie it finds malformed,
            # and other apps on this host (cookies ignore ports) may well set one.
            for pair in value.decode("latin-1").split(";"):
                key_text, _, cookie_value = pair.partition("=")
                if key_text.strip() == name:
                    offered.append(cookie_value.strip())
        return any(secrets.compare_digest(o.encode(), self.token.encode()) for o in offered)

    def host_ok(self, host: str | None) -> bool:
        """The request was addressed to this server by one of its names."""
        return host is not None and (self.open_to_any_host or host in self.hosts())

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """The WebSocket comes from a page this server served (same scheme, host, port)."""
        if origin is None or host is None:
            return False
        return origin == f"http://{host}" and self.host_ok(host)


class Doorkeeper:
    """ASGI middleware that answers 403 to any request the `Door` does not admit."""

    def __init__(self, app: ASGIApp, door: Door) -> None:
        self._app = app
        self._door = door

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Admit or refuse one connection before the app sees it."""
        if scope["type"] not in ("http", "websocket"):
            await self._app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host")
        admitted = self._door.host_ok(host) and self._door.token_ok(scope)
        if scope["type"] == "websocket":
            admitted = admitted and self._door.origin_ok(headers.get("origin"), host)
            if not admitted:
                # Closing before accept makes the server answer the handshake with 403.
                await send({"type": "websocket.close", "code": 1008})
                return
        elif not admitted:
            body = b"403 Forbidden: open the URL that `tether web` printed (it carries the token)\n"
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._app(scope, receive, send)
