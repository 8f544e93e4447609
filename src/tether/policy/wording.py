"""How a permission question words an access: what it names, and the answers it offers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import assert_never

from tether.policy.asker import PermissionChoice
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

__all__ = ["describe", "permission_options"]

_COMMAND_SHOWN = 200
"""How much of a command a message quotes."""


def describe(access: Access) -> str:
    """`edit PATH`, `read PATH`, ``run `COMMAND` ``, `fetch URL`, `search the web for "Q"
    with PROVIDER` or `use TOOL`."""
    match access:
        case FileAccess(action=action, path=path):
            return f"{action} {path}"
        case CommandAccess(command=command):
            return f"run `{_shown(command)}`"
        case UnsandboxedAccess(command=command):
            return f"run `{_shown(command)}` outside the sandbox"
        case FetchAccess(url=url):
            return f"fetch {url}"
        case SearchAccess(query=query, provider=provider):
            return f'search the web for "{_shown(query)}" with {provider}'
        case McpAccess(title=title):
            return f"use {title}"
        case NamedAccess(tool="task", name=name):
            return f"start the agent {name}"
        case NamedAccess(name=name):
            return f"load the skill {name}"
        case _:
            assert_never(access)


def _shown(command: str) -> str:
    return command[:_COMMAND_SHOWN] + "..." if len(command) > _COMMAND_SHOWN else command


def permission_options(
    access: Access, workspace: Workspace, rules: Sequence[str] = ()
) -> tuple[PermissionChoice, ...]:
    """Allow once, always for this session (saying exactly what that covers), always for
    this project when `rules` would be written for it, reject."""
    project = (
        (PermissionChoice("allow_project", f"Always allow {', '.join(rules)} for this project"),)
        if rules
        else ()
    )
    return (
        PermissionChoice("allow_once", "Allow once"),
        PermissionChoice("allow_always", f"Always allow {_scope(access, workspace)}"),
        *project,
        PermissionChoice("reject", "Reject"),
    )


def _scope(access: Access, workspace: Workspace) -> str:
    """Exactly what `allow_always` covers, as its option says it."""
    match access:
        case FileAccess(action="edit", path=path):
            return f"edits of {_where(path, workspace)} for this session"
        case FileAccess(path=path):
            return f"reading {_where(path, workspace)} for this session"
        case CommandAccess(command=command):
            return f"the command `{_shown(command)}` for this session"
        case UnsandboxedAccess(command=command):
            return f"the command `{_shown(command)}` outside the sandbox for this session"
        case FetchAccess(host=host):
            return f"fetching from {host} for this session"
        case SearchAccess():
            return "web searches for this session"
        case McpAccess(title=title):
            return f"the tool {title} for this session"
        case NamedAccess(tool="task", name=name):
            return f"the agent {name} for this session"
        case NamedAccess(name=name):
            return f"the skill {name} for this session"
        case _:
            assert_never(access)


def _where(path: Path, workspace: Workspace) -> str:
    """A path as people name it: relative to the workspace root when it lies inside."""
    if path.is_relative_to(workspace.cwd) and path != workspace.cwd:
        return str(path.relative_to(workspace.cwd))
    return str(path)
