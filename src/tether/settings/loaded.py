"""The merged settings of a workspace, each value with the file it came from.

Files merge in order — `$TETHER_HOME/settings.json`, `.tether/settings.json`,
`.tether/settings.local.json`, Claude Code's `.claude/settings.json` and
`.claude/settings.local.json` (their hooks only), then the command line — later ones winning
for single values (`model`, `defaultMode`, `sandbox.mode`, each `env` variable) while lists
add up (rules, `additionalDirectories`, `sandbox.env`, hooks). Until the workspace is trusted
its own files contribute only what restricts: `deny` and `ask` rules, a read-only sandbox, no
network.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Generic, Literal, TypeVar

from tether.models.messages import ThinkingLevel
from tether.settings.files import Layer, SettingsError, SettingsProblem, read_layer
from tether.settings.matcher import Use, Verdict, judge
from tether.settings.modes import PolicyMode
from tether.settings.paths import PathPattern
from tether.settings.rules import Rule, RuleError, RuleKind, parse_rule
from tether.settings.schema import HookEvent, HookGroup, SandboxSection
from tether.settings.sources import FLAGS, SettingsSource, setting_sources
from tether.settings.trust import TRUSTED_FILES, TrustStore, fingerprint

__all__ = [
    "HookEntry",
    "SandboxSettings",
    "Settings",
    "SettingsFlags",
    "Sourced",
    "Trust",
    "load_settings",
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
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    env: Mapping[str, Sourced[str]] = field(default_factory=dict)
    hooks: tuple[HookEntry, ...] = ()
    web_search_provider: Sourced[SearchProvider] | None = None
    web_search_base_url: Sourced[str] | None = None
    problems: tuple[SettingsProblem, ...] = ()
    files: tuple[SettingsSource, ...] = ()
    """The settings files that exist, in merge order."""
    flags: SettingsFlags | None = None
    """What the command line set (kept to load the files again)."""

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
        return load_settings(self.root, self.home, flags=self.flags, trusted=trusted)

    def parse_rule(self, text: str, kind: RuleKind = "allow") -> Rule:
        """`text` as a rule of the command line, against this workspace (`RuleError`)."""
        return parse_rule(text, kind, FLAGS, root=self.root, home=self.home)


def load_settings(
    root: Path,
    home: Path,
    *,
    flags: SettingsFlags | None = None,
    trusted: bool | None = None,
) -> Settings:
    """The settings of workspace `root` (resolved) with `$TETHER_HOME` at `home`.

    `trusted` overrides what `$TETHER_HOME/trusted.json` says (a trust just given for this
    session only). Raises `SettingsError` for a file that cannot be used.
    """
    layers: list[Layer] = []
    digests: dict[str, str | None] = dict.fromkeys(TRUSTED_FILES)
    for source in setting_sources(root, home):
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
    merged = _Merge(root, home)
    for layer in layers:
        merged.add(layer, granted=trusted or not layer.source.from_workspace)
    return replace(merged.settings(Trust(trusted, current, tuple(merged.withheld))), flags=flags)


def _flags_layer(flags: SettingsFlags, root: Path, home: Path) -> Layer:
    rules: list[Rule] = []
    kinds: tuple[tuple[RuleKind, Sequence[str]], ...] = (
        ("allow", flags.allow),
        ("deny", flags.deny),
    )
    for kind, texts in kinds:
        for text in texts:
            try:
                rules.append(parse_rule(text, kind, FLAGS, root=root, home=home))
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


@dataclass
class _Merge:
    root: Path
    home: Path
    rules: list[Rule] = field(default_factory=list)
    mode: Sourced[PolicyMode] | None = None
    directories: list[Sourced[Path]] = field(default_factory=list)
    model: Sourced[str] | None = None
    thinking: Sourced[ThinkingLevel] | None = None
    sandbox_mode: Sourced[SandboxModeName] | None = None
    network: Sourced[bool] | None = None
    sizes: dict[str, Sourced[int]] = field(default_factory=dict)
    sandbox_env: list[Sourced[str]] = field(default_factory=list)
    env: dict[str, Sourced[str]] = field(default_factory=dict)
    hooks: list[HookEntry] = field(default_factory=list)
    provider: Sourced[SearchProvider] | None = None
    base_url: Sourced[str] | None = None
    problems: list[SettingsProblem] = field(default_factory=list)
    files: list[SettingsSource] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)

    def add(self, layer: Layer, *, granted: bool) -> None:
        source = layer.source
        if source.path is not None:
            self.files.append(source)
        self.problems.extend(layer.problems)
        where = (
            source.path.relative_to(self.root).as_posix()
            if source.from_workspace and source.path is not None
            else str(source)
        )

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
        if layer.model is not None:
            if granted:
                self.model = Sourced(layer.model, source)
            else:
                withhold(f"model {layer.model}")
        if layer.thinking is not None:
            # Thinking is paid for: an untrusted workspace may not raise it, as with `model`.
            if granted:
                self.thinking = Sourced(layer.thinking, source)
            else:
                withhold(f"thinking {layer.thinking}")
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

    def settings(self, trust: Trust) -> Settings:
        sandbox = SandboxSettings(
            mode=self.sandbox_mode,
            allow_network=self.network,
            env=tuple(self.sandbox_env),
            tmp_size_mib=self.sizes.get("tmpSizeMiB"),
            max_processes=self.sizes.get("maxProcesses"),
            memory_mib=self.sizes.get("memoryMiB"),
        )
        return Settings(
            root=self.root,
            home=self.home,
            trust=trust,
            rules=tuple(self.rules),
            default_mode=self.mode,
            additional_directories=tuple(self.directories),
            model=self.model,
            thinking=self.thinking,
            sandbox=sandbox,
            env=dict(self.env),
            hooks=tuple(self.hooks),
            web_search_provider=self.provider,
            web_search_base_url=self.base_url,
            problems=tuple(self.problems),
            files=tuple(self.files),
        )
