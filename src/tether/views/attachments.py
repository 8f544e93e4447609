"""What a generic result holds besides its text: images, links to resources, embedded ones.

An MCP tool may answer with more than text. Its generic card keeps the text in `content`
(what any client shows) and lists the rest here, in the order the server gave them, so each
surface can show them: ACP as standard content blocks, the web page inline, the terminal by
type and size. An image's data is not repeated in the card: it is in the result's content
(what the model saw), and the n-th image attachment is the result's n-th image.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, Strict, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.wire import DEFERRED, WIRE_CONFIG, Opt

__all__ = [
    "ATTACHMENTS",
    "Attachment",
    "ImageAttachment",
    "LinkAttachment",
    "ResourceAttachment",
]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ImageAttachment:
    """An image the model saw: its type and size (its data is the result's n-th image)."""

    type: Literal["image"] = "image"
    mime_type: str
    bytes: Annotated[int, Strict()]
    """The decoded size."""
    uri: Opt[str] = None
    """Where the server said it came from (an embedded resource's); never fetched."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class LinkAttachment:
    """A resource the result points to, not fetched: its URI, name and what the server says."""

    type: Literal["resource_link"] = "resource_link"
    uri: str
    name: str
    title: Opt[str] = None
    description: Opt[str] = None
    mime_type: Opt[str] = None
    size: Opt[Annotated[int, Strict()]] = None
    """The size the server states, in bytes."""


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ResourceAttachment:
    """A resource embedded in the result: its text, or (binary, not kept) its type and size."""

    type: Literal["resource"] = "resource"
    uri: str
    bytes: Annotated[int, Strict()]
    """The size of its text (UTF-8) or of its decoded data."""
    mime_type: Opt[str] = None
    text: Opt[str] = None
    """The resource's text; absent for binary content, which is not kept."""


Attachment = Annotated[
    ImageAttachment | LinkAttachment | ResourceAttachment, Field(discriminator="type")
]
ATTACHMENTS: TypeAdapter[tuple[Attachment, ...]] = TypeAdapter(
    tuple[Attachment, ...], config=DEFERRED
)
"""Validates and serializes a result's attachments (stored as a tool's meta)."""
