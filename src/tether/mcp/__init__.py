"""MCP servers for a session: from a client and from `mcp.json` files, via the `mcp` SDK.

sources = gather(cwd, home, client_servers)     # what is configured (no SDK import yet)
servers = await McpServers.start(specs, cwd)    # `tether.mcp.servers`; failures: `.notices`
session.tools.add(...) for servers.tools()      # mcp__SERVER__TOOL
await servers.close()

The SDK is imported by `tether.mcp.servers` only, so sessions without servers never load it.
"""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.mcp.approval import Approvals
    from tether.mcp.sources import McpSources, gather
    from tether.mcp.specs import (
        PROJECT_FILE,
        USER_FILE,
        HttpServer,
        McpSpec,
        SseServer,
        StdioServer,
        describe_spec,
        read_specs,
    )

__all__ = [
    "PROJECT_FILE",
    "USER_FILE",
    "Approvals",
    "HttpServer",
    "McpSources",
    "McpSpec",
    "SseServer",
    "StdioServer",
    "describe_spec",
    "gather",
    "read_specs",
]

__getattr__ = lazy_names(
    __name__,
    {
        "Approvals": "tether.mcp.approval",
        "McpSources": "tether.mcp.sources",
        "gather": "tether.mcp.sources",
        "PROJECT_FILE": "tether.mcp.specs",
        "USER_FILE": "tether.mcp.specs",
        "HttpServer": "tether.mcp.specs",
        "McpSpec": "tether.mcp.specs",
        "SseServer": "tether.mcp.specs",
        "StdioServer": "tether.mcp.specs",
        "describe_spec": "tether.mcp.specs",
        "read_specs": "tether.mcp.specs",
    },
)
