"""Merging the layers of settings in order: later single values win, lists add up, and what
a workspace's own files grant is withheld until it is trusted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tether.models.messages import ThinkingLevel
from tether.settings.layer import Layer, SettingsProblem
from tether.settings.modes import PolicyMode
from tether.settings.rules import Rule
from tether.settings.schema import ModelEntry
from tether.settings.sources import SettingsSource
from tether.settings.values import (
    FileSummary,
    HookEntry,
    SandboxModeName,
    SearchProvider,
    Sourced,
)

__all__ = ["Merge"]


@dataclass
class Merge:
    """The settings so far, as each layer is added."""

    root: Path
    home: Path
    rules: list[Rule] = field(default_factory=list)
    mode: Sourced[PolicyMode] | None = None
    directories: list[Sourced[Path]] = field(default_factory=list)
    model: Sourced[str] | None = None
    thinking: Sourced[ThinkingLevel] | None = None
    models: dict[str, ModelEntry] = field(default_factory=dict)
    sandbox_mode: Sourced[SandboxModeName] | None = None
    network: Sourced[bool] | None = None
    sizes: dict[str, Sourced[int]] = field(default_factory=dict)
    sandbox_env: list[Sourced[str]] = field(default_factory=list)
    env: dict[str, Sourced[str]] = field(default_factory=dict)
    hooks: list[HookEntry] = field(default_factory=list)
    provider: Sourced[SearchProvider] | None = None
    base_url: Sourced[str] | None = None
    web_fetch_model: Sourced[str] | None = None
    problems: list[SettingsProblem] = field(default_factory=list)
    files: list[SettingsSource] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)
    bypass_disabled: Sourced[bool] | None = None
    enable_all: Sourced[bool] | None = None
    enabled: list[Sourced[str]] = field(default_factory=list)
    disabled: list[Sourced[str]] = field(default_factory=list)
    summaries: list[FileSummary] = field(default_factory=list)

    def add(self, layer: Layer, *, granted: bool) -> None:
        source = layer.source
        if source.path is not None:
            self.files.append(source)
        self.problems.extend(layer.problems)
        if source.claude:
            self.summaries.append(_summary(layer, granted))
        # What only restricts applies whether or not the workspace is trusted.
        if layer.bypass_disabled and self.bypass_disabled is None:
            self.bypass_disabled = Sourced(True, source)
        if layer.mcpjson is not None:
            self._mcpjson(layer, granted)
        where = _where(source, self.root)

        def withhold(what: str) -> None:
            self.withheld.append(f"{what} ({where})")

        for rule in layer.rules:
            if granted or rule.kind != "allow":
                self.rules.append(rule)
            else:
                withhold(f"allow {rule.canonical}")
        if layer.default_mode is not None:
            if granted:
                self.mode = Sourced(layer.default_mode, source)
            else:
                withhold(f"defaultMode {layer.default_mode}")
        for directory in layer.additional_directories:
            if granted:
                self.directories.append(Sourced(directory, source))
            else:
                withhold(f"additionalDirectories {directory}")
        self._model(layer, granted, withhold)
        for name, value in layer.env.items():
            if granted:
                self.env[name] = Sourced(value, source)
            else:
                withhold(f"env {name}")
        if layer.hooks:
            if granted:
                self.hooks.extend(HookEntry(event, group, source) for event, group in layer.hooks)
            else:
                withhold(f"hooks ({len(layer.hooks)})")
        if layer.sandbox is not None:
            self._sandbox(layer, granted, withhold)
        if layer.web_search is not None:
            if granted:
                if layer.web_search.provider is not None:
                    self.provider = Sourced(layer.web_search.provider, source)
                if layer.web_search.base_url is not None:
                    self.base_url = Sourced(layer.web_search.base_url, source)
            else:
                withhold("webSearch")

    def _mcpjson(self, layer: Layer, granted: bool) -> None:
        approvals = layer.mcpjson
        assert approvals is not None
        source = layer.source
        self.disabled.extend(Sourced(name, source) for name in approvals.disabled)
        where = _where(source, self.root)
        if approvals.enable_all is not None:
            if granted:
                self.enable_all = Sourced(approvals.enable_all, source)
            elif approvals.enable_all:
                self.withheld.append(f"enableAllProjectMcpServers ({where})")
        for name in approvals.enabled:
            if granted:
                self.enabled.append(Sourced(name, source))
            else:
                self.withheld.append(f"enabledMcpjsonServers {name} ({where})")

    def _model(self, layer: Layer, granted: bool, withhold: Callable[[str], None]) -> None:
        # Both are paid for: an untrusted workspace may not choose the model or raise thinking.
        if layer.model is not None:
            if granted:
                self.model = Sourced(layer.model, layer.source)
            else:
                withhold(f"model {layer.model}")
        if layer.thinking is not None:
            if granted:
                self.thinking = Sourced(layer.thinking, layer.source)
            else:
                withhold(f"thinking {layer.thinking}")
        if layer.web_fetch_model is not None:
            if granted:
                self.web_fetch_model = Sourced(layer.web_fetch_model, layer.source)
            else:
                withhold(f"webFetch.model {layer.web_fetch_model}")
        for name, entry in layer.models.items():
            # A later file's entry replaces an earlier one's whole: no field mixes two files.
            if granted:
                self.models[name] = entry
            else:
                withhold(f"models.{name}")

    def _sandbox(self, layer: Layer, granted: bool, withhold: Callable[[str], None]) -> None:
        section = layer.sandbox
        assert section is not None
        source = layer.source
        # A workspace may always tighten the sandbox; only trust lets it loosen it.
        if section.mode is not None:
            if granted or section.mode == "read-only":
                self.sandbox_mode = Sourced(section.mode, source)
            else:
                withhold(f"sandbox.mode {section.mode}")
        if section.allow_network is not None:
            if granted or not section.allow_network:
                self.network = Sourced(section.allow_network, source)
            else:
                withhold("sandbox.allowNetwork true")
        sizes = {
            "tmpSizeMiB": section.tmp_size_mib,
            "maxProcesses": section.max_processes,
            "memoryMiB": section.memory_mib,
        }
        for name, size in sizes.items():
            if size is None:
                continue
            if granted:
                self.sizes[name] = Sourced(size, source)
            else:
                withhold(f"sandbox.{name} {size}")
        for variable in section.env:
            if granted:
                self.sandbox_env.append(Sourced(variable, source))
            else:
                withhold(f"sandbox.env {variable}")


def _where(source: SettingsSource, root: Path) -> str:
    if source.from_workspace and source.path is not None:
        return source.path.relative_to(root).as_posix()
    return str(source)


def _summary(layer: Layer, granted: bool) -> FileSummary:
    """What `layer`, one of Claude Code's files, gave, counted in the file's own terms."""
    read: list[str] = []
    for kind in ("allow", "ask", "deny"):
        count = sum(1 for rule in layer.rules if rule.kind == kind)
        if count:
            read.append(f"{count} {kind} rule{'s' if count > 1 else ''}")
    if layer.default_mode is not None:
        read.append(f"defaultMode ({layer.default_mode})")
    if layer.additional_directories:
        read.append(f"additionalDirectories ({len(layer.additional_directories)})")
    if layer.env:
        read.append(f"env ({len(layer.env)})")
    if layer.hooks:
        read.append(f"hooks ({len(layer.hooks)})")
    if layer.model is not None:
        read.append(f"model ({layer.model})")
    if layer.thinking is not None:
        read.append(f"thinking ({layer.thinking})")
    if layer.bypass_disabled:
        read.append("disableBypassPermissionsMode")
    if layer.mcpjson is not None:
        read.append(".mcp.json approvals")
    unsupported = tuple(p.key for p in layer.problems if p.message.startswith("not supported:"))
    grants = any(rule.kind == "allow" for rule in layer.rules) or any(
        (
            layer.default_mode,
            layer.additional_directories,
            layer.env,
            layer.hooks,
            layer.model,
            layer.thinking,
            layer.mcpjson and (layer.mcpjson.enable_all or layer.mcpjson.enabled),
        )
    )
    return FileSummary(
        layer.source,
        tuple(read),
        withheld=grants and not granted,
        skipped=layer.skipped,
        unsupported=unsupported,
    )
