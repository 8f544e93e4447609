"""A backend's result fields made safe to show: plain text, checked URLs, dates.

Everything here comes from a search API, so from the web: snippets may carry HTML
(`<strong>` around the words matched), entities, control characters and any length; a URL
may be of any scheme, carry `user:pass@` before its host (`https://docs.example@evil.test/`
reads as docs.example) or invisible characters (U+202E turns the rest of a line around).
What leaves this module is plain text of bounded length without bidirectional controls or
zero-width characters, and http(s) URLs only, written plainly: no user information, the
host in ASCII (`xn--` for an international name), everything but printable ASCII
percent-encoded.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import quote, urlsplit, urlunsplit

__all__ = [
    "MAX_SNIPPET_CHARS",
    "MAX_TITLE_CHARS",
    "MAX_URL_CHARS",
    "checked_url",
    "plain_text",
    "published_date",
]

MAX_TITLE_CHARS = 300
MAX_SNIPPET_CHARS = 600
"""A snippet is a preview: a page is read in full with `web_fetch`."""
MAX_URL_CHARS = 2048

_TAG = re.compile(r"<[^<>]{0,2000}>")
_SPACE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")
_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f-\x9f<>\"\\^`{|}]+", re.IGNORECASE)
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_INVISIBLE = re.compile("[\u061c\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
"""Bidirectional controls, zero-width characters and the soft hyphen: they change how the
text around them reads without showing themselves."""
_HOST = re.compile(r"[a-z0-9._-]+|[0-9a-f:.]*:[0-9a-f:.]*")
"""A host name or an IPv4 address, or an IPv6 one (which `urlsplit` gives without brackets)."""
_PRINTABLE = "".join(chr(c) for c in range(0x21, 0x7F))
"""What a URL keeps as it is (anything else is percent-encoded; `%` stays: already encoded)."""


def plain_text(value: object, limit: int) -> str | None:
    """`value` as one line of plain text (tags dropped, entities decoded, runs of spaces and
    control characters made one space), cut at `limit` with `…`; `None` if it is not a
    string or is blank."""
    if not isinstance(value, str):
        return None
    # Entities are decoded after the tags go, so an escaped `&lt;b&gt;` stays as text.
    text = html.unescape(_TAG.sub("", value[: limit * 4]))
    text = _SPACE.sub(" ", _INVISIBLE.sub("", text)).strip()
    if not text:
        return None
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def checked_url(value: object) -> str | None:
    """`value` written plainly if it is an absolute http(s) URL of a sane length without
    spaces or control characters; else `None` (a `javascript:` link is never shown).

    Plainly: without user information (`user:pass@`), the host lowercase ASCII, and every
    character but printable ASCII (U+202E, a zero-width space) percent-encoded."""
    if not isinstance(value, str) or len(value) > MAX_URL_CHARS:
        return None
    url = value.strip()
    if _URL.fullmatch(url) is None:
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return None  # a port that is no number, a bracketed host that is no address
    if host and not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return None
    host = host.lower()
    if not host or _HOST.fullmatch(host) is None:
        return None
    where = f"[{host}]" if ":" in host else host
    if port is not None:
        where += f":{port}"
    path, query, fragment = (
        quote(part, safe=_PRINTABLE) for part in (parts.path, parts.query, parts.fragment)
    )
    plain = urlunsplit((parts.scheme.lower(), where, path, query, fragment))
    return plain if len(plain) <= MAX_URL_CHARS else None


def published_date(value: object) -> str | None:
    """A date as `YYYY-MM-DD` from an ISO 8601 timestamp or an RFC 2822 date (as the APIs
    send them); another short text (Brave's `2 days ago`) as it is; else `None`."""
    text = plain_text(value, 40)
    if text is None:
        return None
    day = _ISO_DAY.match(text)
    if day is not None and _valid_day(*(int(part) for part in day.groups())):
        return day.group(0)
    try:
        parsed = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return text
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC)
    return parsed.date().isoformat()


def _valid_day(year: int, month: int, day: int) -> bool:
    try:
        datetime(year, month, day)
    except ValueError:
        return False
    return True
