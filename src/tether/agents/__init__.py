"""Agents a `task` call can start: the built-in `general`, `explore` and `plan`, and agent
files."""

from typing import TYPE_CHECKING

from tether.lazy import lazy_names

if TYPE_CHECKING:
    from tether.agents.builtin import BUILTIN_AGENTS, CHILD_PREAMBLE, EXPLORE, GENERAL
    from tether.agents.catalog import (
        AGENTS_DIRS,
        MAX_AGENT_FILES,
        AgentCatalog,
        AgentProblem,
        load_agents,
    )
    from tether.agents.definition import AgentDefinition, AgentScope
    from tether.agents.files import (
        CLAUDE_TOOL_NAMES,
        MAX_AGENT_FILE_BYTES,
        parse_agent_file,
        read_agent_file,
    )
    from tether.agents.report import agents_text
    from tether.agents.toolset import ReadOnlyBash, child_tools

__all__ = [
    "AGENTS_DIRS",
    "BUILTIN_AGENTS",
    "CHILD_PREAMBLE",
    "CLAUDE_TOOL_NAMES",
    "EXPLORE",
    "GENERAL",
    "MAX_AGENT_FILES",
    "MAX_AGENT_FILE_BYTES",
    "AgentCatalog",
    "AgentDefinition",
    "AgentProblem",
    "AgentScope",
    "ReadOnlyBash",
    "agents_text",
    "child_tools",
    "load_agents",
    "parse_agent_file",
    "read_agent_file",
]

__getattr__ = lazy_names(
    __name__,
    {
        "BUILTIN_AGENTS": "tether.agents.builtin",
        "CHILD_PREAMBLE": "tether.agents.builtin",
        "EXPLORE": "tether.agents.builtin",
        "GENERAL": "tether.agents.builtin",
        "AGENTS_DIRS": "tether.agents.catalog",
        "MAX_AGENT_FILES": "tether.agents.catalog",
        "AgentCatalog": "tether.agents.catalog",
        "AgentProblem": "tether.agents.catalog",
        "load_agents": "tether.agents.catalog",
        "AgentDefinition": "tether.agents.definition",
        "AgentScope": "tether.agents.definition",
        "CLAUDE_TOOL_NAMES": "tether.agents.files",
        "MAX_AGENT_FILE_BYTES": "tether.agents.files",
        "parse_agent_file": "tether.agents.files",
        "read_agent_file": "tether.agents.files",
        "ReadOnlyBash": "tether.agents.toolset",
        "agents_text": "tether.agents.report",
        "child_tools": "tether.agents.toolset",
    },
)
