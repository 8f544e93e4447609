"""The session's "always allow" answers: what each covers, in words, and taking one back."""

from __future__ import annotations

from typing import assert_never

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

__all__ = ["SessionAnswers"]


class SessionAnswers:
    """What "always allow" answers cover for the rest of the session (the project's too,
    which its rule file keeps beyond it); shared by the session and its agents."""

    def __init__(self) -> None:
        self._always: set[tuple[str, str]] = set()
        self._words: dict[tuple[str, str], str] = {}
        """The answers for this session alone, oldest first: what each covers, in words."""

    def cover(self, access: Access) -> bool:
        """Whether an answer given before covers `access`."""
        return _memory_key(access) in self._always

    def add(self, access: Access, what: str, *, listed: bool) -> None:
        """Remember an answer about `access` (`what`: it in words); `listed`: one of this
        session's own, which `listed()` names and `forget` may take back."""
        key = _memory_key(access)
        self._always.add(key)
        if listed:
            self._words[key] = what

    def listed(self) -> list[str]:
        """What this session's own answers cover, in words, oldest first."""
        return list(self._words.values())

    def forget(self, index: int) -> str | None:
        """Take back the answer at `index` of `listed()` (it asks again); what it covered."""
        keys = list(self._words)
        if not 0 <= index < len(keys):
            return None
        self._always.discard(keys[index])
        return self._words.pop(keys[index])


def _memory_key(access: Access) -> tuple[str, str]:
    """What an answer covers: the same action on the same resolved path (`read` and `edit`
    apart), the exact command (and, apart, unsandboxed), the host of a fetch, every web
    search, the MCP tool, or the agent or skill by name."""
    match access:
        case FileAccess(action=action, path=path):
            return (action, str(path))
        case CommandAccess(command=command):
            return ("execute", command)
        case UnsandboxedAccess(command=command):
            return ("unsandboxed", command)
        case FetchAccess(host=host):
            return ("fetch", host.lower())
        case SearchAccess():
            return ("search", "")
        case McpAccess(tool=tool):
            return ("mcp", tool)
        case NamedAccess(tool=tool, name=name):
            return (tool, name)
        case _:
            assert_never(access)
