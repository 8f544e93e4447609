"""What one settings file (or the command line) says once checked, and what was dropped."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tether.models.messages import ThinkingLevel
from tether.settings.claude import (
    McpjsonApprovals,
)
from tether.settings.modes import PolicyMode
from tether.settings.rules import Rule
from tether.settings.schema import (
    HookEvent,
    HookGroup,
    ModelEntry,
    SandboxSection,
    WebSearchSection,
)
from tether.settings.sources import SettingsSource

__all__ = ["Layer", "SettingsProblem"]


@dataclass(frozen=True)
class SettingsProblem:
    """Something wrong in a settings file that was dropped while the rest applies."""

    source: SettingsSource
    key: str
    """Where: `permissions.allow[2]`, `sandbox.mode`, `colour`."""
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.key}: {self.message}"


@dataclass(frozen=True)
class Layer:
    """What one settings file (or the command line) says, checked."""

    source: SettingsSource
    rules: tuple[Rule, ...] = ()
    default_mode: PolicyMode | None = None
    additional_directories: tuple[Path, ...] = ()
    model: str | None = None
    thinking: ThinkingLevel | None = None
    models: dict[str, ModelEntry] = field(default_factory=dict)
    sandbox: SandboxSection | None = None
    env: dict[str, str] = field(default_factory=dict)
    hooks: tuple[tuple[HookEvent, HookGroup], ...] = ()
    web_search: WebSearchSection | None = None
    web_fetch_model: str | None = None
    bypass_disabled: bool = False
    """Claude Code's `disableBypassPermissionsMode: "disable"`: auto mode may not be used."""
    mcpjson: McpjsonApprovals | None = None
    problems: tuple[SettingsProblem, ...] = ()
    digest: str | None = None
    """The SHA-256 of the file's bytes, for trust (`None` for the command line)."""
    skipped: str | None = None
    """Why nothing of the file was read (a Claude Code file that does not parse)."""
