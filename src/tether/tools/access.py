"""What a tool asks before it touches something, and who answers.

An `Access` is one of seven kinds, each with only what the policy decides on; every kind
also has a `title` (the tool call's, for whoever is asked) and the `tool_call_id` asking,
so a client can show the request beside its card.

A `Gate` answers each: it returns how a person settled the access (`None` when no one was
asked) or raises `PermissionDenied`, whose `outcome` says whether a person refused it. What
`PreToolUse` hooks said of the call travels with it (`HookVerdict`), through the call's
`ToolContext`, which keeps the outcome for the call's result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from tether.errors import PermissionDenied
from tether.tools.outcome import PERMISSION_DECISIONS, PermissionDecision, PermissionOutcome
from tether.tools.planning import PlanVerdict
from tether.views import DiffCallView

__all__ = [
    "PERMISSION_DECISIONS",
    "Access",
    "AllowAll",
    "CommandAccess",
    "FetchAccess",
    "FileAccess",
    "Gate",
    "HookVerdict",
    "McpAccess",
    "NamedAccess",
    "PermissionDecision",
    "PermissionOutcome",
    "SearchAccess",
    "UnsandboxedAccess",
]


@dataclass(frozen=True)
class FileAccess:
    """Reading or editing a path (a file, or a directory searched), resolved by the tool."""

    action: Literal["read", "edit"]
    path: Path
    title: str
    inside: bool = True
    """Whether the tool found the path inside the workspace (either side saying no asks)."""
    tool_call_id: str = ""
    tool: str = ""
    """The tool asking (`read`, `grep`, `glob`, `edit`, `write`), for rules naming one."""
    preview: DiffCallView | None = field(default=None, compare=False)
    """For an edit worked out before asking: the change, with its context and line numbers."""


@dataclass(frozen=True)
class CommandAccess:
    """Running a shell command, in the sandbox when the session has one."""

    command: str
    sandbox_problem: str | None = None
    """Why the session's sandbox cannot start: the command would run unsandboxed."""
    tool_call_id: str = ""

    @property
    def title(self) -> str:
        """The command itself."""
        return self.command


@dataclass(frozen=True)
class UnsandboxedAccess:
    """Running a command outside the session's sandbox, as the call asked (always asks)."""

    command: str
    tool_call_id: str = ""

    @property
    def title(self) -> str:
        """The command itself."""
        return self.command


@dataclass(frozen=True)
class FetchAccess:
    """Fetching a URL; "always allow" covers its host."""

    url: str
    host: str
    tool_call_id: str = ""

    @property
    def title(self) -> str:
        """`Fetch URL`."""
        return f"Fetch {self.url}"


@dataclass(frozen=True)
class SearchAccess:
    """Sending a query to a web search backend; "always allow" covers every search."""

    query: str
    provider: str
    """The backend's name for people (`Brave Search`): where the query goes."""
    tool_call_id: str = ""

    @property
    def title(self) -> str:
        """`Search the web for "QUERY" (Brave Search)`."""
        return f'Search the web for "{self.query}" ({self.provider})'


@dataclass(frozen=True)
class McpAccess:
    """Calling an MCP tool (`tool` is its name); one the server marks read-only never asks."""

    tool: str
    title: str
    read_only: bool = False
    tool_call_id: str = ""


@dataclass(frozen=True)
class NamedAccess:
    """Starting an agent (`task`) or loading a skill (`skill`) by name: no mode asks for it,
    only deny and ask rules (`task(explore)`, Claude Code's `Skill(deploy)`) stop it."""

    tool: Literal["task", "skill"]
    name: str
    tool_call_id: str = ""

    @property
    def title(self) -> str:
        """`Start the agent NAME` or `Load the skill NAME`."""
        return (
            f"Start the agent {self.name}" if self.tool == "task" else f"Load the skill {self.name}"
        )


Access = (
    FileAccess
    | CommandAccess
    | UnsandboxedAccess
    | FetchAccess
    | SearchAccess
    | McpAccess
    | NamedAccess
)
"""One operation to authorize."""


@dataclass(frozen=True)
class HookVerdict:
    """What `PreToolUse` hooks said of one call, counted as a rule for that call alone:
    `allow` as an allow rule naming it, `ask` as an ask rule (`reason`: why it asks)."""

    decision: Literal["allow", "ask"]
    reason: str = ""


class Gate(Protocol):
    """Decides on an access; raises `PermissionDenied` with a clear message to refuse."""

    async def authorize(
        self, access: Access, hook: HookVerdict | None = None
    ) -> PermissionOutcome | None:
        """How a person settled it (`None`: no one was asked); raise `PermissionDenied` to
        refuse. `hook`: what the call's `PreToolUse` hooks said of it."""
        ...

    def hidden(self, root: Path, tool: str) -> tuple[str, ...]:
        """What a search (`tool`: grep or glob) of directory `root` must leave out, as
        ripgrep globs relative to it: files the rules forbid reading. Raises
        `PermissionDenied` when they cannot be left out (search a narrower path)."""
        ...

    @property
    def planning(self) -> bool:
        """Whether plan mode is on: nothing may change, commands run read-only."""
        ...

    async def approve_plan(self, plan: str, tool_call_id: str) -> PlanVerdict:
        """Ask the person to approve `plan` and leave plan mode; raises `PermissionDenied`
        when plan mode is off or no one can answer."""
        ...


class AllowAll:
    """A gate that allows everything (tests of one tool that are not about policy)."""

    async def authorize(
        self, access: Access, hook: HookVerdict | None = None
    ) -> PermissionOutcome | None:
        """Allow, asking no one."""
        return None

    def hidden(self, root: Path, tool: str) -> tuple[str, ...]:
        """Nothing is hidden."""
        return ()

    @property
    def planning(self) -> bool:
        """Never in plan mode."""
        return False

    async def approve_plan(self, plan: str, tool_call_id: str) -> PlanVerdict:
        """There is no plan mode to leave."""
        raise PermissionDenied("Plan mode is not on: there is no plan to approve")
