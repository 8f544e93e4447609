"""Rules judging one use of a tool: deny, then ask, then allow, whichever file they come from.

A use of a file (`read`, `grep` and `glob` read; `edit` and `write` edit) is matched on its
resolved path: `read` rules cover the three reading tools, `edit` rules cover `edit` and
`write`, `grep`, `glob` and `write` rules only their own tool. A command is judged part by
part (`tether.shell.invocations`): a deny or ask rule that matches any part decides for
the whole, and allow rules allow it only when every part is allowed and nothing about it
always asks. When no rule decides, the session's mode does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, assert_never

from tether.settings.paths import PathPattern
from tether.settings.rules import (
    AnyUse,
    CommandSpec,
    DomainSpec,
    NameSpec,
    Rule,
    RuleKind,
    WildcardSpec,
)
from tether.settings.wildcard import wildcard_matches
from tether.shell.invocations import analyze_command
from tether.shell.parser import Word

__all__ = [
    "Allow",
    "Ask",
    "CommandUse",
    "Deny",
    "FetchUse",
    "FileUse",
    "NoRule",
    "ToolUse",
    "Use",
    "Verdict",
    "judge",
]


@dataclass(frozen=True)
class FileUse:
    """A tool reading or editing a resolved path."""

    tool: str
    action: Literal["read", "edit"]
    path: Path


@dataclass(frozen=True)
class CommandUse:
    """A bash command line, run in `cwd` of a workspace with `roots`."""

    command: str
    cwd: Path
    roots: tuple[Path, ...]


@dataclass(frozen=True)
class FetchUse:
    """Fetching from a host."""

    host: str


@dataclass(frozen=True)
class ToolUse:
    """Calling a tool rules know only by name (`mcp__git__log`, `web_search`), or starting an
    agent or loading a skill by `name` (`task`, `skill`)."""

    tool: str
    name: str | None = None


Use = FileUse | CommandUse | FetchUse | ToolUse


@dataclass(frozen=True)
class Deny:
    """A deny rule matched: the use is refused, naming it."""

    rule: Rule
    verdict: Literal["deny"] = "deny"


@dataclass(frozen=True)
class Ask:
    """An ask rule matched: a person is asked, whatever the mode."""

    rule: Rule
    verdict: Literal["ask"] = "ask"


@dataclass(frozen=True)
class Allow:
    """Allow rules cover the use (for a command line, each of its parts)."""

    rules: tuple[Rule, ...]
    verdict: Literal["allow"] = "allow"


@dataclass(frozen=True)
class NoRule:
    """No rule decides: the mode does."""

    concerns: tuple[str, ...] = ()
    """Why no rule could allow this command line (it always asks)."""
    opaque: bool = False
    """Whether part of the command cannot be seen, so deny rules could not judge it all."""
    uncovered: tuple[tuple[Word, ...], ...] = ()
    """The commands of a line that no allow rule covers (what a new rule would name)."""
    verdict: Literal["none"] = "none"


Verdict = Deny | Ask | Allow | NoRule


def judge(rules: Sequence[Rule], use: Use) -> Verdict:
    """What `rules` say about `use`."""
    match use:
        case CommandUse():
            return _judge_command(rules, use)
        case FileUse() | FetchUse() | ToolUse():
            for kind in ("deny", "ask", "allow"):
                rule = next((r for r in _kind(rules, kind) if _covers(r, use)), None)
                if rule is not None:
                    return _verdict(rule)
            return NoRule()
        case _:
            assert_never(use)


def _kind(rules: Iterable[Rule], kind: RuleKind) -> list[Rule]:
    return [rule for rule in rules if rule.kind == kind]


def _verdict(rule: Rule) -> Verdict:
    match rule.kind:
        case "deny":
            return Deny(rule)
        case "ask":
            return Ask(rule)
        case "allow":
            return Allow((rule,))
        case _:
            assert_never(rule.kind)


def _covers(rule: Rule, use: FileUse | FetchUse | ToolUse) -> bool:
    match use:
        case FileUse(tool=tool, action=action, path=path):
            same = (
                (rule.tool == "read" and action == "read")
                or (rule.tool == "edit" and action == "edit")
                or rule.tool == tool
            )
            if not same:
                return False
            spec = rule.spec
            return isinstance(spec, AnyUse) or (isinstance(spec, PathPattern) and spec.covers(path))
        case FetchUse(host=host):
            if rule.tool != "web_fetch":
                return False
            spec = rule.spec
            return isinstance(spec, AnyUse) or (isinstance(spec, DomainSpec) and spec.covers(host))
        case ToolUse(tool=tool, name=name):
            if rule.tool == tool:
                spec = rule.spec
                if isinstance(spec, NameSpec):
                    return name is not None and spec.covers(name)
                return True
            server_rule = rule.tool.startswith("mcp__") and rule.tool.count("__") == 1
            return server_rule and tool.startswith(rule.tool + "__")
        case _:
            assert_never(use)


def _judge_command(rules: Sequence[Rule], use: CommandUse) -> Verdict:
    bash = [rule for rule in rules if rule.tool == "bash"]
    analysis = analyze_command(use.command, use.cwd, use.roots)
    for kind in ("deny", "ask"):
        for rule in _kind(bash, kind):
            if any(
                _matches(rule, view, possibly=True) for c in analysis.checks for view in c.views
            ):
                return _verdict(rule)
    if analysis.concerns:
        return NoRule(analysis.concerns, analysis.opaque)
    allow = _kind(bash, "allow")
    runs = [(check.run, check.inert) for check in analysis.checks if check.run is not None]
    # Built-ins such as `cd` need no rule beside a command that has one; alone, they do.
    needed = [run for run, inert in runs if not inert] or [run for run, _ in runs]
    if not needed:
        return NoRule()
    allowing: list[Rule] = []
    uncovered: list[tuple[Word, ...]] = []
    for words in needed:
        found = next((r for r in allow if _matches(r, words, possibly=False)), None)
        if found is None:
            uncovered.append(words)
        elif found not in allowing:
            allowing.append(found)
    if uncovered:
        return NoRule(uncovered=tuple(dict.fromkeys(uncovered)))
    return Allow(tuple(allowing))


def _matches(rule: Rule, words: tuple[Word, ...], *, possibly: bool) -> bool:
    """Whether bash rule `rule` covers `words`; `possibly`: whether it could, once unknown
    words are known (deny and ask rules judge what a command might be)."""
    spec = rule.spec
    if isinstance(spec, AnyUse):
        return True
    if isinstance(spec, WildcardSpec):
        return wildcard_matches(spec.pattern, words, possibly=possibly)
    if not isinstance(spec, CommandSpec):
        return False
    for index, expected in enumerate(spec.words):
        if index >= len(words):
            return False
        word = words[index]
        if word is None:
            # An unknown word may stand for any number of words (`$FLAGS`), so what follows
            # could match; only a possible match counts it.
            return possibly
        if word != expected:
            return False
    rest = words[len(spec.words) :]
    if spec.prefix or not rest:
        return True
    return possibly and all(word is None for word in rest)
