"""Between the policy and the settings: an access as rules see it, and the rule that would
allow it again (what "always allow for this project" writes)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import assert_never

from tether.errors import RuleError
from tether.settings import (
    Allow,
    CommandUse,
    FetchUse,
    FileUse,
    NoRule,
    Settings,
    ToolUse,
    Use,
    Verdict,
)
from tether.settings.paths import escape_pattern
from tether.tools.access import (
    Access,
    CommandAccess,
    FetchAccess,
    FileAccess,
    McpAccess,
    NamedAccess,
    SearchAccess,
    UnsandboxedAccess,
)
from tether.tools.workspace import Workspace

__all__ = ["project_rules", "use_of"]


def use_of(access: Access, workspace: Workspace) -> Use:
    """What rules judge about `access`."""
    match access:
        case FileAccess(action=action, path=path, tool=tool):
            return FileUse(tool or action, action, _resolved(path))
        case CommandAccess(command=command) | UnsandboxedAccess(command=command):
            return CommandUse(command, workspace.cwd, workspace.roots)
        case FetchAccess(host=host):
            return FetchUse(host)
        case SearchAccess():
            return ToolUse("web_search")
        case McpAccess(tool=tool):
            return ToolUse(tool)
        case NamedAccess(tool=tool, name=name):
            return ToolUse(tool, name)
        case _:
            assert_never(access)


def project_rules(access: Access, verdict: Verdict, settings: Settings) -> tuple[str, ...]:
    """The exact allow rules that would let `access` pass next time; `()` when none may
    (a command that always asks, one an ask rule covers, one outside the sandbox)."""
    if not isinstance(verdict, NoRule) or verdict.concerns:
        return ()
    match access:
        case FileAccess(action=action, path=path):
            texts: tuple[str, ...] = (f"{action}({_pattern(_resolved(path), settings.root)})",)
        case CommandAccess(sandbox_problem=None):
            if not verdict.uncovered or any(None in words for words in verdict.uncovered):
                return ()
            texts = tuple(
                f"bash({shlex.join(w for w in words if w is not None)})"
                for words in verdict.uncovered
            )
        case FetchAccess(host=host):
            texts = (f"web_fetch(domain:{host.lower().rstrip('.')})",)
        case SearchAccess():
            texts = ("web_search",)
        case McpAccess(tool=tool):
            texts = (tool,)
        case CommandAccess() | UnsandboxedAccess() | NamedAccess():
            return ()
        case _:
            assert_never(access)
    # Offer only rules that read back as written and together allow this very access.
    extended = settings
    for text in texts:
        try:
            extended = extended.with_rule(settings.parse_rule(text))
        except RuleError:
            return ()
    return texts if isinstance(extended.judge(_only(access, settings)), Allow) else ()


def _only(access: Access, settings: Settings) -> Use:
    match access:
        case CommandAccess(command=command) | UnsandboxedAccess(command=command):
            return CommandUse(command, settings.root, (settings.root,))
        case FileAccess() | FetchAccess() | SearchAccess() | McpAccess() | NamedAccess():
            return use_of(access, Workspace(settings.root))
        case _:
            assert_never(access)


def _pattern(path: Path, root: Path) -> str:
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        return escape_pattern(str(path))
    escaped = escape_pattern(relative)
    return escaped if "/" in escaped else f"./{escaped}"


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path
