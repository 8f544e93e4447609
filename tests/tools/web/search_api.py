"""A real HTTP server on 127.0.0.1 that answers as the search APIs do, for the search tests.

It speaks each provider's wire format as the provider documents it (paths, headers, JSON
shapes), from canned results: Brave (`GET /res/v1/web/search`), Exa (`POST /search`,
`x-api-key`), Tavily (`POST /search`, a Bearer key) and SearXNG (`GET /search?format=json`).
Replies are queued per test; every request is recorded for the test to check.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.loopback_http import serving

__all__ = [
    "ERRORS",
    "Hit",
    "Reply",
    "SearchApi",
    "Seen",
    "env_for",
    "ok_reply",
    "serve_api",
]

HOLD_S = 30
"""The longest a held request waits for the test to release it."""

PATHS = {"brave": "/res/v1/web/search", "exa": "/search", "tavily": "/search", "searxng": "/search"}


@dataclass(frozen=True)
class Hit:
    """One canned result, in provider-neutral form (each provider's shape is built from it)."""

    title: str
    url: str
    snippet: str = ""
    date: str | None = None


@dataclass(frozen=True)
class Reply:
    """One answer: a status, a body (JSON-able, or raw bytes sent as they are), headers."""

    status: int = 200
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    content_type: str = "application/json"
    hold: bool = False
    """Wait for `SearchApi.release` before answering (a search that never comes back)."""


@dataclass(frozen=True)
class Seen:
    """A request as it arrived."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    """Lower-cased names."""
    body: Any
    """The decoded JSON body, or `None` without one."""


@dataclass
class SearchApi:
    """The server's queue of replies and the requests it saw."""

    port: int = 0
    replies: list[Reply] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    held: threading.Event = field(default_factory=threading.Event)
    gone: threading.Event = field(default_factory=threading.Event)
    """Set when a held request's client went away."""

    @property
    def url(self) -> str:
        """The base URL, as a backend's address setting takes it."""
        return f"http://127.0.0.1:{self.port}"

    def answer(self, *replies: Reply) -> None:
        """Answer the next requests with `replies`, in order (then 500s)."""
        self.replies[:] = replies
        self.seen.clear()


@contextmanager
def serve_api() -> Iterator[SearchApi]:
    """The server on a free loopback port, stopped after."""
    state = SearchApi()

    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._answer()

        def do_POST(self) -> None:
            self._answer()

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            state.seen.append(
                Seen(
                    method=self.command,
                    path=parts.path,
                    query=parse_qs(parts.query, keep_blank_values=True),
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=json.loads(raw) if raw else None,
                )
            )
            reply = state.replies.pop(0) if state.replies else Reply(500, {"error": "no reply"})
            if reply.hold:
                state.held.set()
                state.release.wait(HOLD_S)
            body = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                state.gone.set()

        def log_message(self, format: str, *args: object) -> None:
            return None

    with serving(_Handler, release=state.release) as port:
        state.port = port
        yield state


def env_for(provider: str, api: SearchApi) -> dict[str, str]:
    """The environment that configures `provider` against the server."""
    match provider:
        case "brave":
            return {"BRAVE_API_KEY": "brave-key", "BRAVE_BASE_URL": api.url}
        case "exa":
            return {"EXA_API_KEY": "exa-key", "EXA_BASE_URL": api.url}
        case "tavily":
            return {"TAVILY_API_KEY": "tvly-key", "TAVILY_BASE_URL": api.url}
        case "searxng":
            return {"SEARXNG_URL": api.url}
    raise AssertionError(provider)


def ok_reply(provider: str, hits: Sequence[Hit], query: str = "q") -> Reply:
    """A successful answer carrying `hits` in `provider`'s own shape."""
    match provider:
        case "brave":
            return Reply(body=_brave(hits, query))
        case "exa":
            return Reply(body=_exa(hits))
        case "tavily":
            return Reply(body=_tavily(hits, query))
        case "searxng":
            return Reply(body=_searxng(hits, query))
    raise AssertionError(provider)


def _brave(hits: Sequence[Hit], query: str) -> dict[str, Any]:
    results = [
        {
            "type": "search_result",
            "subtype": "generic",
            "title": hit.title,
            "url": hit.url,
            "is_source_local": False,
            "description": hit.snippet,
            "page_age": hit.date,
            "age": "2 days ago" if hit.date else None,
            "language": "en",
            "family_friendly": True,
            "profile": {"name": "site", "img": "https://imgs.search.brave.com/favicon.png"},
            "meta_url": {"scheme": "https", "netloc": urlsplit(hit.url).netloc},
            "thumbnail": {"src": "https://imgs.search.brave.com/thumb.jpg"},
        }
        for hit in hits
    ]
    body: dict[str, Any] = {
        "type": "search",
        "query": {"original": query, "more_results_available": True},
        "mixed": {"type": "mixed", "main": [{"type": "web", "index": 0, "all": False}]},
    }
    if results:  # Brave leaves `web` out when nothing was found
        body["web"] = {"type": "search", "results": results, "family_friendly": True}
    return body


def _exa(hits: Sequence[Hit]) -> dict[str, Any]:
    return {
        "requestId": "b5947044c4b78efa9552a7c89b306d95",
        "resolvedSearchType": "neural",
        "results": [
            {
                "id": hit.url,
                "title": hit.title,
                "url": hit.url,
                "publishedDate": f"{hit.date}T00:00:00.000Z" if hit.date else None,
                "author": None,
                "highlights": [hit.snippet] if hit.snippet else [],
                "highlightScores": [0.42] if hit.snippet else [],
            }
            for hit in hits
        ],
        "costDollars": {"total": 0.005},
    }


def _tavily(hits: Sequence[Hit], query: str) -> dict[str, Any]:
    return {
        "query": query,
        "follow_up_questions": None,
        "answer": None,
        "images": [],
        "results": [
            {
                "title": hit.title,
                "url": hit.url,
                "content": hit.snippet,
                "score": 0.81,
                "raw_content": None,
                **({"published_date": _rfc2822(hit.date)} if hit.date else {}),
            }
            for hit in hits
        ],
        "response_time": 1.09,
        "request_id": "123e4567-e89b-12d3-a456-426614174111",
    }


def _searxng(hits: Sequence[Hit], query: str) -> dict[str, Any]:
    return {
        "query": query,
        "number_of_results": 0,
        "results": [
            {
                "url": hit.url,
                "title": hit.title,
                "content": hit.snippet,
                "publishedDate": f"{hit.date}T00:00:00" if hit.date else None,
                "thumbnail": "",
                "engine": "duckduckgo",
                "template": "default.html",
                "parsed_url": [
                    "https",
                    urlsplit(hit.url).netloc,
                    urlsplit(hit.url).path,
                    "",
                    "",
                    "",
                ],
                "engines": ["duckduckgo", "brave"],
                "positions": [1, 2],
                "score": 4.0,
                "category": "general",
            }
            for hit in hits
        ],
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }


def _rfc2822(date: str) -> str:
    from datetime import datetime

    return datetime.fromisoformat(date).strftime("%a, %d %b %Y 12:00:00 GMT")


ERRORS: dict[str, dict[int, Any]] = {
    "brave": {
        401: {
            "type": "ErrorResponse",
            "error": {
                "id": "c1f8b2b2-4c1c-4f0e-9f2a-1f2b3c4d5e6f",
                "status": 401,
                "code": "SUBSCRIPTION_TOKEN_INVALID",
                "detail": "The provided subscription token is invalid.",
                "meta": {"component": "authentication"},
            },
            "time": 1735000000,
        },
        429: {
            "type": "ErrorResponse",
            "error": {
                "id": "d2",
                "status": 429,
                "code": "RATE_LIMITED",
                "detail": "Request rate limit exceeded for plan.",
                "meta": {"plan": "Free", "rate_limit": 1, "rate_current": 2},
            },
            "time": 1735000000,
        },
    },
    "exa": {
        401: {"requestId": "e1", "error": "Invalid API key", "tag": "INVALID_API_KEY"},
        429: {"requestId": "e2", "error": "You've exceeded your rate limit", "tag": "RATE_LIMIT"},
    },
    "tavily": {
        401: {"detail": {"error": "Unauthorized: missing or invalid API key."}},
        429: {"detail": {"error": "Rate limit exceeded. Please try again later."}},
    },
    "searxng": {
        # SearXNG has no keys; a reverse proxy in front of it may ask for some.
        401: b"<html><body><h1>401 Unauthorized</h1></body></html>",
        429: b"Too Many Requests",
    },
}
