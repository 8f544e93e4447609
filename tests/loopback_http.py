"""A real HTTP server on 127.0.0.1 in a thread of the test's process, for the tests' loopback
endpoints (web pages, search APIs, a model endpoint, a refusing MCP endpoint): each gives
only its request handler."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["serving"]

POLL_S = 0.05
"""How often the server looks for a stop: `shutdown` waits up to this long."""


@contextmanager
def serving(
    handler: type[BaseHTTPRequestHandler], *, release: threading.Event | None = None
) -> Iterator[int]:
    """`handler` served on a free loopback port (each request in a daemon thread); the port.

    After the block `release` is set first, so that a response the test held open returns,
    then the server stops and its port closes.
    """
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True
    )
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        if release is not None:
            release.set()
        server.shutdown()
        server.server_close()
        thread.join()
