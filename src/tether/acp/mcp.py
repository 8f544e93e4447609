"""A session's MCP servers over ACP: the client's and the user's start with the session; the
project's (`.mcp.json`) once the person approves them for the workspace, asked at the first
prompt (the client knows the session by then).

The client's `mcpServers` come in the ACP SDK's types; they become tether's own specs here,
at the edge, so nothing below `acp/` needs the SDK."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, assert_never

from acp import text_block, tool_content
from acp.interfaces import Client
from acp.schema import (
    AcpMcpServer,
    AllowedOutcome,
    HttpMcpServer,
    McpServerStdio,
    PermissionOption,
    SseMcpServer,
    ToolCallUpdate,
)

from tether.mcp import (
    Approvals,
    HttpServer,
    McpSpec,
    SseServer,
    StdioServer,
    describe_spec,
    gather,
)
from tether.mcp.preapproval import ProjectChoices
from tether.session import Session
from tether.settings.effective import tool_env

if TYPE_CHECKING:
    from tether.mcp.servers import McpServers

__all__ = ["APPROVAL_CALL", "ClientServer", "SessionMcp", "client_specs"]

ClientServer = HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio
"""What an ACP client may name in `mcpServers`."""

APPROVAL_CALL = "mcp-approval"
"""The `toolCallId` of the request that asks to start a project's servers."""

Notify = Callable[[str], None]


def client_specs(servers: Sequence[ClientServer]) -> tuple[list[McpSpec], list[str]]:
    """The specs of a client's servers, and a notice for each that cannot be started."""
    specs: list[McpSpec] = []
    notices: list[str] = []
    for server in servers:
        match server:
            case McpServerStdio():
                env = tuple((v.name, v.value) for v in server.env)
                specs.append(
                    StdioServer(
                        name=server.name, command=server.command, args=tuple(server.args), env=env
                    )
                )
            case HttpMcpServer(name=name, url=url):
                headers = tuple((h.name, h.value) for h in server.headers)
                specs.append(HttpServer(name=name, url=url, headers=headers))
            case SseMcpServer(name=name, url=url):
                headers = tuple((h.name, h.value) for h in server.headers)
                specs.append(SseServer(name=name, url=url, headers=headers))
            case AcpMcpServer(name=name):
                notices.append(f"MCP server {name}: the acp transport is not supported")
            case _:
                assert_never(server)
    return specs, notices


class SessionMcp:
    """The MCP servers of one open session."""

    def __init__(self, home: Path, project: Sequence[McpSpec]) -> None:
        self._home = home
        self._project = list(project)
        self._running: list[McpServers] = []

    @classmethod
    async def start(
        cls, session: Session, home: Path, client: Sequence[ClientServer], notify: Notify
    ) -> SessionMcp:
        """Start the client's and the user's servers and offer their tools to the session."""
        specs, notices = client_specs(client)
        settings = session.gate.settings
        env = tool_env(settings) if settings is not None else None
        sources = gather(session.cwd, home, specs, env)
        for notice in [*notices, *sources.notices]:
            notify(notice)
        mcp = cls(home, sources.project)
        await mcp._launch(session, sources.trusted, notify)
        return mcp

    async def before_prompt(self, session: Session, client: Client, notify: Notify) -> None:
        """Start the project's servers once: approved before, or approved now."""
        if not self._project:
            return
        specs, self._project = self._project, []
        choices = ProjectChoices.of(session.gate.settings)
        specs, kept_stopped = choices.without_disabled(specs, session.cwd)
        for notice in kept_stopped:
            notify(notice)
        if not specs:
            return
        approvals = Approvals(self._home)
        by_settings = choices.started_unasked(specs, session.cwd, approvals)
        if by_settings is not None:
            notify(by_settings)
        state = approvals.state(session.cwd, specs)
        if state != "approved":
            decision = await _ask(client, session.id, specs, changed=state == "changed")
            if decision == "reject":
                notify(f"MCP servers of {session.cwd / '.mcp.json'} were not started")
                return
            if decision == "allow_always":
                approvals.approve(session.cwd, specs)
        await self._launch(session, specs, notify)

    async def close(self) -> None:
        """Stop every server of the session."""
        for servers in self._running:
            await servers.close()
        self._running.clear()

    async def _launch(self, session: Session, specs: Sequence[McpSpec], notify: Notify) -> None:
        if not specs:
            return
        from tether.mcp.servers import McpServers  # the SDK, only when there are servers

        servers = await McpServers.start(specs, session.cwd)
        self._running.append(servers)
        for notice in servers.notices:
            notify(notice)
        for tool in servers.tools():
            if session.tools.get(tool.name) is None:
                session.tools.add(tool)


async def _ask(client: Client, session_id: str, specs: Sequence[McpSpec], *, changed: bool) -> str:
    what = "\n".join(f"- {s.name}: {describe_spec(s)}" for s in specs)
    since = " (changed since they were approved)" if changed else ""
    response = await client.request_permission(
        session_id=session_id,
        tool_call=ToolCallUpdate(
            tool_call_id=APPROVAL_CALL,
            title="Start the MCP servers of this workspace's .mcp.json",
            kind="execute",
            status="pending",
            content=[tool_content(text_block(f"The project configures{since}:\n{what}"))],
        ),
        options=[
            PermissionOption(
                option_id="allow_always",
                name="Allow in this workspace until they change",
                kind="allow_always",
            ),
            PermissionOption(option_id="allow_once", name="Allow this time", kind="allow_once"),
            PermissionOption(option_id="reject_once", name="Do not start them", kind="reject_once"),
        ],
    )
    outcome = response.outcome
    if isinstance(outcome, AllowedOutcome) and outcome.option_id in ("allow_always", "allow_once"):
        return outcome.option_id
    return "reject"
