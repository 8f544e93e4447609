"""One fetch over HTTP: checked addresses, same-host redirects, a bounded streamed body.

The engine knows nothing of markdown: it returns the body's first bytes (at most
`MAX_BODY_BYTES`) and how the server described them, or the redirect it did not follow.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx

from tether.errors import ToolError
from tether.tools.fs.encoding import SNIFF_BYTES
from tether.tools.web.address import checked_addresses
from tether.tools.web.convert import Kind, content_kind, sniff_kind
from tether.tools.web.decode import media_type
from tether.tools.web.limits import ERROR_BODY_BYTES, MAX_BODY_BYTES, MAX_REDIRECTS

__all__ = [
    "ERROR_BODY_BYTES",
    "MAX_BODY_BYTES",
    "MAX_REDIRECTS",
    "Page",
    "Redirect",
    "fetch",
    "parse_url",
    "same_host",
]

_HEADERS = {
    "User-Agent": "tether/0.1 (coding agent; web_fetch)",
    "Accept": "text/markdown, text/html;q=0.9, application/json;q=0.8, text/*;q=0.7, */*;q=0.1",
    # Uncompressed: a decoder gets a whole network chunk at once, and a gzip bomb would
    # expand it far past the body cap before the cap is checked.
    "Accept-Encoding": "identity",
}


@dataclass(frozen=True)
class Page:
    """A final response: its URL, status, declared type, how to read it, and its body."""

    url: str
    status: int
    reason: str
    content_type: str
    kind: Kind | None
    """`None` for a type that is not text (an image, a PDF...): then no body was read."""
    charset: str | None
    body: bytearray
    cut: bool
    """The body went on past what was read."""


@dataclass(frozen=True)
class Redirect:
    """A redirect to another host: reported to the model, not followed."""

    url: str
    status: int
    reason: str
    content_type: str
    location: str


def parse_url(raw: str) -> httpx.URL:
    """The URL, if it is an absolute http or https URL; raises `ToolError` otherwise."""
    try:
        url = httpx.URL(raw.strip())
    except (httpx.InvalidURL, ValueError) as exc:
        raise ToolError(f"Invalid URL {raw!r}: {exc}") from exc
    if url.scheme not in ("http", "https"):
        raise ToolError(
            f"Only http and https URLs can be fetched, not {raw!r}; write it as https://..."
        )
    if not url.host:
        raise ToolError(f"Invalid URL {raw!r}: it names no host")
    return url


def same_host(origin: httpx.URL, target: httpx.URL) -> bool:
    """Whether a redirect stays on the host: `www.` aside, same port; http→https allowed."""
    if target.userinfo:
        return False
    ports = (_port(origin), _port(target))
    if origin.scheme == target.scheme:
        if ports[0] != ports[1]:
            return False
    elif not (origin.scheme == "http" and target.scheme == "https" and ports == (80, 443)):
        return False
    return _bare(origin.host) == _bare(target.host)


async def fetch(
    raw_url: str, *, allow_private: bool, timeout_s: float, max_body: int = MAX_BODY_BYTES
) -> Page | Redirect:
    """GET the URL, following at most `MAX_REDIRECTS` same-host redirects."""
    url = parse_url(raw_url)
    timeout = httpx.Timeout(timeout_s)
    # The environment may name extra CA certificates (SSL_CERT_FILE, SSL_CERT_DIR), but not a
    # proxy: a proxy would connect somewhere other than the address that was checked.
    verify = httpx.create_ssl_context(trust_env=True)
    async with httpx.AsyncClient(
        http2=True,
        follow_redirects=False,
        trust_env=False,
        verify=verify,
        timeout=timeout,
        headers=_HEADERS,
    ) as client:
        for hop in range(MAX_REDIRECTS + 1):
            async with _response(client, url, allow_private) as response:
                location = response.headers.get("location")
                if not (response.is_redirect and location):
                    return await _page(url, response, max_body)
                target = _joined(url, location)
                if target is None or not same_host(url, target):
                    return Redirect(
                        url=str(url),
                        status=response.status_code,
                        reason=response.reason_phrase,
                        content_type=response.headers.get("content-type", ""),
                        location=str(target) if target is not None else location,
                    )
                if hop == MAX_REDIRECTS:
                    break
                url = target
    raise ToolError(f"Too many redirects fetching {raw_url} (more than {MAX_REDIRECTS})")


@asynccontextmanager
async def _response(
    client: httpx.AsyncClient, url: httpx.URL, allow_private: bool
) -> AsyncIterator[httpx.Response]:
    """A streamed response from one of the checked addresses of the URL's host."""
    host = url.raw_host.decode("ascii")
    addresses = await checked_addresses(host, _port(url), allow_private=allow_private)
    for index, address in enumerate(addresses):
        # The request goes to the address that was checked; Host and TLS name the host.
        request = client.build_request(
            "GET",
            url.copy_with(host=address),
            headers={"Host": url.netloc.decode("ascii")},
            extensions={"sni_hostname": host},
        )
        try:
            response = await client.send(request, stream=True)
        except httpx.ConnectError as exc:
            if index < len(addresses) - 1:
                continue  # the next address of the same host (IPv6, then IPv4...)
            raise ToolError(f"Could not connect to {url.netloc.decode('ascii')}: {exc}") from exc
        except httpx.TimeoutException:
            raise
        except httpx.HTTPError as exc:
            raise ToolError(f"Fetching {url} failed: {type(exc).__name__}: {exc}") from exc
        try:
            yield response
        finally:
            await response.aclose()
        return


async def _page(url: httpx.URL, response: httpx.Response, max_body: int) -> Page:
    content_type = response.headers.get("content-type", "")
    media, charset = media_type(content_type)
    kind = content_kind(media) if media else None
    failed = response.status_code >= 400
    if failed:
        limit = min(ERROR_BODY_BYTES, max_body)
    elif media and kind is None:
        limit = 0  # not text: the error names the type, and the body is never downloaded
    else:
        limit = max_body
    body = bytearray()
    cut = False
    if limit:
        try:
            async for chunk in response.aiter_bytes():
                room = limit - len(body)
                if len(chunk) > room:
                    body += chunk[:room]
                    cut = True
                    break
                body += chunk
        except httpx.TimeoutException:
            raise
        except httpx.HTTPError as exc:
            raise ToolError(f"Reading {url} failed: {type(exc).__name__}: {exc}") from exc
    if not media:
        kind = sniff_kind(bytes(body[:SNIFF_BYTES]))
    return Page(
        url=str(url),
        status=response.status_code,
        reason=response.reason_phrase,
        content_type=content_type,
        kind=kind,
        charset=charset,
        body=body,
        cut=cut,
    )


def _joined(url: httpx.URL, location: str) -> httpx.URL | None:
    try:
        target = url.join(location)
    except (httpx.InvalidURL, ValueError):
        return None
    return target if target.scheme in ("http", "https") and target.host else None


def _port(url: httpx.URL) -> int:
    return url.port or (443 if url.scheme == "https" else 80)


def _bare(host: str) -> str:
    return host.lower().removeprefix("www.")
