"""An MCP server written with the official `mcp` SDK, for tether's tests.

python sample_server.py stdio
python sample_server.py http PORT     # streamable HTTP on 127.0.0.1:PORT/mcp
python sample_server.py sse PORT      # SSE on 127.0.0.1:PORT/sse
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from mcp_types import (
    CallToolResult,
    EmbeddedResource,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)

server = MCPServer("sample")


@server.tool(title="Add numbers", annotations=ToolAnnotations(read_only_hint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool(annotations=ToolAnnotations(open_world_hint=True, read_only_hint=False))
def write_note(text: str) -> str:
    """Append a line to notes.txt in the server's working directory."""
    with Path("notes.txt").open("a") as notes:
        notes.write(text + "\n")
    return f"noted: {text}"


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the reason given."""
    raise ToolError(f"refusing: {reason}")


@server.tool()
def picture() -> Image:
    """A one-pixel PNG."""
    return Image(data=PNG, format="png")


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def document() -> CallToolResult:
    """A short text, an embedded text resource and a link to another one."""
    return CallToolResult(
        content=[
            TextContent(type="text", text="Here is the README."),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(
                    uri="file:///project/README.md", mime_type="text/markdown", text="# Project\n"
                ),
            ),
            ResourceLink(
                type="resource_link",
                uri="https://example.invalid/logo.png",
                name="logo.png",
                mime_type="image/png",
                size=2048,
            ),
        ]
    )


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def stats() -> CallToolResult:
    """Structured content only, no text."""
    return CallToolResult(content=[], structured_content={"files": 3, "lines": {"py": 120}})


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool()
def crash() -> str:
    """The server dies in the middle of the call."""
    sys.stderr.write("sample server: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


if __name__ == "__main__":
    sys.stderr.write("sample server starting\n")
    sys.stderr.flush()
    transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if transport == "stdio":
        server.run("stdio")
    elif transport == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("sse", host="127.0.0.1", port=int(sys.argv[2]))
