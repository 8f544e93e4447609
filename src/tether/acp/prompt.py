"""ACP prompt blocks as tether content: text and images as they are, resources as text.

The blocks as sent are kept too (`shown_blocks`), so `session/load` shows the person's
resource links and embedded files again rather than the text the model saw.

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
from tether.content import ContentBlock, ImageContent, TextContent, context_block
from tether.session.log.shown import EmbeddedResource, ResourceLink, ShownBlock

__all__ = ["PromptBlock", "acp_resource", "prompt_content", "shown_blocks"]

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


def shown_blocks(blocks: Sequence[PromptBlock], *, always: bool = False) -> list[ShownBlock] | None:
    """The prompt as sent, when it holds resources or `always` (a command was expanded)."""
    shown: list[ShownBlock] = []
    for block in blocks:
        match block:
            case TextContentBlock(text=text):
                shown.append(TextContent(text=text))
            case ImageContentBlock(data=data, mime_type=mime_type):
                shown.append(ImageContent(data=data, mime_type=mime_type))
            case ResourceContentBlock(name=name, uri=uri, mime_type=mime_type):
                shown.append(ResourceLink(uri=uri, name=name, mime_type=mime_type))
            case EmbeddedResourceContentBlock(resource=resource):
                shown.append(_shown_resource(resource))
            case AudioContentBlock():
                return None  # refused by `prompt_content`
            case _:
                assert_never(block)
    if not always and all(isinstance(b, TextContent | ImageContent) for b in shown):
        return None
    return shown


def _shown_resource(resource: TextResourceContents | BlobResourceContents) -> EmbeddedResource:
    match resource:
        case TextResourceContents(uri=uri, mime_type=mime_type, text=text):
            return EmbeddedResource(uri=uri, mime_type=mime_type, text=text)
        case BlobResourceContents(uri=uri, mime_type=mime_type, blob=blob):
            return EmbeddedResource(uri=uri, mime_type=mime_type, blob=blob)
        case _:
            assert_never(resource)


def acp_resource(
    block: ResourceLink | EmbeddedResource,
) -> ResourceContentBlock | EmbeddedResourceContentBlock:
    """A shown resource as the ACP block it came as."""
    match block:
        case ResourceLink(uri=uri, name=name, mime_type=mime_type):
            return ResourceContentBlock(
                type="resource_link", uri=uri, name=name, mime_type=mime_type
            )
        case EmbeddedResource(uri=uri, mime_type=mime_type, blob=str() as blob):
            return EmbeddedResourceContentBlock(
                type="resource",
                resource=BlobResourceContents(uri=uri, mime_type=mime_type, blob=blob),
            )
        case EmbeddedResource(uri=uri, mime_type=mime_type, text=text):
            return EmbeddedResourceContentBlock(
                type="resource",
                resource=TextResourceContents(uri=uri, mime_type=mime_type, text=text or ""),
            )
        case _:
            assert_never(block)


def _embedded(resource: TextResourceContents | BlobResourceContents, index: int) -> ContentBlock:
    match resource:
        case TextResourceContents(uri=uri, text=text):
            return context_block(uri, text)
        case BlobResourceContents(blob=blob, mime_type=mime_type) if (mime_type or "").startswith(
            "image/"
        ):
            return ImageContent(data=blob, mime_type=mime_type or "")
        case BlobResourceContents(uri=uri, mime_type=mime_type):
            what = mime_type or "unknown type"
            raise _unsupported(index, f"binary resources ({what}) are not supported: {uri}")
        case _:
            assert_never(resource)


def _unsupported(index: int, message: str) -> RequestError:
    return invalid_params(f"Prompt block {index}: {message}", {"index": index})
