"""Which agents a session offers: the built-in ones, then the files of the user and the project.

Files are read from `$TETHER_HOME/agents/` (the user's), then `.claude/agents/` and
`.tether/agents/` in the workspace (the project's, in Claude Code's format and tether's); a
later definition of a name replaces an earlier one, built-in ones included. A file that
cannot be used is reported (a warning naming the file and what is wrong) and skipped.

A workspace is untrusted: its agent files are read without following symlinks (a link
cannot turn a file outside the workspace into a system prompt), and an agent can never do
more than its parent, whatever its file says (its tools are a subset of the parent's, its
model is one of the parent's provider, and the parent's policy decides for it).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from tether.agents.builtin import BUILTIN_AGENTS
from tether.agents.definition import AgentDefinition, AgentScope
from tether.agents.files import AgentFileError, read_agent_file
from tether.tools.delegate import AgentSummary

__all__ = ["AGENTS_DIRS", "MAX_AGENT_FILES", "AgentCatalog", "AgentProblem", "load_agents"]

log = logging.getLogger(__name__)

AGENTS_DIRS: tuple[Path, ...] = (Path(".claude") / "agents", Path(".tether") / "agents")
"""Where a workspace keeps agent files, the later winning a name both define."""
MAX_AGENT_FILES = 100
"""Files read from one folder, in name order; more are reported and left out."""


@dataclass(frozen=True)
class AgentProblem:
    """A file or folder of agents that was skipped: where, and the message saying why."""

    path: Path
    message: str


@dataclass(frozen=True)
class AgentCatalog:
    """The agents by name, in the order the model sees them, and the files that were skipped."""

    agents: dict[str, AgentDefinition] = field(default_factory=dict)
    problems: tuple[AgentProblem, ...] = ()
    """One per file or folder that could not be used."""

    def get(self, name: str) -> AgentDefinition | None:
        """The agent called `name`, if any."""
        return self.agents.get(name)

    def names(self) -> list[str]:
        """Every agent's name."""
        return list(self.agents)

    def summaries(self) -> tuple[AgentSummary, ...]:
        """Name and description of every agent, for the `task` tool's description."""
        return tuple(AgentSummary(a.name, a.description) for a in self.agents.values())

    def unavailable(self, name: str) -> str | None:
        """Why an agent file of that name was skipped, if one was."""
        for problem in self.problems:
            if problem.path.suffix == ".md" and problem.path.stem == name:
                return problem.message
        return None


def load_agents(workspace: Path, home: Path | None) -> AgentCatalog:
    """The built-in agents, then the user's and the project's files (bad ones reported)."""
    found: dict[str, AgentDefinition] = {agent.name: agent for agent in BUILTIN_AGENTS}
    problems: list[AgentProblem] = []
    folders: list[tuple[Path, AgentScope]] = []
    if home is not None:
        folders.append((home / "agents", "user"))
    folders.extend((workspace / relative, "project") for relative in AGENTS_DIRS)
    for folder, scope in folders:
        for agent in _read_folder(folder, scope, workspace, problems):
            replaced = found.get(agent.name)
            if replaced is not None and replaced.scope == "built-in":
                log.info("%s replaces the built-in agent %s", agent.source, agent.name)
            found[agent.name] = agent
    for problem in problems:
        log.warning("agent skipped: %s", problem.message)
    builtin = [a.name for a in BUILTIN_AGENTS]
    order = [*builtin, *sorted(n for n in found if n not in builtin)]
    return AgentCatalog({name: found[name] for name in order}, tuple(problems))


def _read_folder(
    folder: Path, scope: AgentScope, workspace: Path, problems: list[AgentProblem]
) -> list[AgentDefinition]:
    project = scope == "project"
    try:
        if not folder.is_dir():
            return []
        if project and not folder.resolve().is_relative_to(workspace.resolve()):
            message = f"{folder}: leads outside the workspace; its agents are not read"
            problems.append(AgentProblem(folder, message))
            return []
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".md")
    except OSError as exc:
        problems.append(AgentProblem(folder, f"{folder}: cannot be listed: {exc.strerror or exc}"))
        return []
    if len(paths) > MAX_AGENT_FILES:
        message = f"{folder}: more than {MAX_AGENT_FILES} agent files; the rest are left out"
        problems.append(AgentProblem(folder, message))
        paths = paths[:MAX_AGENT_FILES]
    agents = []
    for path in paths:
        try:
            agents.append(read_agent_file(path, scope, follow_symlinks=not project))
        except AgentFileError as exc:
            problems.append(AgentProblem(path, str(exc)))
    return agents
