"""The domain filters of `web_search`: what a filter may be, and which results pass them.

A filter is a host name (`docs.python.org`, `python.org`); a URL is taken for its host, and a
leading `*.` is dropped. A result passes when its host is an allowed domain or below one
(`python.org` lets `docs.python.org` through), and is neither a blocked domain nor below one.
The filters are applied to every backend's results, also where the backend was told them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from tether.errors import ToolError

__all__ = ["domain_filters", "host_of", "passes"]

_LABEL = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?")
MAX_DOMAINS = 20


def domain_filters(given: Sequence[str] | None, argument: str) -> tuple[str, ...]:
    """The domains of one filter argument, normalized; raises `ToolError` naming a bad one."""
    if not given:
        return ()
    if len(given) > MAX_DOMAINS:
        raise ToolError(f"{argument} lists {len(given)} domains; at most {MAX_DOMAINS}")
    domains: list[str] = []
    for raw in given:
        domain = _domain(raw)
        if domain is None:
            raise ToolError(
                f"{argument}: {raw!r} is not a domain; give host names such as docs.python.org"
            )
        if domain not in domains:
            domains.append(domain)
    return tuple(domains)


def host_of(url: str) -> str:
    """The host of an http(s) URL, lower-cased, without a trailing dot ('' if it has none)."""
    try:
        host = (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return ""
    if not host.isascii():
        # Filters are compared in their ASCII (punycode) form, as `domain_filters` keeps them.
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return ""
    return host


def passes(url: str, allowed: Iterable[str], blocked: Iterable[str]) -> bool:
    """Whether a result's URL is inside the allowed domains (if any) and outside the blocked."""
    host = host_of(url)
    if not host:
        return False
    allowed = tuple(allowed)
    if allowed and not any(_within(host, d) for d in allowed):
        return False
    return not any(_within(host, d) for d in blocked)


def _within(host: str, domain: str) -> bool:
    return host == domain or host.endswith("." + domain)


def _domain(raw: str) -> str | None:
    text = raw.strip().lower()
    text = host_of(text) if "://" in text else text.split("/", 1)[0]
    text = text.removeprefix("*.").rstrip(".")
    if not text.isascii():
        try:
            text = text.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    if not text or len(text) > 253:
        return None
    labels = text.split(".")
    if not all(_LABEL.fullmatch(label) for label in labels):
        return None
    return text
