"""A loopback OpenAI-compatible model for the benches: read one file, then answer.

`LoopbackModel` serves `POST /v1/chat/completions` (streamed or not) on 127.0.0.1 with a
fixed two-step script: a request that offers a `read` tool and whose last message is not
a tool result gets one call of it on the file it was given (the argument named as the tool's schema
names its path: `path`, `filePath` or `file_path`); any other request gets a short answer.
It records when each request arrived, so a bench can time a client up to its first request,
and the CPU a watched client process had used by then.

`GET /v1/models` lists the one model, for clients that ask first.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["MODEL", "LoopbackModel", "process_cpu"]

MODEL = "loopback"
ANSWER = "The file defines its constants; nothing else to report."
_PATH_NAMES = ("path", "filePath", "file_path")


class LoopbackModel:
    """The server, running in a thread until `close()`."""

    def __init__(self, path: str) -> None:
        self.path = path
        """The file every `read` call names (absolute)."""
        self.arrivals: list[float] = []
        """`time.perf_counter()` at each chat request, in order."""
        self.client_pid: int | None = None
        """A client process to watch: its CPU seconds at each chat request go to `cpu_at`."""
        self.cpu_at: list[float | None] = []
        """The watched client's CPU seconds (user + system, its children's included) at each
        chat request; `None` when no process was watched or it was gone."""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT/v1`."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def reply(self, request: dict[str, Any]) -> dict[str, Any]:
        """The assistant message for one chat request: a read call first, then the answer."""
        messages = request.get("messages") or []
        tool = _read_tool(request.get("tools") or [])
        # A client's side requests (a title, a summary) offer no read tool: they get text.
        if tool is None or (messages and messages[-1].get("role") == "tool"):
            return {"content": ANSWER}
        name, argument = tool
        call = {
            "id": f"call_{len(self.arrivals)}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps({argument: self.path})},
        }
        return {"content": "", "tool_calls": [call]}

    def close(self) -> None:
        """Stop serving."""
        self._server.shutdown()
        self._server.server_close()


def process_cpu(pid: int | None) -> float | None:
    """CPU seconds process `pid` has used so far (user + system, with its waited-for
    children's), from `/proc`; `None` when it cannot be read."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as status:
            stat = status.read()
    except OSError:
        return None
    # The fields after the command's name, which is in parentheses and may hold spaces.
    fields = stat.rpartition(")")[2].split()
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return (utime + stime + cutime + cstime) / os.sysconf("SC_CLK_TCK")


def _read_tool(tools: list[dict[str, Any]]) -> tuple[str, str] | None:
    """The client's read tool and the name of its path argument, if it offers one."""
    for tool in tools:
        function = tool.get("function") or {}
        if function.get("name") in ("read", "Read", "read_file"):
            properties = (function.get("parameters") or {}).get("properties") or {}
            argument = next((n for n in _PATH_NAMES if n in properties), "path")
            return function["name"], argument
    return None


def _chunks(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The streamed form of one assistant message, OpenAI's chunk shape."""
    base = {"id": "chatcmpl-loop", "object": "chat.completion.chunk", "model": MODEL}
    yield {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}
    if message.get("content"):
        delta = {"content": message["content"]}
        yield {**base, "choices": [{"index": 0, "delta": delta}]}
    for index, call in enumerate(message.get("tool_calls") or []):
        delta = {"tool_calls": [{"index": index, **call}]}
        yield {**base, "choices": [{"index": 0, "delta": delta}]}
    reason = "tool_calls" if message.get("tool_calls") else "stop"
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}
    usage = {"prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020}
    yield {**base, "choices": [], "usage": usage}


def _handler(model: LoopbackModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            body = json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
            self._send(200, "application/json", body.encode())

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = json.loads(self.rfile.read(length) or b"{}")
            if not self.path.endswith("/chat/completions"):
                self._send(404, "application/json", b'{"error": {"message": "not found"}}')
                return
            model.arrivals.append(time.perf_counter())
            model.cpu_at.append(process_cpu(model.client_pid))
            message = model.reply(request)
            if not request.get("stream"):
                reason = "tool_calls" if message.get("tool_calls") else "stop"
                body = {
                    "id": "chatcmpl-loop",
                    "object": "chat.completion",
                    "model": MODEL,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", **message},
                            "finish_reason": reason,
                        }
                    ],
                    "usage": {"prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020},
                }
                self._send(200, "application/json", json.dumps(body).encode())
                return
            events = b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in _chunks(message))
            self._send(200, "text/event-stream", events + b"data: [DONE]\n\n")

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
