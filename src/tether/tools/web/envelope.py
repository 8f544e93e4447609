"""The text the model sees for a fetch, and the narrowing of stored fetch results for cards.

    URL: FINAL_URL | Status: 200 OK | Content-Type: text/html; charset=utf-8
    <web_content>
    the page as markdown
    </web_content>
    (Truncated: ...)

Fetched text is data, not instructions: it sits inside `<web_content>`, which the page
cannot close (its own `</web_content` is escaped), and the system prompt tells the model
never to follow instructions found there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeGuard

__all__ = [
    "CLOSE_TAG",
    "MAX_TEXT_CHARS",
    "OPEN_TAG",
    "WebMeta",
    "envelope_content",
    "escape_content",
    "header_line",
    "render_envelope",
    "web_meta_from_meta",
]

MAX_TEXT_CHARS = 100_000
"""The most characters of text the model gets for one fetch, everything included."""

OPEN_TAG = "<web_content>"
CLOSE_TAG = "</web_content>"
_OPEN = f"\n{OPEN_TAG}\n"
_CLOSE = f"\n{CLOSE_TAG}"
_CLOSE_ANY = re.compile(r"</(web_content)", re.I)
_NOTE_RESERVE = 200
"""Room kept for the truncation note, whose numbers are known only after the cut."""


def header_line(url: str, status: int, reason: str, content_type: str) -> str:
    """`URL: … | Status: 200 OK | Content-Type: …`: where the text came from."""
    status_text = f"{status} {reason}".strip()
    return f"URL: {url} | Status: {status_text} | Content-Type: {content_type or '(none)'}"


def render_envelope(head: str, body: str, cut_reasons: list[str]) -> tuple[str, bool]:
    """The text for the model, at most `MAX_TEXT_CHARS`, and whether anything was left out.

    `cut_reasons` says what was left out before (the body past its cap...); the total size
    of the body is then unknown, so the note gives only how much is shown.
    """
    body = escape_content(body.rstrip("\n"))
    room = MAX_TEXT_CHARS - len(head) - len(_OPEN) - len(_CLOSE) - _NOTE_RESERVE
    reasons = list(cut_reasons)
    if len(body) > room:
        total = "" if cut_reasons else f" of {len(body):,}"
        reasons.insert(0, f"showing the first {max(room, 0):,}{total} characters")
        body = body[: max(room, 0)]
    text = f"{head}{_OPEN}{body}{_CLOSE}"
    if reasons:
        text += f"\n(Truncated: {'; '.join(reasons)}.)"[:_NOTE_RESERVE]
    return text, bool(reasons)


def envelope_content(text: str) -> str | None:
    """The text between `<web_content>` and `</web_content>`, or `None` if there is none."""
    start = text.find(_OPEN)
    if not text.startswith("URL: ") or start < 0:
        return None
    start += len(_OPEN)
    end = text.rfind(_CLOSE)
    if end < start:
        return None
    return text[start:end]


def escape_content(body: str) -> str:
    """The text with every `</web_content` made harmless, so it cannot end the tags early."""
    # Only the closing tag matters: a page that could close it could write outside the data.
    return _CLOSE_ANY.sub(r"<\\/\1", body)


@dataclass(frozen=True)
class WebMeta:
    """A fetch result's stored projection, checked: what the web card is drawn from."""

    url: str
    status_code: int
    truncated: bool
    content_type: str | None = None
    bytes: int | None = None
    title: str | None = None
    redirect: str | None = None


def web_meta_from_meta(meta: object) -> WebMeta | None:
    """Narrow opaque persisted JSON to a `WebMeta`; `None` when anything is off. Never raises."""
    if not isinstance(meta, dict):
        return None
    url, status, truncated = meta.get("url"), meta.get("statusCode"), meta.get("truncated")
    if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
        return None
    if not _is_int(status) or not 100 <= status <= 599 or not isinstance(truncated, bool):
        return None
    size = meta.get("bytes")
    if size is not None and (not _is_int(size) or size < 0):
        return None
    texts: dict[str, str | None] = {}
    for key in ("contentType", "title", "redirect"):
        value = meta.get(key)
        if value is not None and not isinstance(value, str):
            return None
        texts[key] = value
    return WebMeta(
        url=url,
        status_code=status,
        truncated=truncated,
        content_type=texts["contentType"],
        bytes=size,
        title=texts["title"],
        redirect=texts["redirect"],
    )


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
