"""MCP servers for a session: from the ACP client and from `mcp.json` files, via the `mcp` SDK.

sources = gather(cwd, home, client_servers)     # what is configured (no SDK import yet)
servers = await McpServers.start(specs, cwd)    # `tether.mcp.servers`; failures: `.notices`
session.tools.add(...) for servers.tools()      # mcp__SERVER__TOOL
await servers.close()

The SDK is imported by `tether.mcp.servers` only, so sessions without servers never load it.
"""

from tether.mcp.approval import Approvals
from tether.mcp.sources import ClientServer, McpSources, gather
from tether.mcp.specs import (
    PROJECT_FILE,
    USER_FILE,
    McpSpec,
    McpSpecError,
    describe_spec,
    read_specs,
)

__all__ = [
    "PROJECT_FILE",
    "USER_FILE",
    "Approvals",
    "ClientServer",
    "McpSources",
    "McpSpec",
    "McpSpecError",
    "describe_spec",
    "gather",
    "read_specs",
]
