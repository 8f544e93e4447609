"""The Starlette app: the page, its static files, the highlight stylesheet and `/ws`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tether.web.bridge import Bridge
from tether.web.client import SendToPage
from tether.web.contrast import readable_css
from tether.web.door import Door, Doorkeeper, cookie_name
from tether.web.follow import FollowedBudget
from tether.web.protocol import (
    CLIENT_MESSAGE,
    SERVER_MESSAGE,
    ClientMessage,
    ErrorMessage,
    ServerMessage,
)

__all__ = ["WebConfig", "create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
LIGHT_STYLE = "friendly"
DARK_STYLE = "github-dark"
MAX_MESSAGE = 1024 * 1024
"""Largest message accepted from the page (a prompt is text; 1 MiB is plenty)."""
DEFAULT_MAX_AGENTS = 8
"""Agent processes one server runs at once (one per open page), unless `--max-agents` says."""
TRY_AGAIN_LATER = 1013
"""The WebSocket close code for a page refused because every agent slot is taken."""


@dataclass(frozen=True)
class WebConfig:
    """What one server serves: the agent to run per tab, where, and who may connect."""

    agent: Sequence[str]
    cwd: Path
    door: Door
    max_agents: int = DEFAULT_MAX_AGENTS
    """At most this many pages have an agent at once; the next one is refused."""
    budget: FollowedBudget = field(default_factory=FollowedBudget)
    """The agents' window and compaction point, for sessions shown read-only from their logs."""


LIGHT_BACKGROUNDS = ("#ffffff", "#fbfbfa", "#f3f2ee", "#fff6d6")
"""What highlighted code is drawn on in the light theme (panel, code, gutter, a search hit)."""
DARK_BACKGROUNDS = ("#1c1f26", "#191c22", "#171a1f", "#3a3117")
"""The same in the dark theme (app.css's `--panel`, `--code-bg`, `--gutter-bg`, `--warn-bg`)."""


@lru_cache(maxsize=1)
def highlight_css() -> str:
    """Pygments token colours for `.hl` code, light by default and dark when the OS is, each
    made to reach WCAG AA contrast on the page's backgrounds."""
    light = readable_css(_token_rules(LIGHT_STYLE), LIGHT_BACKGROUNDS, dark=False)
    dark = readable_css(_token_rules(DARK_STYLE), DARK_BACKGROUNDS, dark=True)
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"


@lru_cache(maxsize=1)
def index_html() -> str:
    """The page, with every module and stylesheet it will import announced in its head.

    Otherwise the browser finds them import by import, four levels deep, each level a round
    trip: on a busy machine that is most of the time before a session's history shows.
    """
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="/static/([^"]+)"', html))
    files = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file())
    links = [
        f'  <link rel="modulepreload" href="/static/{name}">\n'
        if name.endswith(".js")
        else f'  <link rel="preload" as="style" href="/static/{name}">\n'
        for name in files
        if name.endswith((".js", ".css")) and name not in linked
    ]
    return html.replace("</head>", "".join(links) + "</head>", 1)


_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
}


@lru_cache(maxsize=1)
def static_files() -> dict[str, tuple[bytes, str]]:
    """The page's own files by their path under `/static/`, read once: some forty of them are
    asked for at once when a tab opens, and answering from memory keeps that quick."""
    return {
        path.relative_to(STATIC).as_posix(): (path.read_bytes(), _TYPES[path.suffix])
        for path in STATIC.rglob("*")
        if path.is_file() and path.suffix in _TYPES
    }


def _token_rules(style: str) -> str:
    # Only the token colours: backgrounds, `pre` and line-number rules are the page's own.
    rules = HtmlFormatter(style=style).get_style_defs(".hl").splitlines()
    return "\n".join(rule for rule in rules if rule.startswith(".hl .") and ".hll" not in rule)


def create_app(config: WebConfig) -> ASGIApp:
    """The whole server: routes behind the doorkeeper and the security headers."""

    async def index(request: Request) -> Response:
        response = Response(index_html(), media_type="text/html")
        # The cookie lets the page's module imports and stylesheets in without the query.
        response.set_cookie(
            cookie_name(config.door.port),
            config.door.token,
            httponly=True,
            samesite="strict",
            path="/",
        )
        return response

    async def static(request: Request) -> Response:
        found = static_files().get(request.path_params["path"])
        if found is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        body, media_type = found
        return Response(body, media_type=media_type)

    async def stylesheet(request: Request) -> Response:
        return Response(highlight_css(), media_type="text/css")

    running = 0  # agents started and not yet stopped; one event loop, so no lock

    async def socket(websocket: WebSocket) -> None:
        nonlocal running
        await websocket.accept()
        if running >= config.max_agents:
            await _refuse(websocket, config.max_agents)
            return
        running += 1
        try:
            await _serve_page(websocket, config)
        finally:
            running -= 1

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/highlight.css", stylesheet),
            Route("/static/{path:path}", static),
            WebSocketRoute("/ws", socket),
        ],
        middleware=[Middleware(Doorkeeper, door=config.door)],
    )
    return _SecurityHeaders(app, config.door.port)


async def _refuse(websocket: WebSocket, max_agents: int) -> None:
    """Tell a page over the cap why it gets no agent, then close (try again later)."""
    message = ErrorMessage(
        message=f"this server runs at most {max_agents} agents at once (--max-agents); "
        "close another tab, then reload this one"
    )
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_text(SERVER_MESSAGE.dump_json(message, by_alias=True).decode())
        await websocket.close(code=TRY_AGAIN_LATER)


async def _serve_page(websocket: WebSocket, config: WebConfig) -> None:
    """One page: its own agent, relayed until the page or the agent goes."""
    lock = asyncio.Lock()

    async def send(message: ServerMessage) -> None:
        data = SERVER_MESSAGE.dump_json(message, by_alias=True).decode()
        async with lock:
            if websocket.application_state != WebSocketState.CONNECTED:
                return
            try:
                await websocket.send_text(data)
            except (WebSocketDisconnect, RuntimeError, OSError):
                log.debug("page went away while sending")

    bridge = Bridge(config.agent, config.cwd, send, config.budget)
    await bridge.run(_incoming(websocket, send))
    async with lock:
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await websocket.close()


async def _incoming(websocket: WebSocket, send: SendToPage) -> AsyncIterator[ClientMessage]:
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            # A binary frame (or none at all): the protocol is JSON text only.
            await send(ErrorMessage(message="binary messages are not understood; send JSON text"))
            continue
        if len(text) > MAX_MESSAGE:
            await send(ErrorMessage(message="message too large"))
            continue
        try:
            yield CLIENT_MESSAGE.validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            await send(ErrorMessage(message=f"bad message from the page: {where}: {first['msg']}"))


class _SecurityHeaders:
    """No caching, no sniffing, no referrer (the URL has the token), a strict CSP."""

    def __init__(self, app: ASGIApp, port: int) -> None:
        self._app = app
        self._csp = (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self' ws://127.0.0.1:{port} ws://localhost:{port}; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"content-security-policy", self._csp),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cache-control", b"no-store"),
                    (b"x-frame-options", b"DENY"),
                ]
            await send(message)

        await self._app(scope, receive, with_headers)
