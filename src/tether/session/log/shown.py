"""A prompt as the person sent it: the blocks a client shows again when the session is loaded.

The model sees resources as text (a `[@name](uri)` mention, a `<context>` block); a client
that loads the session should see the resource link or the embedded file it sent, so the log
keeps these blocks beside the model's content when they differ from it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from tether.content import ImageContent, TextContent
from tether.wire import DEFERRED, WIRE_CONFIG, Opt

__all__ = ["SHOWN_BLOCK", "EmbeddedResource", "ResourceLink", "ShownBlock"]


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class ResourceLink:
    """A reference to a file or URI the person mentioned."""

    type: Literal["resource_link"] = "resource_link"
    uri: str
    name: str
    mime_type: Opt[str] = None


@dataclass(frozen=True, kw_only=True, config=WIRE_CONFIG)
class EmbeddedResource:
    """A resource sent inline: its text, or its base64 `blob` (an image)."""

    type: Literal["resource"] = "resource"
    uri: str
    mime_type: Opt[str] = None
    text: Opt[str] = None
    blob: Opt[str] = None


ShownBlock = Annotated[
    TextContent | ImageContent | ResourceLink | EmbeddedResource, Field(discriminator="type")
]
"""One block of a prompt as the client sent it."""

SHOWN_BLOCK: TypeAdapter[ShownBlock] = TypeAdapter(ShownBlock, config=DEFERRED)
"""Validates and serializes one shown block."""
