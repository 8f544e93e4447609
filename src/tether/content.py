"""Model-facing content blocks: what a tool result says to the model and on the wire."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.wire import DEFERRED, WIRE_CONFIG

__all__ = ["CONTENT_BLOCK", "ContentBlock", "ImageContent", "TextContent", "context_block"]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class TextContent:
    """Plain text for the model."""

    type: Literal["text"] = "text"
    text: str


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ImageContent:
    """An image for the model: base64 `data` and its MIME type."""

    type: Literal["image"] = "image"
    data: str
    mime_type: str


ContentBlock = Annotated[TextContent | ImageContent, Field(discriminator="type")]
CONTENT_BLOCK: TypeAdapter[ContentBlock] = TypeAdapter(ContentBlock, config=DEFERRED)
"""Validates and serializes one content block."""


def context_block(uri: str, text: str) -> TextContent:
    """A file sent with a prompt, as the model reads it: `<context ref="URI">TEXT</context>`."""
    body = text if text.endswith("\n") else text + "\n"
    return TextContent(text=f'<context ref="{_attribute(uri)}">\n{body}</context>')


def _attribute(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
