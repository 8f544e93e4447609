"""Which MCP servers a session starts: from the ACP client, and from `mcp.json` files.

Servers are described with the ACP SDK's own types (`McpServerStdio`, `HttpMcpServer`,
`SseMcpServer`), whichever way they came. Files have the shape Claude Code reads:

    {"mcpServers": {
        "git": {"command": "uvx", "args": ["mcp-server-git"], "env": {"K": "V"}},
        "docs": {"type": "http", "url": "http://127.0.0.1:8000/mcp", "headers": {"A": "B"}}}}

`$TETHER_HOME/mcp.json` is the user's own; `.mcp.json` at the workspace root is the project's,
whose servers start only once the user approved them for that workspace.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from acp.schema import EnvVariable, HttpHeader, HttpMcpServer, McpServerStdio, SseMcpServer

from tether.bounded import UnreadableFile, read_bounded_json

__all__ = [
    "PROJECT_FILE",
    "USER_FILE",
    "McpSpec",
    "McpSpecError",
    "describe_spec",
    "read_specs",
    "spec_name",
]

PROJECT_FILE = ".mcp.json"
USER_FILE = "mcp.json"

McpSpec = McpServerStdio | HttpMcpServer | SseMcpServer
"""One server to start, as ACP describes it."""

_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


class McpSpecError(ValueError):
    """A config file or a server in it that cannot be used; the message names which."""


def spec_name(name: str, where: str) -> str:
    """`name` when it can be part of a tool name (`mcp__NAME__TOOL`); else `McpSpecError`."""
    if not _NAME.fullmatch(name) or "__" in name:
        raise McpSpecError(
            f"{where}: MCP server name {name!r} must be letters, digits, '-' or '_' "
            "(no double underscore), at most 64"
        )
    return name


def read_specs(path: Path) -> list[McpSpec]:
    """The servers a config file names (none when it does not exist); `McpSpecError` if bad."""
    try:
        # A workspace's file: a FIFO, a device or a million brackets must not hang or crash us.
        data = read_bounded_json(path)
    except FileNotFoundError:
        return []
    except UnreadableFile as exc:
        raise McpSpecError(f"cannot be read: {exc}") from exc
    except OSError as exc:
        raise McpSpecError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise McpSpecError(f'{path}: expected {{"mcpServers": {{NAME: {{...}}}}}}')
    return [_spec(name, entry, f"{path}: {name}") for name, entry in servers.items()]


def _spec(name: str, entry: Any, where: str) -> McpSpec:
    spec_name(name, where)
    if not isinstance(entry, dict):
        raise McpSpecError(f"{where}: expected an object")
    kind = entry.get("type", "stdio" if "command" in entry else None)
    if kind == "stdio":
        command, args, env = entry.get("command"), entry.get("args", []), entry.get("env", {})
        if not isinstance(command, str) or not command:
            raise McpSpecError(f"{where}: `command` must be a non-empty string")
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise McpSpecError(f"{where}: `args` must be a list of strings")
        return McpServerStdio(
            name=name,
            command=command,
            args=args,
            env=[EnvVariable(name=k, value=v) for k, v in _strings(env, "env", where).items()],
        )
    if kind in ("http", "sse"):
        url = entry.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise McpSpecError(f"{where}: `url` must be an http:// or https:// URL")
        headers = [
            HttpHeader(name=k, value=v)
            for k, v in _strings(entry.get("headers", {}), "headers", where).items()
        ]
        if kind == "http":
            return HttpMcpServer(type="http", name=name, url=url, headers=headers)
        return SseMcpServer(type="sse", name=name, url=url, headers=headers)
    raise McpSpecError(f"{where}: `type` must be stdio, http or sse (or give a `command`)")


def _strings(value: Any, field: str, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise McpSpecError(f"{where}: `{field}` must map names to strings")
    return value


def describe_spec(spec: McpSpec) -> str:
    """What a server runs, as a person reads it: `uvx mcp-server-git` or `http URL`."""
    if isinstance(spec, McpServerStdio):
        return shlex.join([spec.command, *spec.args])
    return f"{spec.type} {spec.url}"
