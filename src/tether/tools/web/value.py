"""What a fetch produced: the model-facing text and what the card shows beside it."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import JsonValue

__all__ = ["WebFetchValue"]


@dataclass(frozen=True)
class WebFetchValue:
    """A fetch's outcome: the model-facing text and what the card shows beside it."""

    text: str
    url: str
    status: int
    content_type: str
    truncated: bool
    size: int
    title: str | None = None
    redirect: str | None = None
    prompt: str | None = None
    """The question the call asked of the page; `text` is then the answer."""
    page: str | None = None
    """The page as markdown, when `text` is an answer: kept for the card."""

    def meta(self) -> JsonValue:
        """`{url, statusCode, truncated, contentType, bytes, title?, redirect?}`."""
        meta: dict[str, JsonValue] = {
            "url": self.url,
            "statusCode": self.status,
            "truncated": self.truncated,
            "contentType": self.content_type,
            "bytes": self.size,
        }
        if self.title is not None:
            meta["title"] = self.title
        if self.redirect is not None:
            meta["redirect"] = self.redirect
        if self.prompt is not None:
            meta["prompt"] = self.prompt
        if self.page is not None:
            meta["page"] = self.page
        return meta
