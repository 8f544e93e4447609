"""The rule grammar: `Tool` or `Tool(specifier)`, parsed once into what the matcher needs.

| rule                              | covers                                                  |
|-----------------------------------|---------------------------------------------------------|
| `read`, `edit`, `bash`, ...       | every use of the tool                                   |
| `read(src/**)`, `edit(**/*.env)`  | paths, gitignore-style (`tether.settings.paths`)        |
| `bash(npm test)`                  | exactly that command                                    |
| `bash(npm run test:*)`            | that command and any arguments after it (whole words)   |
| `bash(git * main)`                | `*` anywhere: any text, spaces too (Claude Code's)      |
| `web_fetch(domain:example.com)`   | that host; `domain:*.example.com` its subdomains        |
| `task(explore)`, `skill(deploy)`  | that agent, that skill (`*` any text; any letter case)  |
| `mcp__SERVER`, `mcp__SERVER__TOOL`| every tool of a server, or one tool                     |

Claude Code's tool names are aliases (`Read`, `Edit`, `Write`, `Bash`, `WebFetch`, `Grep`,
`Glob`, `LS`, `WebSearch`), so its rules can be pasted in; a Claude Code tool tether does not
gate is a `RuleError` saying why. A rule that does not parse is a `RuleError` saying what is
wrong; the file's other rules still apply.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tether.errors import RuleError
from tether.lazy import pattern
from tether.settings.paths import PathPattern, compile_pattern
from tether.settings.sources import SettingsSource

__all__ = [
    "FILE_TOOLS",
    "TOOL_ALIASES",
    "AnyUse",
    "CommandSpec",
    "DomainSpec",
    "NameSpec",
    "Rule",
    "RuleKind",
    "Specifier",
    "WildcardSpec",
    "parse_rule",
]

RuleKind = Literal["allow", "ask", "deny"]

TOOL_ALIASES: dict[str, str] = {
    "Read": "read",
    "Edit": "edit",
    "MultiEdit": "edit",
    "NotebookEdit": "edit",
    "NotebookRead": "read",
    "Write": "write",
    "Bash": "bash",
    "WebFetch": "web_fetch",
    "WebSearch": "web_search",
    "Grep": "grep",
    "Glob": "glob",
    "LS": "glob",
    "ls": "glob",
    "Task": "task",
    "Agent": "task",
    "Skill": "skill",
}
"""Claude Code's tool names and the tool each stands for (`ls` lists as `glob` searches, so
`glob` rules judge it)."""

_UNGATED: dict[str, str] = {
    "TodoWrite": "tether's todo tool never asks for permission",
    "ExitPlanMode": "tether's exit_plan_mode never asks for permission",
    "BashOutput": "reading a background command's output never asks in tether",
    "KillShell": "stopping a background command never asks in tether",
    "KillBash": "stopping a background command never asks in tether",
    "SlashCommand": "tether's model does not run slash commands",
}
"""Claude Code's tools whose rules tether cannot apply, and why."""

FILE_TOOLS = frozenset({"read", "edit", "write", "grep", "glob"})
"""Tools whose specifier is a path pattern."""

_NAMED_TOOLS = frozenset({"task", "skill"})
"""Tools whose specifier is the name of an agent or a skill."""
_PLAIN_TOOLS = frozenset({"bash", "web_fetch", "web_search", *FILE_TOOLS, *_NAMED_TOOLS})
_MCP = pattern(r"mcp__([A-Za-z0-9_-]+?)(?:__([A-Za-z0-9_.-]+|\*))?")
_SHAPE = pattern(r"([A-Za-z_][A-Za-z0-9_-]*(?:__\*)?)(?:\((.*)\))?", re.DOTALL)
_HOST = pattern(r"(\*\.)?([A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*)\.?")
_SHELL_SYNTAX = ("&&", "||", ";", "|", "&", ">", "<", "$(", "`", "\n")
_STAR = "\0"
"""Stands for an escaped `*` while a command rule is split into words."""


@dataclass(frozen=True)
class AnyUse:
    """No specifier (or `*`): every use of the tool."""


@dataclass(frozen=True)
class CommandSpec:
    """A bash command: its words, exactly or as a prefix (`:*`) on word boundaries."""

    words: tuple[str, ...]
    prefix: bool


@dataclass(frozen=True)
class DomainSpec:
    """A host for `web_fetch`; with `subdomains`, any host below it (not the host itself)."""

    host: str
    subdomains: bool

    def covers(self, host: str) -> bool:
        """Whether `host` is the one named (or one below it)."""
        host = host.lower().rstrip(".")
        if self.subdomains:
            return host.endswith("." + self.host)
        return host == self.host


@dataclass(frozen=True)
class WildcardSpec:
    """A bash command as Claude Code's `*` patterns say it: `git * main`, `* --version`.

    `*` stands for any text, spaces included; `\\*` is a `*` itself. The pattern is matched
    against the command's words joined by single spaces (quotes taken out, as the words are
    compared for the other forms)."""

    pattern: tuple[str | None, ...]
    """Its characters, `None` for each `*`."""


