"""Which MCP servers a session starts: from the ACP client, and from `mcp.json` files.

Servers are described with small types of their own (`StdioServer`, `HttpServer`,
`SseServer`), whichever way they came: an ACP client's are converted at the ACP edge, so
nothing here needs the ACP SDK. Files have the shape Claude Code reads:

    {"mcpServers": {
        "git": {"command": "uvx", "args": ["mcp-server-git"], "env": {"K": "V"}},
        "docs": {"type": "http", "url": "http://127.0.0.1:8000/mcp", "headers": {"A": "B"}}}}

`$TETHER_HOME/mcp.json` is the user's own; `.mcp.json` at the workspace root is the project's,
whose servers start only once the user approved them for that workspace.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, assert_never

from tether.bounded import UnreadableFile, read_bounded_json

__all__ = [
    "PROJECT_FILE",
    "USER_FILE",
    "HttpServer",
    "McpSpec",
    "McpSpecError",
    "SseServer",
    "StdioServer",
    "describe_spec",
    "read_specs",
    "spec_name",
]

PROJECT_FILE = ".mcp.json"
USER_FILE = "mcp.json"

Pairs = tuple[tuple[str, str], ...]
"""Names and values in order: a server's environment, an endpoint's headers."""


@dataclass(frozen=True, kw_only=True)
class StdioServer:
    """A server started as a child process, speaking MCP on its stdin and stdout."""

    type: Literal["stdio"] = "stdio"
    name: str
    command: str
    args: tuple[str, ...] = ()
    env: Pairs = ()


@dataclass(frozen=True, kw_only=True)
class HttpServer:
    """A server reached over MCP's streamable HTTP."""

    type: Literal["http"] = "http"
    name: str
    url: str
    headers: Pairs = ()


@dataclass(frozen=True, kw_only=True)
class SseServer:
    """A server reached over MCP's older HTTP with server-sent events."""

    type: Literal["sse"] = "sse"
    name: str
    url: str
    headers: Pairs = ()


McpSpec = StdioServer | HttpServer | SseServer
"""One server to start."""

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
        return StdioServer(
            name=name,
            command=command,
            args=tuple(args),
            env=tuple(_strings(env, "env", where).items()),
        )
    if kind in ("http", "sse"):
        url = entry.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise McpSpecError(f"{where}: `url` must be an http:// or https:// URL")
        headers = tuple(_strings(entry.get("headers", {}), "headers", where).items())
        if kind == "http":
            return HttpServer(name=name, url=url, headers=headers)
        return SseServer(name=name, url=url, headers=headers)
    raise McpSpecError(f"{where}: `type` must be stdio, http or sse (or give a `command`)")


def _strings(value: Any, field: str, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise McpSpecError(f"{where}: `{field}` must map names to strings")
    return value


def describe_spec(spec: McpSpec) -> str:
    """What a server runs, as a person reads it: `uvx mcp-server-git` or `http URL`."""
    match spec:
        case StdioServer(command=command, args=args):
            return shlex.join([command, *args])
        case HttpServer(url=url) | SseServer(url=url):
            return f"{spec.type} {url}"
        case _:
            assert_never(spec)
