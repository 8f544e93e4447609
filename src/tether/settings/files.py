"""Reading one settings file: every key checked, each problem reported, the rest kept.

A file that cannot be used at all — not JSON, not an object, a duplicate key, a FIFO, too
large — is a `SettingsError`: tether stops rather than run without its rules. So is a
`permissions` that is not an object, or `deny`/`ask` that are not lists, since their rules
would be lost. Anything else wrong (an unknown key, a malformed rule, a value of the wrong
type) is a `SettingsProblem` naming the file, the key and what is wrong; it is dropped and
the rest of the file applies.

Claude Code's files (`tether.settings.claude`) are never fatal: comments and trailing
commas are allowed as Claude Code allows them, a file that still cannot be read is skipped
with a problem saying so, and what tether's files would stop for is a problem there too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from tether.bounded import read_bounded_text
from tether.errors import RuleError, SettingsError, UnreadableFile
from tether.jsontext import strip_jsonc
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
from tether.settings.trust import text_digest

__all__ = ["Layer", "SettingsError", "SettingsProblem", "read_layer"]

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


def read_layer(source: SettingsSource, *, root: Path, home: Path) -> Layer | None:
    """The checked content of `source`'s file; `None` when there is no file."""
    assert source.path is not None
    path = source.path
    try:
        text = read_bounded_text(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None
    except UnreadableFile as exc:
        if source.claude:
            return _skipped(source, f"cannot be read ({exc})", text_digest(f"unreadable: {exc}"))
        raise SettingsError(f"cannot read settings: {exc}") from None
    digest = text_digest(text)
    problems: list[SettingsProblem] = []
    try:
        document = _decode(strip_jsonc(text) if source.claude else text, path, problems, source)
        if not isinstance(document, dict):
            raise SettingsError(f"{path}: settings must be a JSON object, not {kind_of(document)}")
    except (SettingsError, ValueError) as exc:
        if not source.claude:
            raise
        return _skipped(source, str(exc).removeprefix(f"{path}: "), digest)
    reader = _Reader(source, root, home, problems)
    layer = reader.read(document)
    return replace(layer, digest=digest)


def _skipped(source: SettingsSource, why: str, digest: str) -> Layer:
    problem = SettingsProblem(source, "(file)", f"{why}; the whole file is skipped")
    return Layer(source, problems=(problem,), digest=digest, skipped=why)


@dataclass
class _Reader:
    source: SettingsSource
    root: Path
    home: Path
    problems: list[SettingsProblem] = field(default_factory=list)

    def problem(self, key: str, message: str) -> None:
        self.problems.append(SettingsProblem(self.source, key, message))

    def fatal(self, key: str, message: str) -> None:
        """A problem that makes tether's own file unusable; in Claude Code's, a warning."""
        if not self.source.claude:
            raise SettingsError(f"{self.source}: {key}: {message}")
        self.problem(key, f"{message}; ignored")

    def read(self, document: dict[str, Any]) -> Layer:
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


def _decode(text: str, path: Path, problems: list[SettingsProblem], source: SettingsSource) -> Any:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                if not source.claude:
                    raise ValueError(f"the key {key!r} appears twice in one object")
                # As Claude Code's JSON reader does: the last one counts.
                problems.append(
                    SettingsProblem(source, key, "appears twice in one object; the last is used")
                )
            result[key] = value
        return result

    def constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not a JSON value")

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except RecursionError:
        raise SettingsError(f"{path}: not valid JSON: nested too deeply") from None
    except ValueError as exc:
        raise SettingsError(f"{path}: not valid JSON: {exc}") from None
