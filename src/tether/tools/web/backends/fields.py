"""A backend's result fields made safe to show: plain text, checked URLs, dates.

Everything here comes from a search API, so from the web: snippets may carry HTML
(`<strong>` around the words matched), entities, control characters and any length; a URL
may be of any scheme. What leaves this module is plain text of bounded length and http(s)
URLs only.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

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


def plain_text(value: object, limit: int) -> str | None:
    """`value` as one line of plain text (tags dropped, entities decoded, runs of spaces and
    control characters made one space), cut at `limit` with `…`; `None` if it is not a
    string or is blank."""
    if not isinstance(value, str):
        return None
    # Entities are decoded after the tags go, so an escaped `&lt;b&gt;` stays as text.
    text = html.unescape(_TAG.sub("", value[: limit * 4]))
    text = _SPACE.sub(" ", text).strip()
    if not text:
        return None
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def checked_url(value: object) -> str | None:
    """`value` if it is an absolute http(s) URL without spaces or control characters, of a
    sane length; else `None` (a `javascript:` link is never shown)."""
    if not isinstance(value, str) or len(value) > MAX_URL_CHARS:
        return None
    url = value.strip()
    if _URL.fullmatch(url) is None:
        return None
    rest = url.split("://", 1)[1]
    host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rsplit("@", 1)[-1]
    return url if host and not host.startswith(":") else None


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
