"""Agents a `task` call can start: the built-in `general` and `explore`, and agent files."""

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
    AgentFileError,
    parse_agent_file,
    read_agent_file,
)
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
    "AgentFileError",
    "AgentProblem",
    "AgentScope",
    "ReadOnlyBash",
    "child_tools",
    "load_agents",
    "parse_agent_file",
    "read_agent_file",
]
