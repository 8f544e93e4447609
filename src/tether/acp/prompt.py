"""ACP prompt blocks as tether content: text and images as they are, resources as text.

- text → text; image (base64 data) → image.
- `resource_link` → a text mention `[@NAME](URI)`, the way editors reference files.
- an embedded text resource → its text inside `<context ref="URI">…</context>`.
- an embedded blob resource with an image MIME type → an image; any other blob is refused.
- audio is refused (tether does not advertise audio prompts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from acp import RequestError
from acp.schema import (
    AudioContentBlock,
    BlobResourceContents,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from tether.acp.errors import invalid_params
from tether.content import ContentBlock, ImageContent, TextContent

__all__ = ["PromptBlock", "prompt_content"]

PromptBlock = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)
"""What a `session/prompt` may carry."""


def prompt_content(blocks: Sequence[PromptBlock]) -> list[ContentBlock]:
    """Our content blocks for an ACP prompt; unsupported blocks are an invalid-params error."""
    content: list[ContentBlock] = []
    for index, block in enumerate(blocks):
        match block:
            case TextContentBlock(text=text):
                content.append(TextContent(text=text))
            case ImageContentBlock(data=data, mime_type=mime_type):
                content.append(ImageContent(data=data, mime_type=mime_type))
            case ResourceContentBlock(name=name, uri=uri):
                content.append(TextContent(text=f"[@{name}]({uri})"))
            case EmbeddedResourceContentBlock(resource=resource):
                content.append(_embedded(resource, index))
            case AudioContentBlock():
                raise _unsupported(index, "audio prompts are not supported")
            case _:
                assert_never(block)
    if not content:
        raise invalid_params("The prompt is empty", {"prompt": []})
    return content


def _embedded(resource: TextResourceContents | BlobResourceContents, index: int) -> ContentBlock:
    match resource:
        case TextResourceContents(uri=uri, text=text):
            body = text if text.endswith("\n") else text + "\n"
            return TextContent(text=f'<context ref="{_attribute(uri)}">\n{body}</context>')
        case BlobResourceContents(blob=blob, mime_type=mime_type) if (mime_type or "").startswith(
            "image/"
        ):
            return ImageContent(data=blob, mime_type=mime_type or "")
        case BlobResourceContents(uri=uri, mime_type=mime_type):
            what = mime_type or "unknown type"
            raise _unsupported(index, f"binary resources ({what}) are not supported: {uri}")
        case _:
            assert_never(resource)


def _attribute(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _unsupported(index: int, message: str) -> RequestError:
    return invalid_params(f"Prompt block {index}: {message}", {"index": index})
