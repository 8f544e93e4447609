"""The merged settings of a workspace, each value with the file it came from.

Files merge in Claude Code's order of levels, user < project < local, Claude Code's file of
each level before tether's: `~/.claude/settings.json`, `$TETHER_HOME/settings.json`,
`.claude/settings.json`, `.tether/settings.json`, `.claude/settings.local.json`,
`.tether/settings.local.json`, then the command line — later ones winning for single values
(`model`, `defaultMode`, `sandbox.mode`, each `env` variable) while lists add up (rules,
`additionalDirectories`, `sandbox.env`, hooks). Until the workspace is trusted its own files
contribute only what restricts: `deny` and `ask` rules, a read-only sandbox, no network,
Claude Code's `disableBypassPermissionsMode` and `disabledMcpjsonServers`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tether.errors import RuleError, SettingsError
from tether.home import claude_home
from tether.models.messages import ThinkingLevel
from tether.settings.files import read_layer
from tether.settings.layer import Layer, SettingsProblem
from tether.settings.matcher import Use, Verdict, judge
from tether.settings.merge import Merge
from tether.settings.modes import PolicyMode
from tether.settings.paths import PathPattern
from tether.settings.rules import Rule, RuleKind, parse_rule
from tether.settings.schema import ModelEntry, SandboxSection
from tether.settings.sources import FLAGS, SettingsSource, setting_sources
from tether.settings.trust import TRUSTED_FILES, TrustStore, fingerprint
from tether.settings.values import (
    FileSummary,
    HookEntry,
    McpjsonChoices,
    SandboxSettings,
    SearchProvider,
    SettingsFlags,
    Sourced,
    Trust,
)

__all__ = [
    "FileSummary",
    "HookEntry",
    "McpjsonChoices",
    "SandboxSettings",
    "Settings",
    "SettingsFlags",
    "Sourced",
    "Trust",
    "load_settings",
]


@dataclass(frozen=True)
class Settings:
    """The effective settings of one workspace."""

    root: Path
    home: Path
    trust: Trust
    rules: tuple[Rule, ...] = ()
    default_mode: Sourced[PolicyMode] | None = None
    additional_directories: tuple[Sourced[Path], ...] = ()
    model: Sourced[str] | None = None
    thinking: Sourced[ThinkingLevel] | None = None
    models: Mapping[str, ModelEntry] = field(default_factory=dict)
    """The `models` entries, by model id (a later file's entry replaces an earlier one's)."""
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    env: Mapping[str, Sourced[str]] = field(default_factory=dict)
    hooks: tuple[HookEntry, ...] = ()
    web_search_provider: Sourced[SearchProvider] | None = None
    web_search_base_url: Sourced[str] | None = None
    web_fetch_model: Sourced[str] | None = None
    """`webFetch.model`: the model that answers a fetch's `prompt` (`None`: the session's)."""
    bypass_disabled: Sourced[bool] | None = None
    """Where Claude Code's `disableBypassPermissionsMode` said auto mode may not be used."""
    mcpjson: McpjsonChoices = field(default_factory=McpjsonChoices)
    problems: tuple[SettingsProblem, ...] = ()
    files: tuple[SettingsSource, ...] = ()
    """The settings files that exist, in merge order."""
    claude_files: tuple[FileSummary, ...] = ()
    """What each of Claude Code's files that exists gave, in merge order."""
    flags: SettingsFlags | None = None
    """What the command line set (kept to load the files again)."""
    claude_dir: Path | None = field(default=None, compare=False)
    """Claude Code's user directory the settings were read with (kept to read them again)."""

    @classmethod
    def empty(cls, root: Path, home: Path) -> Settings:
        """No files, no rules: the mode decides everything."""
        return cls(root, home, Trust(trusted=False, fingerprint=fingerprint({})))

    def judge(self, use: Use) -> Verdict:
        """What the rules say about `use` (deny > ask > allow, else no rule)."""
        return judge(self.rules, use)

    def search_exclusions(self, root: Path, tool: str) -> tuple[str, ...]:
        """The ripgrep globs (relative to directory `root`) a search by `tool` must exclude:
        what deny rules for `read` or `tool` cover under `root`. Raises `ValueError` naming
        the rule when it covers more than a glob can exclude."""
        globs: list[str] = []
        for rule in self.rules_of("deny"):
            if rule.tool not in ("read", tool) or not isinstance(rule.spec, PathPattern):
                continue
            try:
                glob = rule.spec.search_glob(root)
            except ValueError:
                raise ValueError(
                    f"the {rule.describe()} covers files that a search of {root} cannot "
                    "leave out; search a narrower path"
                ) from None
            if glob is not None and glob not in globs:
                globs.append(glob)
        return tuple(globs)

    def rules_of(self, kind: RuleKind) -> tuple[Rule, ...]:
        """The rules of one kind, in file order."""
        return tuple(rule for rule in self.rules if rule.kind == kind)

    def with_rule(self, rule: Rule) -> Settings:
        """These settings plus `rule` (remembered while the session runs)."""
        return replace(self, rules=(*self.rules, rule))

    def reloaded(self, *, trusted: bool | None = None) -> Settings:
        """The same workspace's settings read again (`trusted` as `load_settings` takes it)."""
        return load_settings(
            self.root,
            self.home,
            flags=self.flags,
            trusted=trusted,
            claude_dir=self.claude_dir,
        )

    def parse_rule(self, text: str, kind: RuleKind = "allow") -> Rule:
        """`text` as a rule of the command line, against this workspace (`RuleError`)."""
        return parse_rule(text, kind, FLAGS, root=self.root, home=Path.home())


