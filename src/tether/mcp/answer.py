"""An MCP tool's answer as tether keeps it: what the model sees, and what its card shows.

| MCP content                 | the model sees                         | the card shows            |
|-----------------------------|----------------------------------------|---------------------------|
| text                        | the text                               | the text                  |
| image                       | the image                              | an image attachment       |
| audio                       | `[audio TYPE omitted]`                 | that note                 |
| resource link               | `[name](uri)`                          | a link attachment         |
| embedded text resource      | `<resource uri=…>TEXT</resource>`      | a resource with its text  |
| embedded image blob         | the image                              | an image attachment       |
| embedded other blob         | `[resource URI (TYPE) omitted]`        | a resource, type and size |
| structured content, no text | pretty JSON text                       | that text                 |

The card's text is the answer's text items only (a resource's text is in its attachment,
not repeated), and the attachments keep the server's order.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

import mcp_types
from pydantic import JsonValue

from tether.content import ContentBlock, ImageContent, TextContent
from tether.views import (
    ATTACHMENTS,
    Attachment,
    ImageAttachment,
    LinkAttachment,
    ResourceAttachment,
)

__all__ = ["McpAnswer", "mcp_answer"]

STRUCTURED_CHARS = 30_000
"""Structured content shown as text is cut to this many characters."""


@dataclass(frozen=True)
class McpAnswer:
    """What a server answered a call with, mapped once for the model and for the card."""

    content: list[ContentBlock]
    """What the model sees."""
    text: str
    """The card's text: the answer's own text (or its structured content as JSON)."""
    attachments: tuple[Attachment, ...]
    """What the card shows besides text, in the server's order."""
    is_error: bool

    def meta(self) -> JsonValue:
        """The stored projection the card is drawn from; `None` for a text-only answer."""
        if not self.attachments:
            return None
        parts = ATTACHMENTS.dump_python(self.attachments, mode="json", by_alias=True)
        return {"text": self.text, "attachments": parts}


def mcp_answer(result: mcp_types.CallToolResult) -> McpAnswer:
    """Map one `CallToolResult`."""
    blocks: list[ContentBlock] = []
    texts: list[str] = []
    attachments: list[Attachment] = []
    for item in result.content:
        match item:
            case mcp_types.TextContent(text=text):
                blocks.append(TextContent(text=text))
                texts.append(text)
            case mcp_types.ImageContent(data=data, mime_type=mime_type):
                blocks.append(ImageContent(data=data, mime_type=mime_type))
                attachments.append(ImageAttachment(mime_type=mime_type, bytes=_decoded_size(data)))
            case mcp_types.AudioContent(mime_type=mime_type):
                note = f"[audio {mime_type} omitted]"
                blocks.append(TextContent(text=note))
                texts.append(note)
            case mcp_types.ResourceLink():
                blocks.append(TextContent(text=f"[{item.name}]({item.uri})"))
                attachments.append(
                    LinkAttachment(
                        uri=str(item.uri),
                        name=item.name,
                        title=item.title,
                        description=item.description,
                        mime_type=item.mime_type,
                        size=item.size,
                    )
                )
            case mcp_types.EmbeddedResource(resource=mcp_types.TextResourceContents() as res):
                uri = str(res.uri)
                blocks.append(TextContent(text=f'<resource uri="{uri}">\n{res.text}\n</resource>'))
                size = len(res.text.encode("utf-8", "surrogatepass"))
                attachments.append(
                    ResourceAttachment(uri=uri, mime_type=res.mime_type, bytes=size, text=res.text)
                )
            case mcp_types.EmbeddedResource(resource=mcp_types.BlobResourceContents() as res):
                uri, mime = str(res.uri), res.mime_type
                size = _decoded_size(res.blob)
                if (mime or "").startswith("image/"):
                    blocks.append(ImageContent(data=res.blob, mime_type=mime or ""))
                    attachments.append(ImageAttachment(mime_type=mime or "", bytes=size, uri=uri))
                else:
                    note = f"[resource {uri} ({mime or 'binary'}) omitted]"
                    blocks.append(TextContent(text=note))
                    attachments.append(ResourceAttachment(uri=uri, mime_type=mime, bytes=size))
            case _:
                note = f"[{getattr(item, 'type', 'content')} omitted]"
                blocks.append(TextContent(text=note))
                texts.append(note)
    if result.structured_content is not None and not texts:
        # What a server returns only as data is shown as data, readable.
        text = json.dumps(result.structured_content, ensure_ascii=False, indent=2)
        blocks.append(TextContent(text=text[:STRUCTURED_CHARS]))
        texts.append(text[:STRUCTURED_CHARS])
    return McpAnswer(blocks, "\n".join(texts), tuple(attachments), bool(result.is_error))


def _decoded_size(data: str) -> int:
    """The size of base64 `data` once decoded (0 when it is not base64)."""
    try:
        return len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return 0
