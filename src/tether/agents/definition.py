"""An agent: a name, what it is for, its system prompt, its tools and its model."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["AgentDefinition", "AgentScope"]

AgentScope = Literal["built-in", "user", "project"]
"""Where a definition comes from: tether itself, `$TETHER_HOME/agents/` and `~/.claude/agents/`,
or the workspace."""


@dataclass(frozen=True)
class AgentDefinition:
    """What a child session runs with, besides its parent's workspace, settings and policy."""

    name: str
    description: str
    """What the agent is for, as the `task` tool lists it to the model."""
    prompt: str
    """Its system prompt (the body of its file)."""
    tools: tuple[str, ...] | None = None
    """The tools it may use, by tether's names; `None`: every tool its parent has. Naming
    `task` lets it start agents of its own."""
    model: str | None = None
    """A `--model` spec of the parent's provider, or `sonnet`/`opus`/`haiku`; `None`: the
    parent's model."""
    disallowed: tuple[str, ...] = ()
    """Tools it may not use, by tether's names (Claude Code's `disallowedTools`), taken from
    `tools` or from its parent's."""
    skills: tuple[str, ...] = ()
    """Skills whose whole text is in its system prompt from the start (Claude Code's `skills`)."""
    color: str | None = None
    """The colour its cards are marked with (Claude Code's `color`)."""
    read_only: bool = False
    """Commands only in the read-only sandbox, never outside it (the built-in `explore`)."""
    scope: AgentScope = "built-in"
    source: Path | None = None
    """The file it was read from (`None` for a built-in agent)."""
    warnings: tuple[str, ...] = ()
    """What of its file is not used as written: each names the file, the key and why."""

    @property
    def delegates(self) -> bool:
        """Whether the agent may start agents itself (its `tools` name `task`)."""
        return self.tools is not None and "task" in self.tools and "task" not in self.disallowed