def load_settings(
    root: Path,
    home: Path,
    *,
    flags: SettingsFlags | None = None,
    trusted: bool | None = None,
    claude_dir: Path | None = None,
) -> Settings:
    """The settings of workspace `root` (resolved) with `$TETHER_HOME` at `home`.

    `trusted` overrides what `$TETHER_HOME/trusted.json` says (a trust just given for this
    session only). `claude_dir` is Claude Code's user directory (default `$CLAUDE_CONFIG_DIR`,
    else `~/.claude`). Raises `SettingsError` for a file that cannot be used.
    """
    chosen = claude_home() if claude_dir is None else claude_dir
    layers: list[Layer] = []
    digests: dict[str, str | None] = dict.fromkeys(TRUSTED_FILES)
    for source in setting_sources(root, home, chosen):
        layer = read_layer(source, root=root, home=home)
        if layer is None:
            continue
        layers.append(layer)
        if source.from_workspace and source.path is not None:
            digests[source.path.relative_to(root).as_posix()] = layer.digest
    current = fingerprint(digests)
    if trusted is None:
        trusted = TrustStore(home).is_trusted(root, current)
    if flags is not None:
        layers.append(_flags_layer(flags, root, home))
    merged = Merge(root, home)
    for layer in layers:
        merged.add(layer, granted=trusted or not layer.source.from_workspace)
    settings = _settings(merged, Trust(trusted, current, tuple(merged.withheld)))
    disabled = settings.bypass_disabled
    if flags is not None and flags.mode == "auto" and disabled is not None:
        raise SettingsError(
            "--mode auto: auto mode is disabled by disableBypassPermissionsMode in "
            f"{disabled.source}"
        )
    return replace(settings, flags=flags, claude_dir=chosen)


def _flags_layer(flags: SettingsFlags, root: Path, home: Path) -> Layer:
    rules: list[Rule] = []
    kinds: tuple[tuple[RuleKind, Sequence[str]], ...] = (
        ("allow", flags.allow),
        ("deny", flags.deny),
    )
    for kind, texts in kinds:
        for text in texts:
            try:
                rules.append(parse_rule(text, kind, FLAGS, root=root, home=Path.home()))
            except RuleError as exc:
                raise SettingsError(f"--{kind} {text!r}: {exc}") from None
    sandbox = None
    if flags.sandbox_mode is not None or flags.allow_network is not None:
        sandbox = SandboxSection(mode=flags.sandbox_mode, allowNetwork=flags.allow_network)
    return Layer(
        FLAGS,
        rules=tuple(rules),
        default_mode=flags.mode,
        model=flags.model,
        thinking=flags.thinking,
        sandbox=sandbox,
    )


def _settings(merged: Merge, trust: Trust) -> Settings:
    """What the layers merged into, with `trust`."""
    sandbox = SandboxSettings(
        mode=merged.sandbox_mode,
        allow_network=merged.network,
        env=tuple(merged.sandbox_env),
        tmp_size_mib=merged.sizes.get("tmpSizeMiB"),
        max_processes=merged.sizes.get("maxProcesses"),
        memory_mib=merged.sizes.get("memoryMiB"),
    )
    return Settings(
        root=merged.root,
        home=merged.home,
        trust=trust,
        rules=tuple(merged.rules),
        default_mode=merged.mode,
        additional_directories=tuple(merged.directories),
        model=merged.model,
        thinking=merged.thinking,
        models=dict(merged.models),
        sandbox=sandbox,
        env=dict(merged.env),
        hooks=tuple(merged.hooks),
        web_search_provider=merged.provider,
        web_search_base_url=merged.base_url,
        web_fetch_model=merged.web_fetch_model,
        bypass_disabled=merged.bypass_disabled,
        mcpjson=McpjsonChoices(merged.enable_all, tuple(merged.enabled), tuple(merged.disabled)),
        problems=tuple(merged.problems),
        files=tuple(merged.files),
        claude_files=tuple(merged.summaries),
    )
