"""A real HTTP/1.1 server on 127.0.0.1 that replays recorded SSE transcripts.

It speaks HTTP by hand over `asyncio.start_server` so tests control every byte: streamed
bodies go out with chunked transfer encoding, one SSE event (or a fixed number of bytes) per
chunk, exactly as the providers send them. Every request is recorded, and the moment each
connection closes is noted, so tests can check what the SDK sent and that it hung up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

TRANSCRIPTS = Path(__file__).parent / "transcripts"


@dataclass(frozen=True)
class Reply:
    """One scripted response."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    chunks: tuple[bytes, ...] = ()
    streamed: bool = True
    """Chunked transfer encoding (an SSE stream) rather than a fixed Content-Length."""
    hold: bool = False
    """After the chunks, keep the response open until the client closes the connection."""
    cut: bool = False
    """After the chunks, drop the connection without ending the body."""
    pause_after: int | None = None
    """After this many chunks, wait until `resume` is set (a stream that stops a while)."""
    resume: threading.Event | None = None


def sse_reply(
    name: str,
    *,
    chunk_size: int | None = None,
    hold_after: int | None = None,
    cut_after: int | None = None,
) -> Reply:
    """A transcript from `transcripts/` as a 200 event stream.

    By default each SSE event goes out as its own chunk; `chunk_size` cuts the bytes into
    fixed pieces instead (events then straddle chunks). `hold_after` sends only that many
    events and then keeps the stream open; `cut_after` sends that many and drops the connection.
    """
    raw = (TRANSCRIPTS / name).read_bytes()
    events = [event + b"\n\n" for event in raw.split(b"\n\n") if event.strip()]
    if hold_after is not None or cut_after is not None:
        events = events[: hold_after if hold_after is not None else cut_after]
    body = b"".join(events)
    if chunk_size is not None:
        chunks = tuple(body[i : i + chunk_size] for i in range(0, len(body), chunk_size))
    else:
        chunks = tuple(events)
    headers = {"content-type": "text/event-stream", "cache-control": "no-cache"}
    return Reply(
        headers=headers, chunks=chunks, hold=hold_after is not None, cut=cut_after is not None
    )


def json_reply(status: int, body: object, headers: dict[str, str] | None = None) -> Reply:
    """A plain JSON response (errors)."""
    return Reply(
        status=status,
        headers={"content-type": "application/json", **(headers or {})},
        chunks=(json.dumps(body).encode(),),
        streamed=False,
    )


@dataclass(frozen=True)
class Received:
    """A request as the server read it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)


REASONS = {200: "OK", 401: "Unauthorized", 404: "Not Found", 429: "Too Many Requests"}


class SSEServer:
    """Serves queued replies in order; use as `async with SSEServer() as server`."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.closed_at: list[float] = []
        """Monotonic times at which held responses saw the client close the connection."""
        self._replies: deque[Reply] = deque()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._accepted = 0
        self.client_closed = asyncio.Event()
        self.answer: Callable[[Received], Reply] | None = None
        """Makes the reply to a request when none is queued (a server that reads the request)."""

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT`."""
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    @property
    def accepted(self) -> int:
        """Connections clients opened so far (a pool reusing one opens no other)."""
        return self._accepted

    @property
    def open_connections(self) -> int:
        """Connections a client holds open now (kept alive, or streaming)."""
        return len(self._writers)

    def queue(self, *replies: Reply) -> None:
        """Answer the next requests with `replies`, in order."""
        self._replies.extend(replies)

    async def __aenter__(self) -> SSEServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        # Closing the sockets ends each connection's loop at its next read; cancelling the
        # handlers instead makes asyncio log the cancellation as an unhandled error.
        for writer in list(self._writers):
            writer.close()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        self._accepted += 1
        try:
            while await self._one(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            writer.close()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Serve one request on a kept-alive connection; False once the client is gone."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return False
        request_line, *lines = head.decode("latin-1").split("\r\n")
        method, path, _ = request_line.split(" ", 2)
        headers = {}
        for line in lines:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", ""):
            raise AssertionError("the test server does not read chunked request bodies")
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        received = Received(method, path, headers, body, time.monotonic())
        self.requests.append(received)
        if self._replies:
            reply = self._replies.popleft()
        elif self.answer is not None:
            reply = self.answer(received)
        else:
            reply = json_reply(500, {"error": "none"})
        await self._write(reply, writer)
        if reply.cut:
            writer.transport.abort()
            return False
        if reply.hold:
            # Anything the client sends now is ignored; EOF means it closed the stream, and a
            # reset means it closed with our bytes still unread (the kernel then sends RST).
            try:
                while await reader.read(65536):
                    pass
            except ConnectionError:
                pass
            self.closed_at.append(time.monotonic())
            self.client_closed.set()
            return False
        return True

    async def _write(self, reply: Reply, writer: asyncio.StreamWriter) -> None:
        """Write the status line, headers and body (chunked when streamed)."""
        reason = REASONS.get(reply.status, "Status")
        head = [f"HTTP/1.1 {reply.status} {reason}"]
        head += [f"{name}: {value}" for name, value in reply.headers.items()]
        if reply.streamed:
            head.append("transfer-encoding: chunked")
        else:
            head.append(f"content-length: {sum(len(chunk) for chunk in reply.chunks)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
        for index, chunk in enumerate(reply.chunks):
            if index == reply.pause_after and reply.resume is not None:
                await asyncio.to_thread(reply.resume.wait, 60)
            if reply.streamed:
                writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            else:
                writer.write(chunk)
            await writer.drain()
            # Yield so the client can read this chunk before the next one is written.
            await asyncio.sleep(0)
        if reply.streamed and not (reply.hold or reply.cut):
            writer.write(b"0\r\n\r\n")
        await writer.drain()


@contextlib.contextmanager
def served_in_thread(prepare: Callable[[SSEServer], None]) -> Iterator[SSEServer]:
    """An `SSEServer` running on its own event loop in a thread, `prepare`d once it listens:
    for tests driven from synchronous code (a terminal in a pty), which cannot await it."""
    loop = asyncio.new_event_loop()
    server = SSEServer()
    started = threading.Event()
    stop = asyncio.Event()

    async def serve() -> None:
        async with server:
            prepare(server)
            started.set()
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(10)
    try:
        yield server
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        loop.close()
