"""An OpenAI-compatible chat endpoint on 127.0.0.1 that holds each request a moment and
notes how many were in flight at once (for `--max-concurrency`)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.loopback_http import serving

HOLD_S = 0.4
"""How long each answer takes: long enough that two workers' requests would overlap."""


class Counting:
    """Requests seen, in flight, and the most in flight at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.in_flight = 0
        self.peak = 0


@contextmanager
def counting_model() -> Iterator[tuple[str, Counting]]:
    """The server's base URL (`…/v1`) and its counts, for the life of the block."""
    counts = Counting()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with counts.lock:
                counts.requests += 1
                counts.in_flight += 1
                counts.peak = max(counts.peak, counts.in_flight)
            try:
                time.sleep(HOLD_S)
                body = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in _chunks())
                body += b"data: [DONE]\n\n"
            finally:
                with counts.lock:
                    counts.in_flight -= 1
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    with serving(Handler) as port:
        yield f"http://127.0.0.1:{port}/v1", counts


def _chunks() -> Iterator[dict[str, Any]]:
    base = {"id": "c", "object": "chat.completion.chunk", "model": "counting"}
    yield {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Done."}}]}
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    usage = {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}
    yield {**base, "choices": [], "usage": usage}
