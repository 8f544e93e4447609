"""A real HTTP server on 127.0.0.1 for the fetch tests: routes are plain functions."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from tests.loopback_http import serving

__all__ = ["Handler", "PageServer", "Route", "endless", "reply", "serve"]

Handler = BaseHTTPRequestHandler
Route = Callable[[Handler], None]


@dataclass
class PageServer:
    """Routes by path, the requests seen, and events a test can wait on or set."""

    port: int = 0
    routes: dict[str, Route] = field(default_factory=dict)
    hosts: list[str] = field(default_factory=list)
    """The Host header of every request, in order."""
    paths: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    """Set when the test ends: a response held open returns."""
    started: threading.Event = field(default_factory=threading.Event)
    """Set by a route once it has sent part of a body."""
    closed: threading.Event = field(default_factory=threading.Event)
    """Set by a route when the client went away while it was writing."""

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        """The URL of `path` on this server, through `host`."""
        return f"http://{host}:{self.port}{path}"


def reply(
    handler: Handler,
    status: int,
    body: bytes,
    content_type: str | None = "text/html; charset=utf-8",
    headers: dict[str, str] | None = None,
) -> None:
    """Send a whole response."""
    handler.send_response(status)
    if content_type is not None:
        handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def endless(server: PageServer) -> Route:
    """A text body that goes on until the client hangs up (or ~200 MB, or the test ends).

    `server.started` is set once the first part is out; `server.closed` when the client left.
    """

    def route(handler: Handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/plain")
        handler.end_headers()
        handler.wfile.write(b"x" * 65536)
        handler.wfile.flush()
        server.started.set()
        for _ in range(3000):
            if server.release.wait(0.01):
                return
            handler.wfile.write(b"y" * 65536)
            handler.wfile.flush()

    return route


@contextmanager
def serve() -> Iterator[PageServer]:
    """A server on a free loopback port, stopped (and every held response released) after."""
    state = PageServer()

    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            state.hosts.append(self.headers.get("Host", ""))
            path = self.path.split("?", 1)[0]
            state.paths.append(self.path)
            route = state.routes.get(path)
            if route is None:
                reply(self, 404, b"<h1>Not here</h1><p>No route for this path.</p>")
                return
            try:
                route(self)
            except (BrokenPipeError, ConnectionResetError):
                state.closed.set()

        def log_message(self, format: str, *args: object) -> None:
            return None

    with serving(_Handler, release=state.release) as port:
        state.port = port
        yield state
