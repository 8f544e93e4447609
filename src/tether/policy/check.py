"""What the policy would do with one use, written as a rule is (`bash(npm test && rm -rf /)`,
`read(.env)`, `web_fetch(https://x.org/a)`): the verdict of the rules, and what the gate
does in a mode. Nothing runs and no one is asked: the gate meets a person who declines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from tether.errors import PermissionDenied, ToolError
from tether.policy.asker import PermissionAnswer, PermissionQuestion
from tether.policy.gate import PolicyGate
from tether.policy.modes import PolicyMode
from tether.policy.rules import use_of
from tether.settings import Allow, Ask, Deny, NoRule, Settings, ToolUse, Verdict
from tether.settings.rules import TOOL_ALIASES
from tether.tools.access import (
    Access,
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    NamedAccess,
)
from tether.tools.workspace import Workspace

__all__ = ["CheckResult", "check_use"]

_SHAPE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_-]*)(?:\((.*)\))?\s*", re.DOTALL)
_READERS = {"read", "grep", "glob"}


@dataclass(frozen=True)
class CheckResult:
    """The rules' verdict on one use and what the gate does with it in `mode`."""

    use: str
    verdict: Verdict
    mode: PolicyMode
    outcome: Literal["allow", "ask", "deny"]
    explanation: str


class _Declines:
    def __init__(self) -> None:
        self.asked: PermissionQuestion | None = None

    async def ask(self, request: PermissionQuestion) -> PermissionAnswer:
        self.asked = request
        return "reject"


async def check_use(text: str, settings: Settings, mode: PolicyMode) -> CheckResult:
    """What happens to the use `text` in `settings`' workspace. Raises `ValueError` for text
    that names no use."""
    workspace = Workspace.at(settings.root, *(d.value for d in settings.additional_directories))
    shape = _SHAPE.fullmatch(text)
    if shape is None:
        raise ValueError(f"{text!r}: expected Tool(what), e.g. bash(npm test) or read(src/a.py)")
    tool = TOOL_ALIASES.get(shape[1], shape[1])
    if tool == "web_search":
        return _by_rules(text, settings.judge(ToolUse(tool)), mode)
    access = _access(tool, shape[2], workspace)
    verdict = settings.judge(use_of(access, workspace))
    person = _Declines()
    gate = PolicyGate(workspace, mode, person, settings=settings)
    try:
        await gate.authorize(access)
    except PermissionDenied as exc:
        if person.asked is not None:
            return CheckResult(text, verdict, mode, "ask", f"asks: {person.asked.reason}")
        return CheckResult(text, verdict, mode, "deny", str(exc))
    match verdict:
        case Allow(rules=rules):
            because = ", ".join(f"{r.canonical} in {r.source}" for r in rules)
            plural = "s" if len(rules) > 1 else ""
            return CheckResult(
                text, verdict, mode, "allow", f"allowed by the rule{plural} {because}"
            )
        case _:
            return CheckResult(
                text,
                verdict,
                mode,
                "allow",
                f"allowed: no rule decides and {mode} mode lets it pass",
            )


def _by_rules(text: str, verdict: Verdict, mode: PolicyMode) -> CheckResult:
    match verdict:
        case Deny(rule=rule):
            return CheckResult(text, verdict, mode, "deny", f"denied by the {rule.describe()}")
        case Ask(rule=rule):
            return CheckResult(text, verdict, mode, "ask", f"asks: the {rule.describe()} asks")
        case Allow(rules=rules):
            return CheckResult(
                text, verdict, mode, "allow", f"allowed by the {rules[0].describe()}"
            )
        case NoRule():
            outcome: Literal["allow", "ask"] = "allow" if mode == "auto" else "ask"
            return CheckResult(text, verdict, mode, outcome, f"no rule decides: {mode} mode does")


def _access(tool: str, specifier: str | None, workspace: Workspace) -> Access:
    if tool.startswith("mcp__"):
        return McpAccess(tool=tool, title=tool)
    if specifier is None or not specifier.strip():
        raise ValueError(f"{tool}(...) needs what to check: a command, a path or a URL")
    what = specifier.strip()
    if tool == "bash":
        return CommandAccess(command=what)
    if tool in _READERS or tool in ("edit", "write"):
        try:
            path = workspace.resolve(what)
        except ToolError as exc:
            raise ValueError(str(exc)) from None
        action: Literal["read", "edit"] = "read" if tool in _READERS else "edit"
        title = f"{action.capitalize()} {path}"
        return FileAccess(action, path, title, inside=workspace.contains(path), tool=tool)
    if tool == "web_fetch":
        url = what if "://" in what else f"https://{what.removeprefix('domain:')}/"
        host = urlsplit(url).hostname
        if not host:
            raise ValueError(f"{what!r} is not a URL or a host")
        return FetchAccess(url=url, host=host)
    match tool:
        case "task" | "skill":
            return NamedAccess(tool, what)
    raise ValueError(
        f"unknown tool {tool!r}: check bash, read, edit, write, grep, glob, "
        "web_fetch, web_search, task, skill or mcp__SERVER__TOOL"
    )
