"""Which MCP servers a session starts: from the ACP client, and from `mcp.json` files.

Servers are described with small types of their own (`StdioServer`, `HttpServer`,
`SseServer`), whichever way they came: an ACP client's are converted at the ACP edge, so
nothing here needs the ACP SDK. Files have the shape Claude Code reads:

    {"mcpServers": {
        "git": {"command": "uvx", "args": ["mcp-server-git"], "env": {"K": "V"}},
        "docs": {"type": "http", "url": "http://127.0.0.1:8000/mcp", "headers": {"A": "B"}}}}

`$TETHER_HOME/mcp.json` is the user's own; `.mcp.json` at the workspace root is the project's,
whose servers start only once the user approved them for that workspace.

As in Claude Code, `${VAR}` and `${VAR:-default}` in `command`, `args`, `env`, `url` and
`headers` are taken from tether's environment (the default when VAR is unset or empty). A
server that names a variable which is unset and has no default is not started, and a notice
names the variable; the file's other servers are.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, assert_never

from tether.bounded import read_bounded_json
from tether.errors import McpSpecError, UnreadableFile
from tether.lazy import pattern

__all__ = [
    "PROJECT_FILE",
    "USER_FILE",
    "HttpServer",
    "McpSpec",
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
    written: str | None = field(default=None, compare=False)
    """What it runs as the file wrote it, before `${VAR}`s were replaced (`None`: the same)."""


@dataclass(frozen=True, kw_only=True)
class HttpServer:
    """A server reached over MCP's streamable HTTP."""

    type: Literal["http"] = "http"
    name: str
    url: str
    headers: Pairs = ()
    written: str | None = field(default=None, compare=False)
    """Its URL as the file wrote it, before `${VAR}`s were replaced (`None`: the same)."""


@dataclass(frozen=True, kw_only=True)
class SseServer:
    """A server reached over MCP's older HTTP with server-sent events."""

    type: Literal["sse"] = "sse"
    name: str
    url: str
    headers: Pairs = ()
    written: str | None = field(default=None, compare=False)
    """Its URL as the file wrote it, before `${VAR}`s were replaced (`None`: the same)."""


McpSpec = StdioServer | HttpServer | SseServer
"""One server to start."""

_NAME = pattern(r"[A-Za-z0-9_-]{1,64}")
_VARIABLE = pattern(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def spec_name(name: str, where: str) -> str:
    """`name` when it can be part of a tool name (`mcp__NAME__TOOL`); else `McpSpecError`."""
    if not _NAME.fullmatch(name) or "__" in name:
        raise McpSpecError(
            f"{where}: MCP server name {name!r} must be letters, digits, '-' or '_' "
            "(no double underscore), at most 64"
        )
    return name


def read_specs(
    path: Path, environ: Mapping[str, str] | None = None
) -> tuple[list[McpSpec], list[str]]:
    """The servers a config file names (none when it does not exist), and a notice for each
    server left out because a `${VAR}` it names is unset; `McpSpecError` if the file is bad.
    Variables come from `environ` (default: tether's environment)."""
    try:
        # A workspace's file: a FIFO, a device or a million brackets must not hang or crash us.
        data = read_bounded_json(path)
    except FileNotFoundError:
        return [], []
    except UnreadableFile as exc:
        raise McpSpecError(f"cannot be read: {exc}") from exc
    except OSError as exc:
        raise McpSpecError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise McpSpecError(f'{path}: expected {{"mcpServers": {{NAME: {{...}}}}}}')
    variables = os.environ if environ is None else environ
    specs: list[McpSpec] = []
    notices: list[str] = []
    for name, entry in servers.items():
        where = f"{path}: {name}"
        spec = _spec(name, entry, where)
        try:
            specs.append(_expanded(spec, variables, where))
        except _Unset as exc:
            names = ", ".join(f"${{{n}}}" for n in exc.names)
            plural = "s are" if len(exc.names) > 1 else " is"
            notices.append(
                f"MCP server {name} ({path}) was not started: the "
                f"variable{plural} not set and {'have' if len(exc.names) > 1 else 'has'} no "
                f"default: {names}"
            )
    return specs, notices


class _Unset(Exception):
    """Variables a server names that are unset and have no default."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


def _expanded(spec: McpSpec, environ: Mapping[str, str], where: str) -> McpSpec:
    """`spec` with its `${VAR}` and `${VAR:-default}` replaced; `_Unset` naming every
    variable that has no value."""
    if not any(_VARIABLE.search(text) for text in _texts(spec)):
        return spec
    missing: list[str] = []

    def expand(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            value = environ.get(match[1])
            if value:
                return value
            if match[2] is not None:
                return match[2]
            if value is None and match[1] not in missing:
                missing.append(match[1])
            return value or ""

        return _VARIABLE.sub(one, text)

    def pairs(items: Pairs) -> Pairs:
        return tuple((key, expand(value)) for key, value in items)

    written = describe_spec(spec)
    match spec:
        case StdioServer(command=command, args=args, env=env):
            done: McpSpec = StdioServer(
                name=spec.name,
                command=expand(command),
                args=tuple(expand(a) for a in args),
                env=pairs(env),
                written=written,
            )
        case HttpServer(url=url, headers=headers):
            done = HttpServer(name=spec.name, url=expand(url), headers=pairs(headers), written=url)
        case SseServer(url=url, headers=headers):
            done = SseServer(name=spec.name, url=expand(url), headers=pairs(headers), written=url)
        case _:
            assert_never(spec)
    if missing:
        raise _Unset(missing)
    if isinstance(done, HttpServer | SseServer) and not done.url.startswith(
        ("http://", "https://")
    ):
        raise McpSpecError(f"{where}: `url` {done.written!r} is not an http:// or https:// URL")
    return done


def _texts(spec: McpSpec) -> list[str]:
    """Every value of `spec` where a `${VAR}` is replaced."""
    match spec:
        case StdioServer(command=command, args=args, env=env):
            return [command, *args, *(value for _, value in env)]
        case HttpServer(url=url, headers=headers) | SseServer(url=url, headers=headers):
            return [url, *(value for _, value in headers)]
        case _:
            assert_never(spec)


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
        # A variable may give the scheme (`${BASE_URL}/mcp`): checked once it is replaced.
        if not isinstance(url, str) or not (
            url.startswith(("http://", "https://")) or url.startswith("${")
        ):
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
    """What a server runs, as a person reads it: `uvx mcp-server-git` or `http URL`; as the
    file wrote it when `${VAR}`s were replaced (so a secret's value is not shown)."""
    if spec.written is not None:
        return spec.written if isinstance(spec, StdioServer) else f"{spec.type} {spec.written}"
    match spec:
        case StdioServer(command=command, args=args):
            return shlex.join([command, *args])
        case HttpServer(url=url) | SseServer(url=url):
            return f"{spec.type} {url}"
        case _:
            assert_never(spec)
