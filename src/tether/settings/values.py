"""The values of the merged settings: each with the file it came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from tether.models.messages import ThinkingLevel
from tether.settings.modes import PolicyMode
from tether.settings.schema import HookEvent, HookGroup
from tether.settings.sources import SettingsSource

__all__ = [
    "FileSummary",
    "HookEntry",
    "McpjsonChoices",
    "SandboxModeName",
    "SandboxSettings",
    "SearchProvider",
    "SettingsFlags",
    "Sourced",
    "Trust",
]

T = TypeVar("T")

SandboxModeName = Literal["workspace-write", "read-only", "off"]
SearchProvider = Literal["brave", "exa", "tavily", "searxng"]


@dataclass(frozen=True)
class Sourced(Generic[T]):
    """A setting's value and the file (or the command line) it came from."""

    value: T
    source: SettingsSource


@dataclass(frozen=True)
class SandboxSettings:
    """`sandbox.*`: how bash commands are confined (`None`: not set anywhere)."""

    mode: Sourced[SandboxModeName] | None = None
    allow_network: Sourced[bool] | None = None
    env: tuple[Sourced[str], ...] = ()
    """Names of variables passed into the sandbox."""
    tmp_size_mib: Sourced[int] | None = None
    max_processes: Sourced[int] | None = None
    memory_mib: Sourced[int] | None = None


@dataclass(frozen=True)
class HookEntry:
    """One matcher group of hooks for one event, from one file."""

    event: HookEvent
    group: HookGroup
    source: SettingsSource


@dataclass(frozen=True)
class McpjsonChoices:
    """What the settings say about the servers of the project's `.mcp.json` (Claude Code's
    `enableAllProjectMcpServers`, `enabledMcpjsonServers`, `disabledMcpjsonServers`)."""

    enable_all: Sourced[bool] | None = None
    enabled: tuple[Sourced[str], ...] = ()
    disabled: tuple[Sourced[str], ...] = ()
    """Applied whether or not the workspace is trusted: they only keep servers stopped."""


@dataclass(frozen=True)
class FileSummary:
    """What was read from one of Claude Code's files, for the line said at start."""

    source: SettingsSource
    read: tuple[str, ...]
    """`3 allow rules`, `env (2)`, ... in the file's terms."""
    withheld: bool = False
    """Whether what it grants waits for the workspace to be trusted."""
    skipped: str | None = None
    unsupported: tuple[str, ...] = ()
    """The keys tether does not read (each a problem of its own, with the reason)."""


@dataclass(frozen=True)
class Trust:
    """Whether the workspace is trusted, and what its files would grant if it were."""

    trusted: bool
    fingerprint: str
    """Of the workspace's settings files as read (what a trust decision covers)."""
    withheld: tuple[str, ...] = ()
    """What the workspace's files grant that does not apply until it is trusted."""

    @property
    def needed(self) -> bool:
        """Whether trusting would change anything (there is something withheld)."""
        return not self.trusted and bool(self.withheld)


@dataclass(frozen=True)
class SettingsFlags:
    """What the command line sets (applied last, always)."""

    mode: PolicyMode | None = None
    model: str | None = None
    thinking: ThinkingLevel | None = None
    sandbox_mode: SandboxModeName | None = None
    allow_network: bool | None = None
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
