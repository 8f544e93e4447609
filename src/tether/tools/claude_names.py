"""Claude Code's names for tether's tools, for files written for Claude Code: agents' `tools`,
hooks' matchers and inputs, skills' `allowed-tools`."""

from __future__ import annotations

__all__ = ["CLAUDE_TOOL_NAMES", "claude_tool_name"]

CLAUDE_TOOL_NAMES: dict[str, str] = {
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "edit",
    "Grep": "grep",
    "Glob": "glob",
    "LS": "glob",
    "Bash": "bash",
    "WebFetch": "web_fetch",
    "WebSearch": "web_search",
    "TodoWrite": "todo",
    "Task": "task",
    "Agent": "task",
    "Skill": "skill",
}
"""Claude Code's tool names, as tether calls the same tools."""


def claude_tool_name(tool: str) -> str:
    """Claude Code's name for a tool (`bash` → `Bash`), or the tool's own when it has none."""
    return next((claude for claude, ours in CLAUDE_TOOL_NAMES.items() if ours == tool), tool)
