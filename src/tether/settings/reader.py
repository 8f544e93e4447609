"""Checking one settings document key by key, as the file's kind (tether's, Claude Code's) reads it.

Each key is checked on its own: a value of the wrong type, an unknown key, a malformed rule
is a `SettingsProblem` and is dropped while the rest applies; what would lose rules (a
`permissions` that is not an object, `deny`/`ask` that are not lists) makes tether's own
file unusable (`SettingsError`), and is a problem in Claude Code's.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from tether.errors import RuleError, SettingsError
from tether.models.messages import ThinkingLevel
from tether.models.thinking import parse_level
from tether.settings.checks import bad_matcher, first_error, kind_of, location_of
from tether.settings.claude import (
    CLAUDE_KEYS,
    McpjsonApprovals,
    claude_mode,
    claude_model,
    unsupported_reason,
)
from tether.settings.layer import Layer, SettingsProblem
from tether.settings.modes import PolicyMode, is_mode
from tether.settings.rules import Rule, RuleKind, parse_rule
from tether.settings.schema import (
    CLAUDE_EVENTS_NOT_RUN,
    CLAUDE_HOOK_KEYS_IGNORED,
    HOOK_EVENTS,
    MODE_ALIASES,
    HookEvent,
    HookGroup,
    ModelEntry,
    SandboxSection,
    WebFetchSection,
    WebSearchSection,
)
from tether.settings.sources import SettingsSource

__all__ = ["DocumentReader"]

M = TypeVar("M", bound=BaseModel)

_KEYS = (
    "$schema",
    "permissions",
    "model",
    "thinking",
    "models",
    "sandbox",
    "env",
    "hooks",
    "webSearch",
    "webFetch",
)
_PERMISSION_KEYS = ("allow", "ask", "deny", "defaultMode", "additionalDirectories")
_CLAUDE_PERMISSION_KEYS = (*_PERMISSION_KEYS, "disableBypassPermissionsMode")
_HOOK_GROUP = TypeAdapter(HookGroup)


@dataclass
class DocumentReader:
    """Checks one settings document key by key: a problem for each bad value, the rest kept
    as a `Layer`; what makes tether's own file unusable is a `SettingsError`."""

    source: SettingsSource
    root: Path
    home: Path
    problems: list[SettingsProblem] = field(default_factory=list)

    def problem(self, key: str, message: str) -> None:
        """A bad value at `key`, dropped while the rest applies."""
        self.problems.append(SettingsProblem(self.source, key, message))

    def fatal(self, key: str, message: str) -> None:
        """A problem that makes tether's own file unusable; in Claude Code's, a warning."""
        if not self.source.claude:
            raise SettingsError(f"{self.source}: {key}: {message}")
        self.problem(key, f"{message}; ignored")

    def read(self, document: dict[str, Any]) -> Layer:
        """The layer `document` gives, every key checked."""
        rules: list[Rule] = []
        mode: PolicyMode | None = None
        directories: tuple[Path, ...] = ()
        model = None
        thinking: ThinkingLevel | None = None
        models: dict[str, ModelEntry] = {}
        sandbox = None
        env: dict[str, str] = {}
        hooks: tuple[tuple[HookEvent, HookGroup], ...] = ()
        web_search = None
        web_fetch = None
        bypass_disabled = False
        mcpjson = None
        claude = self.source.claude
        for key, value in document.items():
            if claude and key not in CLAUDE_KEYS:
                self.problem(key, unsupported_reason(key))
                continue
            match key:
                case "$schema":
                    if not isinstance(value, str):
                        self.problem(key, f"expected a string, got {kind_of(value)}")
                case "permissions":
                    rules, mode, directories, disabled = self.permissions(value)
                    bypass_disabled = bypass_disabled or disabled
                case "disableBypassPermissionsMode":
                    bypass_disabled = self.bypass(value, key) or bypass_disabled
                case (
                    "enableAllProjectMcpServers"
                    | "enabledMcpjsonServers"
                    | "disabledMcpjsonServers"
                ):
                    mcpjson = self.mcpjson(mcpjson or McpjsonApprovals(), key, value)
                case "model":
                    model = self.model(value, key)
                case "thinking":
                    thinking = self.level(value)
                case "models":
                    models = self.models(value)
                case "sandbox":
                    sandbox = self.section(SandboxSection, value, key)
                case "env":
                    env = self.env(value)
                case "hooks":
                    hooks = self.hooks(value)
                case "webSearch":
                    web_search = self.section(WebSearchSection, value, key)
                case "webFetch":
                    web_fetch = self.section(WebFetchSection, value, key)
                case _:
                    self.problem(key, f"unknown key; expected one of {', '.join(_KEYS)}")
        return Layer(
            self.source,
            rules=tuple(rules),
            default_mode=mode,
            additional_directories=directories,
            model=model,
            thinking=thinking,
            models=models,
            sandbox=sandbox,
            env=env,
            hooks=hooks,
            web_search=web_search,
            web_fetch_model=web_fetch.model.strip() if web_fetch and web_fetch.model else None,
            bypass_disabled=bypass_disabled,
            mcpjson=mcpjson,
            problems=tuple(self.problems),
        )

    def permissions(
        self, value: object
    ) -> tuple[list[Rule], PolicyMode | None, tuple[Path, ...], bool]:
        """`permissions`: its rules, default mode, extra directories and Claude Code's
        `disableBypassPermissionsMode`."""
        rules: list[Rule] = []
        mode: PolicyMode | None = None
        directories: list[Path] = []
        disabled = False
        if not isinstance(value, dict):
            self.fatal("permissions", f"expected an object, got {kind_of(value)}")
            return rules, mode, (), disabled
        claude = self.source.claude
        keys = _CLAUDE_PERMISSION_KEYS if claude else _PERMISSION_KEYS
        for key, item in value.items():
            where = f"permissions.{key}"
            if key in ("allow", "ask", "deny"):
                rules.extend(self.rules(key, item, where))
            elif key == "defaultMode" and claude:
                chosen = claude_mode(item)
                if is_mode(chosen):
                    mode = chosen
                else:
                    self.problem(where, f"{chosen}; ignored")
            elif key == "disableBypassPermissionsMode" and claude:
                disabled = self.bypass(item, where) or disabled
            elif key == "defaultMode":
                if isinstance(item, str) and item in MODE_ALIASES:
                    mode = MODE_ALIASES[item]
                else:
                    self.problem(
                        where, f"{item!r} is not a mode; expected ask, accept-edits, auto or plan"
                    )
            elif key == "additionalDirectories":
                directories = self.directories(item, where)
            elif claude:
                self.problem(where, unsupported_reason(where))
            else:
                self.problem(where, f"unknown key; expected one of {', '.join(keys)}")
        return rules, mode, tuple(directories), disabled

    def bypass(self, value: object, where: str) -> bool:
        """Claude Code's `disableBypassPermissionsMode`: `"disable"` or nothing."""
        if value == "disable":
            return True
        self.problem(where, f'expected "disable", got {value!r}; ignored')
        return False

    def mcpjson(self, approvals: McpjsonApprovals, key: str, value: object) -> McpjsonApprovals:
        """One of Claude Code's approvals of `.mcp.json`'s servers."""
        if key == "enableAllProjectMcpServers":
            if isinstance(value, bool):
                return replace(approvals, enable_all=value)
            self.problem(key, f"expected true or false, got {kind_of(value)}; ignored")
            return approvals
        if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
            self.problem(key, "expected a list of server names; ignored")
            return approvals
        if key == "enabledMcpjsonServers":
            return replace(approvals, enabled=tuple(value))
        return replace(approvals, disabled=tuple(value))

    def rules(self, kind: RuleKind, value: object, where: str) -> list[Rule]:
        """`allow`, `ask` or `deny`: each rule parsed, a bad one reported and left out (an
        `ask` or `deny` that is no list loses its rules: fatal in tether's own file)."""
        if not isinstance(value, list):
            message = f"expected a list of rules, got {kind_of(value)}"
            if kind == "allow":
                self.problem(where, message)
            else:
                self.fatal(where, message)
            return []
        rules = []
        for index, text in enumerate(value):
            if not isinstance(text, str):
                self.problem(
                    f"{where}[{index}]", f"expected a rule (a string), got {kind_of(text)}"
                )
                continue
            try:
                rules.append(parse_rule(text, kind, self.source, root=self.root, home=Path.home()))
            except RuleError as exc:
                self.problem(f"{where}[{index}]", f"{text!r}: {exc}")
        return rules

    def directories(self, value: object, where: str) -> list[Path]:
        """`additionalDirectories`: each an existing directory, resolved."""
        if not isinstance(value, list):
            self.problem(where, f"expected a list of directories, got {kind_of(value)}")
            return []
        found = []
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item.strip() or "\0" in item:
                self.problem(f"{where}[{index}]", f"expected a directory, got {item!r}")
                continue
            path = Path(os.path.realpath(self.root / os.path.expanduser(item)))
            if not path.is_dir():
                self.problem(f"{where}[{index}]", f"{item!r} is not a directory ({path})")
                continue
            found.append(path)
        return found

    def env(self, value: object) -> dict[str, str]:
        """`env`: the variables the tools' commands get, names and values checked."""
        if not isinstance(value, dict):
            self.problem("env", f"expected an object of variables, got {kind_of(value)}")
            return {}
        env = {}
        for name, item in value.items():
            if not name or "=" in name or "\0" in name:
                self.problem(f"env.{name}", "not a variable name")
            elif not isinstance(item, str) or "\0" in item:
                self.problem(f"env.{name}", f"expected a string value, got {kind_of(item)}")
            else:
                env[name] = item
        return env

    def hooks(self, value: object) -> tuple[tuple[HookEvent, HookGroup], ...]:
        """`hooks`: each event's groups checked, what tether does not run named."""
        if not isinstance(value, dict):
            self.problem("hooks", f"expected an object of events, got {kind_of(value)}")
            return ()
        found: list[tuple[HookEvent, HookGroup]] = []
        for event, groups in value.items():
            where = f"hooks.{event}"
            if event in CLAUDE_EVENTS_NOT_RUN:
                self.problem(where, f"Claude Code's {event} event is not run by tether")
                continue
            if event not in HOOK_EVENTS:
                self.problem(where, f"unknown hook event; expected one of {', '.join(HOOK_EVENTS)}")
                continue
            if not isinstance(groups, list):
                self.problem(where, f"expected a list of matcher groups, got {kind_of(groups)}")
                continue
            for index, given in enumerate(groups):
                group = self._without_ignored(given, f"{where}[{index}]")
                try:
                    checked = _HOOK_GROUP.validate_python(group)
                except ValidationError as exc:
                    self.problem(f"{where}[{index}]", first_error(exc))
                    continue
                if (bad := bad_matcher(checked.matcher)) is not None:
                    self.problem(f"{where}[{index}].matcher", bad)
                    continue
                for number, hook in enumerate(checked.hooks):
                    if hook.type == "prompt":
                        self.problem(
                            f"{where}[{index}].hooks[{number}]",
                            "prompt hooks are not run; only command hooks are",
                        )
                found.append((event, checked))
        return tuple(found)

    def _without_ignored(self, group: object, where: str) -> object:
        """A matcher group without the hook keys of Claude Code's that change nothing about
        what runs (`statusMessage`, `async`), each one named."""
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            return group
        hooks: list[object] = []
        for number, hook in enumerate(group["hooks"]):
            if not isinstance(hook, dict):
                hooks.append(hook)
                continue
            for key in CLAUDE_HOOK_KEYS_IGNORED.keys() & hook.keys():
                self.problem(f"{where}.hooks[{number}].{key}", CLAUDE_HOOK_KEYS_IGNORED[key])
            hooks.append({k: v for k, v in hook.items() if k not in CLAUDE_HOOK_KEYS_IGNORED})
        return {**group, "hooks": hooks}

    def level(self, value: object) -> ThinkingLevel | None:
        """`thinking`: a level, else a problem and none."""
        try:
            return parse_level(value if isinstance(value, str) else repr(value))
        except ValueError as exc:
            self.problem("thinking", str(exc))
            return None

    def model(self, value: object, key: str) -> str | None:
        """`model`: a spec as `--model` takes it (in Claude Code's files, its model names)."""
        if self.source.claude:
            model, why = claude_model(value)
            if why is not None:
                self.problem(key, f"{why}; ignored")
            return model
        if isinstance(value, str) and value.strip():
            return value.strip()
        self.problem(key, f"expected a model spec such as 'openai', got {value!r}")
        return None

    def models(self, value: object) -> dict[str, ModelEntry]:
        """`models`: each entry checked on its own, a bad one reported and left out."""
        if not isinstance(value, dict):
            self.problem("models", f"expected an object, got {kind_of(value)}")
            return {}
        entries = {}
        for name, entry in value.items():
            checked = self.section(ModelEntry, entry, f"models.{name}")
            if checked is not None and name:
                entries[name.lower()] = checked
        return entries

    def section(self, model: type[M], value: object, key: str) -> M | None:
        """`value` as `model`, each bad key reported and dropped."""
        if not isinstance(value, dict):
            self.problem(key, f"expected an object, got {kind_of(value)}")
            return None
        data = dict(value)
        for _ in range(len(data) + 1):
            try:
                return model.model_validate(data)
            except ValidationError as exc:
                for error in exc.errors():
                    location = error["loc"]
                    name = str(location[0]) if location else ""
                    data.pop(name, None)
                    detail = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
                    self.problem(f"{key}.{location_of(location)}", detail)
        return None
