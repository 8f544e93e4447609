"""An MCP server's tool as a tether tool: `mcp__SERVER__TOOL`, with the server's input schema.

Results map MCP content to ours: text stays text, images stay images, a resource link becomes
a `[name](uri)` mention, an embedded text resource its text (a blob, a note of its type),
audio a note, and structured content JSON text when nothing else says it. `isError` is an
error result. The card is generic: titled by the tool's title (else its name), kind `read`
for a `readOnlyHint` tool, `fetch` for an `openWorldHint` one, else `other`.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import mcp_types
from pydantic import BaseModel, ConfigDict, JsonValue

from tether.content import ContentBlock, ImageContent, TextContent
from tether.mcp.connection import McpConnection, McpServerError
from tether.tools.access import McpAccess
from tether.tools.base import Tool
from tether.tools.card_context import CardContext
from tether.tools.context import ToolContext
from tether.tools.errors import ToolError
from tether.views import GenericCallView, ToolKind

__all__ = ["McpArgs", "McpTool", "mcp_content", "mcp_tool", "tool_name"]

_STRUCTURED_CHARS = 30_000


class McpArgs(BaseModel):
    """Any JSON object: the server validates its own arguments against its schema."""

    model_config = ConfigDict(extra="allow")


def tool_name(server: str, tool: str) -> str:
    """The name the model calls a server's tool by."""
    return f"mcp__{server}__{tool}"


class McpTool(Tool[McpArgs, list[ContentBlock]]):
    """Calls one tool of one running MCP server (one subclass per tool, see `mcp_tool`)."""

    name: ClassVar[str]
    description: ClassVar[str]
    args_model: ClassVar[type[BaseModel]] = McpArgs
    connection: ClassVar[McpConnection]
    spec: ClassVar[mcp_types.Tool]

    def parameters_schema(self) -> dict[str, Any]:
        """The server's own input schema."""
        return dict(self.spec.input_schema)

    @property
    def read_only(self) -> bool:
        """Whether the server says the tool changes nothing (then no one is asked)."""
        hints = self.spec.annotations
        return bool(hints and hints.read_only_hint)

    def writes(self, args: McpArgs) -> tuple[str, ...] | None:
        """`()` for a read-only tool; else any file (what it does is the server's business)."""
        return () if self.read_only else None

    async def execute(self, args: McpArgs, ctx: ToolContext) -> list[ContentBlock]:
        """Ask the policy (unless read-only), call the server, map its answer."""
        await ctx.gate.authorize(
            McpAccess(
                tool=self.name,
                title=self.card_title,
                read_only=self.read_only,
                tool_call_id=ctx.tool_call_id,
            )
        )
        arguments = args.model_dump()
        try:
            result = await self.connection.call(self.spec.name, arguments)
        except McpServerError as exc:
            raise ToolError(str(exc)) from exc
        content = mcp_content(result)
        if result.is_error:
            text = "\n".join(b.text for b in content if isinstance(b, TextContent))
            raise ToolError(f"{self.name} failed: {text or 'the server gave no reason'}")
        return content

    def render(self, args: McpArgs, value: list[ContentBlock]) -> list[ContentBlock]:
        """What the server answered, as our content blocks."""
        return value or [TextContent(text="(no output)")]

    def presentation_meta(self, args: McpArgs, value: list[ContentBlock]) -> JsonValue:
        """Nothing beyond the content: the result card is the generic one."""
        return None

    @property
    def card_title(self) -> str:
        """The tool's title (else its name) and its server, as its cards and questions say."""
        hints = self.spec.annotations
        title = self.spec.title or (hints.title if hints else None) or self.spec.name
        return f"{title} ({self.connection.name})"

    def present_call(self, args: McpArgs, context: CardContext) -> GenericCallView:
        """A generic card titled by the tool, with its kind from the server's hints."""
        return GenericCallView(
            title=self.card_title, kind=_kind(self.spec.annotations), raw_input=args.model_dump()
        )


def mcp_tool(connection: McpConnection, spec: mcp_types.Tool) -> McpTool:
    """A tether tool for one tool of a running server."""
    name = tool_name(connection.name, spec.name)
    description = spec.description or spec.title or f"{spec.name} from MCP server {connection.name}"
    cls = type(
        f"McpTool[{name}]",
        (McpTool,),
        {"name": name, "description": description, "connection": connection, "spec": spec},
    )
    tool: McpTool = cls()
    return tool


def mcp_content(result: mcp_types.CallToolResult) -> list[ContentBlock]:
    """An MCP tool result's content as ours."""
    blocks: list[ContentBlock] = []
    for item in result.content:
        match item:
            case mcp_types.TextContent(text=text):
                blocks.append(TextContent(text=text))
            case mcp_types.ImageContent(data=data, mime_type=mime_type):
                blocks.append(ImageContent(data=data, mime_type=mime_type))
            case mcp_types.AudioContent(mime_type=mime_type):
                blocks.append(TextContent(text=f"[audio {mime_type} omitted]"))
            case mcp_types.ResourceLink(name=name, uri=uri):
                blocks.append(TextContent(text=f"[{name}]({uri})"))
            case mcp_types.EmbeddedResource(resource=mcp_types.TextResourceContents() as res):
                blocks.append(
                    TextContent(text=f'<resource uri="{res.uri}">\n{res.text}\n</resource>')
                )
            case mcp_types.EmbeddedResource(resource=mcp_types.BlobResourceContents() as res):
                if (res.mime_type or "").startswith("image/"):
                    blocks.append(ImageContent(data=res.blob, mime_type=res.mime_type or ""))
                else:
                    kind = res.mime_type or "binary"
                    blocks.append(TextContent(text=f"[resource {res.uri} ({kind}) omitted]"))
            case _:
                blocks.append(TextContent(text=f"[{getattr(item, 'type', 'content')} omitted]"))
    has_text = any(isinstance(b, TextContent) for b in blocks)
    if result.structured_content is not None and not has_text:
        text = json.dumps(result.structured_content, ensure_ascii=False, indent=2)
        blocks.append(TextContent(text=text[:_STRUCTURED_CHARS]))
    return blocks


def _kind(hints: mcp_types.ToolAnnotations | None) -> ToolKind:
    if hints is not None and hints.read_only_hint:
        return "read"
    if hints is not None and hints.open_world_hint:
        return "fetch"
    return "other"
