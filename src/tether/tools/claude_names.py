"""Claude Code's names for tether's tools: the calls of models trained on Claude Code, and
files written for it (agents' `tools`, hooks' matchers and inputs, skills' `allowed-tools`)."""

from __future__ import annotations

__all__ = ["CLAUDE_TOOL_NAMES", "claude_tool_name", "tether_tool_name"]

CLAUDE_TOOL_NAMES: dict[str, str] = {
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "multi_edit",
    "Grep": "grep",
    "Glob": "glob",
    "LS": "ls",
    "Bash": "bash",
    "BashOutput": "bash_output",
    "KillShell": "kill_shell",
    "KillBash": "kill_shell",
    "WebFetch": "web_fetch",
    "WebSearch": "web_search",
    "TodoWrite": "todo",
    "Task": "task",
    "Agent": "task",
    "Skill": "skill",
    "NotebookRead": "read",
    "NotebookEdit": "notebook_edit",
    "ExitPlanMode": "exit_plan_mode",
}
"""Claude Code's tool names, as tether calls the same tools (the first of several is the one
tether reports as Claude Code's name). Only tools tether has are named: agent files read
this map to tell which of Claude Code's tools tether answers to."""


def claude_tool_name(tool: str) -> str:
    """Claude Code's name for a tool (`bash` → `Bash`), or the tool's own when it has none."""
    return next((claude for claude, ours in CLAUDE_TOOL_NAMES.items() if ours == tool), tool)


def tether_tool_name(name: str) -> str:
    """tether's name for a tool Claude Code calls `name` (`Read` → `read`), else `name`."""
    return CLAUDE_TOOL_NAMES.get(name, name)
