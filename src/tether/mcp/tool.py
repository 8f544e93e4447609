"""An MCP server's tool as a tether tool: `mcp__SERVER__TOOL`, with the server's input schema.

Results map MCP content to ours (`tether.mcp.answer`): the model sees text and images, the
card the text and the images and resources as attachments. `isError` is an error result.
The card is generic (`tether.mcp.presenter`): titled by the tool's title (else its name) and
its server, kind `read` for a `readOnlyHint` tool, `fetch` for an `openWorldHint` one, else
`other`; what it is made of (`McpCard`) is logged with each call, for replays without the server.
"""

from __future__ import annotations

from typing import Any, ClassVar

import mcp_types
from pydantic import JsonValue

from tether.content import ContentBlock, TextContent
from tether.errors import McpServerError, ToolError
from tether.mcp.answer import McpAnswer, mcp_answer
from tether.mcp.card import McpCard, tool_name
from tether.mcp.connection import McpConnection
from tether.mcp.presenter import McpArgs, McpPresenter
from tether.tools.access import McpAccess
from tether.tools.context import ToolContext

__all__ = ["McpTool", "mcp_tool"]


class McpTool(McpPresenter[McpAnswer]):
    """Calls one tool of one running MCP server (one subclass per tool, see `mcp_tool`)."""

    name: ClassVar[str]
    description: ClassVar[str]
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

    async def execute(self, args: McpArgs, ctx: ToolContext) -> McpAnswer:
        """Ask the policy (unless read-only), call the server, map its answer."""
        await ctx.authorize(
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
        answer = mcp_answer(result)
        if answer.is_error:
            text = "\n".join(b.text for b in answer.content if isinstance(b, TextContent))
            raise ToolError(f"{self.name} failed: {text or 'the server gave no reason'}")
        return answer

    def render(self, args: McpArgs, value: McpAnswer) -> list[ContentBlock]:
        """What the server answered, as our content blocks."""
        return value.content or [TextContent(text="(no output)")]

    def presentation_meta(self, args: McpArgs, value: McpAnswer) -> JsonValue:
        """`{text, attachments}` when the answer holds more than text, else nothing."""
        return value.meta()

    @property
    def card(self) -> McpCard:
        """The tool's title (else its name), its server and its kind from the server's hints."""
        hints = self.spec.annotations
        title = self.spec.title or (hints.title if hints else None) or self.spec.name
        return McpCard(server=self.connection.name, title=title, kind=_kind(hints))


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


def _kind(hints: mcp_types.ToolAnnotations | None) -> str:
    if hints is not None and hints.read_only_hint:
        return "read"
    if hints is not None and hints.open_world_hint:
        return "fetch"
    return "other"