@dataclass(frozen=True)
class NameSpec:
    """An agent for `task`, a skill for `skill`: its name, `*` standing for any text, in any
    letter case (Claude Code's `Task(Explore)` names tether's `explore`)."""

    pattern: str

    def covers(self, name: str) -> bool:
        """Whether `name` is the one named."""
        parts = (re.escape(part) for part in self.pattern.split("*"))
        return re.fullmatch(".*".join(parts), name, re.IGNORECASE | re.DOTALL) is not None


Specifier = AnyUse | PathPattern | CommandSpec | WildcardSpec | DomainSpec | NameSpec


@dataclass(frozen=True)
class Rule:
    """One rule of one settings file."""

    kind: RuleKind
    text: str
    """As written in the file."""
    tool: str
    """The tool as the model sees it (`read`, `bash`, `mcp__git`, `mcp__git__log`)."""
    spec: Specifier
    source: SettingsSource

    @property
    def canonical(self) -> str:
        """The rule with tether's tool name: `bash(npm test)`."""
        _, _, rest = self.text.partition("(")
        return f"{self.tool}({rest}" if rest else self.tool

    def describe(self) -> str:
        """`deny rule bash(rm:*) in /home/me/.tether/settings.json`."""
        return f"{self.kind} rule {self.canonical} in {self.source}"


def parse_rule(
    text: str, kind: RuleKind, source: SettingsSource, *, root: Path, home: Path
) -> Rule:
    """The rule `text` of `source`; path patterns resolve against `root` (the project) and
    `home` (for `~/`). Raises `RuleError` saying what is wrong."""
    shape = _SHAPE.fullmatch(text.strip())
    if shape is None:
        raise RuleError("expected Tool or Tool(specifier), e.g. bash(npm test) or read(src/**)")
    name, raw = shape[1], shape[2]
    tool = TOOL_ALIASES.get(name, name)
    if tool.startswith("mcp__"):
        return Rule(kind, text, *_mcp(tool, raw), source)
    if name in _UNGATED:
        raise RuleError(f"not supported: {_UNGATED[name]}")
    if tool not in _PLAIN_TOOLS:
        known = ", ".join(sorted(_PLAIN_TOOLS))
        raise RuleError(f"unknown tool {name!r}; expected one of {known}, or mcp__SERVER__TOOL")
    if raw is None or (raw.strip() == "*" and tool not in FILE_TOOLS):
        return Rule(kind, text, tool, AnyUse(), source)
    spec = raw.strip()
    if not spec:
        raise RuleError(f"empty specifier; write {name} alone to cover every use")
    if tool in FILE_TOOLS:
        pattern = compile_pattern(spec, root=root, home=home, claude=source.claude)
        return Rule(kind, text, tool, pattern, source)
    if tool == "bash":
        return Rule(kind, text, tool, _command(spec), source)
    if tool == "web_fetch":
        return Rule(kind, text, tool, _domain(spec), source)
    if tool in _NAMED_TOOLS:
        # Claude Code's `Skill(name *)` or `Skill(name:*)` also covers the skill's arguments,
        # which tether's skill tool does not take: the name is what counts.
        return Rule(kind, text, tool, NameSpec(re.sub(r"(:\*| \*)$", "", spec)), source)
    raise RuleError(f"{name} takes no specifier; write {name} alone")


def _mcp(tool: str, raw: str | None) -> tuple[str, Specifier]:
    matched = _MCP.fullmatch(tool)
    if matched is None:
        raise RuleError("expected mcp__SERVER or mcp__SERVER__TOOL")
    if raw is not None and raw.strip() not in ("", "*"):
        raise RuleError("an MCP rule takes no specifier; name the tool: mcp__SERVER__TOOL")
    server, name = matched[1], matched[2]
    return (f"mcp__{server}" if name in (None, "*") else tool), AnyUse()


def _command(spec: str) -> CommandSpec | WildcardSpec:
    prefix = False
    # `\*` is a star itself: kept out of the way while the words are split.
    body = spec.replace("\\*", _STAR)
    if (body.endswith(":*") or body.endswith(" *")) and "*" not in body[:-2]:
        prefix, body = True, body[:-2]
    try:
        words = tuple(shlex.split(body))
    except ValueError as exc:
        raise RuleError(f"the command does not parse: {exc}") from None
    if not words:
        raise RuleError("no command before :*")
    for word in words:
        if any(token in word for token in _SHELL_SYNTAX):
            raise RuleError(
                "a rule names one simple command (no &&, ;, |, redirections or substitutions); "
                "a compound command is allowed when each of its commands is"
            )
    if any("*" in word for word in words):
        text = " ".join(words)
        return WildcardSpec(tuple(None if c == "*" else c.replace(_STAR, "*") for c in text))
    return CommandSpec(tuple(word.replace(_STAR, "*") for word in words), prefix)


def _domain(spec: str) -> DomainSpec:
    kind, sep, host = spec.partition(":")
    if not sep or kind != "domain":
        raise RuleError("expected domain:HOST, e.g. web_fetch(domain:docs.python.org)")
    matched = _HOST.fullmatch(host.strip().lower())
    if matched is None:
        raise RuleError(f"{host!r} is not a host name (use *.example.com for subdomains)")
    return DomainSpec(matched[2].rstrip("."), subdomains=matched[1] is not None)
