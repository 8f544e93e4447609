"""What Claude Code's settings say about the servers of a project's `.mcp.json`.

`disabledMcpjsonServers` keeps the servers it names stopped, trusted workspace or not (it
only restricts). `enableAllProjectMcpServers` and `enabledMcpjsonServers` count as the
person's approval, in a trusted workspace only (`tether.settings` withholds them before):
when they cover every server of the file and it was never approved, the servers start
without asking and the approval is recorded, so that a later change to a server, or to a
file its command line names, asks again as any approval does. When they cover only some,
or the servers changed since, the person is asked as usual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tether.mcp.approval import Approvals
from tether.mcp.specs import PROJECT_FILE, McpSpec
from tether.settings import Settings

__all__ = ["ProjectChoices"]


@dataclass(frozen=True)
class ProjectChoices:
    """The settings' word on a project's servers: which may start unasked, which never."""

    enable_all: str | None = None
    """The file whose `enableAllProjectMcpServers: true` applies (`None`: none)."""
    enabled: dict[str, str] = field(default_factory=dict)
    """Server name -> the file whose `enabledMcpjsonServers` names it."""
    disabled: dict[str, str] = field(default_factory=dict)
    """Server name -> the file whose `disabledMcpjsonServers` names it."""

    @classmethod
    def of(cls, settings: Settings | None) -> ProjectChoices:
        """What `settings` say (nothing when there are none)."""
        if settings is None:
            return cls()
        choices = settings.mcpjson
        enable_all = choices.enable_all
        return cls(
            enable_all=str(enable_all.source) if enable_all and enable_all.value else None,
            enabled={e.value: str(e.source) for e in choices.enabled},
            disabled={d.value: str(d.source) for d in choices.disabled},
        )

    def without_disabled(
        self, specs: Sequence[McpSpec], workspace: Path
    ) -> tuple[list[McpSpec], list[str]]:
        """The servers that may start, and a notice for each the settings keep stopped."""
        kept: list[McpSpec] = []
        notices: list[str] = []
        for spec in specs:
            where = self.disabled.get(spec.name)
            if where is None:
                kept.append(spec)
            else:
                notices.append(
                    f"MCP server {spec.name} of {workspace / PROJECT_FILE} was not started: "
                    f"disabledMcpjsonServers in {where} names it"
                )
        return kept, notices

    def started_unasked(
        self, specs: Sequence[McpSpec], workspace: Path, approvals: Approvals
    ) -> str | None:
        """When the settings approve all of `specs`, never approved before: record the
        approval and say so (the notice); else `None`, and the person is asked."""
        if not specs or approvals.state(workspace, specs) != "new":
            return None
        if self.enable_all is not None:
            because = f"enableAllProjectMcpServers in {self.enable_all}"
        elif all(spec.name in self.enabled for spec in specs):
            files = dict.fromkeys(self.enabled[spec.name] for spec in specs)
            because = f"enabledMcpjsonServers in {', '.join(files)}"
        else:
            return None
        approvals.approve(workspace, specs)
        names = ", ".join(spec.name for spec in specs)
        return (
            f"MCP servers of {workspace / PROJECT_FILE} ({names}) approved by {because}; "
            "a change to them asks again"
        )
