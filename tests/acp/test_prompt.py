"""ACP prompt blocks → tether content."""

from __future__ import annotations

import pytest
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

from tether.acp.prompt import prompt_content
from tether.content import ImageContent, TextContent


def test_text_images_links_and_embedded_text() -> None:
    blocks = [
        TextContentBlock(type="text", text="hi"),
        ImageContentBlock(type="image", data="AAAA", mime_type="image/png"),
        ResourceContentBlock(type="resource_link", name="a.py", uri="file:///w/a.py"),
        EmbeddedResourceContentBlock(
            type="resource",
            resource=TextResourceContents(uri='file:///w/"b".md', text="body\n"),
        ),
        EmbeddedResourceContentBlock(
            type="resource",
            resource=BlobResourceContents(
                uri="file:///w/c.png", blob="BBBB", mime_type="image/png"
            ),
        ),
    ]
    assert prompt_content(blocks) == [
        TextContent(text="hi"),
        ImageContent(data="AAAA", mime_type="image/png"),
        TextContent(text="[@a.py](file:///w/a.py)"),
        TextContent(text='<context ref="file:///w/&quot;b&quot;.md">\nbody\n</context>'),
        ImageContent(data="BBBB", mime_type="image/png"),
    ]


def test_unsupported_blocks_are_invalid_params() -> None:
    with pytest.raises(RequestError) as audio:
        prompt_content(
            [
                TextContentBlock(type="text", text="x"),
                AudioContentBlock(type="audio", data="AAAA", mime_type="audio/wav"),
            ]
        )
    assert (audio.value.code, str(audio.value)) == (
        -32602,
        "Prompt block 1: audio prompts are not supported",
    )
    blob = BlobResourceContents(uri="file:///w/x.bin", blob="AAAA", mime_type="application/zip")
    with pytest.raises(RequestError) as binary:
        prompt_content([EmbeddedResourceContentBlock(type="resource", resource=blob)])
    assert str(binary.value) == (
        "Prompt block 0: binary resources (application/zip) are not supported: file:///w/x.bin"
    )
    with pytest.raises(RequestError, match="The prompt is empty"):
        prompt_content([])
