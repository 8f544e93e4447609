"""MCP servers for `tether run`: the user's start; the project's once approved at the terminal.

A project's servers are asked about in every mode (a sandboxed command or an accepted edit
could have written `.mcp.json`, and `auto` must not turn that into code running unconfined).
A headless run cannot ask, so it starts only those `--approve-mcp NAME` names (or all, when
they were approved before as they are now) and says why the others were skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from tether.mcp.servers import McpServers

from tether.mcp import PROJECT_FILE, Approvals, McpSpec, describe_spec, gather
from tether.mcp.preapproval import ProjectChoices
from tether.policy import (
    PermissionAsker,
    PermissionChoice,
    PermissionQuestion,
    ServerStart,
)
from tether.session import Session
from tether.settings.effective import tool_env

__all__ = ["CliMcp"]


@dataclass
class CliMcp:
    """How a run starts its MCP servers."""

    home: Path
    asker: PermissionAsker | None
    err: Console
    named: tuple[str, ...] = ()
    """Project servers approved for this run by name (`--approve-mcp`)."""

    async def start(self, session: Session) -> McpServers | None:
        """Start the servers the files name and offer their tools to the session."""
        settings = session.gate.settings
        env = tool_env(settings) if settings is not None else None
        sources = gather(session.cwd, self.home, env=env)
        notices = list(sources.notices)
        specs = list(sources.trusted)
        if sources.project:
            choices = ProjectChoices.of(session.gate.settings)
            specs += await self._approved(session.cwd, sources.project, notices, choices)
        for notice in notices:
            self.err.print(f"tether: {notice}", style="yellow", markup=False)
        if not specs:
            return None
        from tether.mcp.servers import McpServers  # the SDK, only when there are servers

        servers = await McpServers.start(specs, session.cwd)
        for notice in servers.notices:
            self.err.print(f"tether: {notice}", style="yellow", markup=False)
        for tool in servers.tools():
            if session.tools.get(tool.name) is None:
                session.tools.add(tool)
        return servers

    async def _approved(
        self, cwd: Path, specs: list[McpSpec], notices: list[str], choices: ProjectChoices
    ) -> list[McpSpec]:
        """The project servers that may start: approved as they are, by the settings, named,
        or allowed now; never one the settings disable."""
        configured = {s.name for s in specs}
        for name in self.named:
            if name not in configured:
                notices.append(f"--approve-mcp {name}: {cwd / PROJECT_FILE} has no such server")
        specs, kept_stopped = choices.without_disabled(specs, cwd)
        notices.extend(kept_stopped)
        if not specs:
            return []
        approvals = Approvals(self.home)
        by_settings = choices.started_unasked(specs, cwd, approvals)
        if by_settings is not None:
            notices.append(by_settings)
            return specs
        state = approvals.state(cwd, specs)
        if state == "approved":
            return specs
        named = [s for s in specs if s.name in self.named]
        others = [s for s in specs if s.name not in self.named]
        if not others:
            return named
        names = ", ".join(s.name for s in others)
        changed = " (changed since they were approved)" if state == "changed" else ""
        if self.asker is None:
            notices.append(
                f"MCP servers of {cwd / PROJECT_FILE}{changed} ({names}) were not started: "
                "approve them at a terminal, or name each with --approve-mcp NAME"
            )
            return named
        self.err.print(f"{cwd / PROJECT_FILE}{changed} configures:", markup=False)
        for spec in specs:
            self.err.print(f"  {spec.name}: {describe_spec(spec)}", markup=False)
        decision = await self.asker.ask(
            PermissionQuestion(
                subject=ServerStart(tuple(s.name for s in specs)),
                options=(
                    PermissionChoice("allow_once", "Allow this time"),
                    PermissionChoice("allow_always", "Allow in this workspace until they change"),
                    PermissionChoice("reject", "Do not start them"),
                ),
                reason="a project's servers run commands it chose, outside the sandbox",
            )
        )
        if decision == "allow_always":
            approvals.approve(cwd, specs)
        # Anything but an allow (a rejection, with or without words) keeps them stopped.
        return specs if decision in ("allow_once", "allow_always") else named
