"""Which agents a session offers: the built-in ones, then the files of the user and the project.

Files are read from `$TETHER_HOME/agents/` and Claude Code's `~/.claude/agents/`
(`$CLAUDE_CONFIG_DIR/agents/`: the user's), then `.claude/agents/` and `.tether/agents/` in the
workspace (the project's, in Claude Code's format and tether's), sub-folders included (a
folder only sorts files: the agent's name is its `name`); a later definition of a name
replaces an earlier one. A file that cannot be used is reported (a warning naming the file and
what is wrong) and skipped; what a usable file says that tether does not use is a warning too.

A project's file does not replace a built-in agent until the workspace is trusted: a cloned
repository's `.claude/agents/explore.md` must not turn the read-only `explore` into an agent
that writes.

A workspace is untrusted: its agent files are read without following symlinks (a link
cannot turn a file outside the workspace into a system prompt), and an agent can never do
more than its parent, whatever its file says (its tools are a subset of the parent's, its
model is one of the parent's provider, and the parent's policy decides for it).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from tether.agents.builtin import BUILTIN_AGENTS
from tether.agents.definition import AgentDefinition, AgentScope
from tether.agents.files import read_agent_file
from tether.errors import AgentFileError
from tether.frontmatter import log_once
from tether.home import claude_home
from tether.tools.delegate import AgentSummary

__all__ = ["AGENTS_DIRS", "MAX_AGENT_FILES", "AgentCatalog", "AgentProblem", "load_agents"]

log = logging.getLogger(__name__)

AGENTS_DIRS: tuple[Path, ...] = (Path(".claude") / "agents", Path(".tether") / "agents")
"""Where a workspace keeps agent files, the later winning a name both define."""
MAX_AGENT_FILES = 100
"""Files read from one folder and its sub-folders, in path order; more are reported and left
out."""
_MAX_DEPTH = 8


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
    warnings: tuple[str, ...] = ()
    """What the files that are used say that tether does not use, or does not use yet."""

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


def load_agents(
    workspace: Path, home: Path | None, *, trusted: bool = False, claude: Path | None = None
) -> AgentCatalog:
    """The built-in agents, then the user's and the project's files (bad ones reported).

    `claude` is Claude Code's user folder (`None`: `$CLAUDE_CONFIG_DIR`, else `~/.claude`);
    until the workspace is `trusted` a project's file cannot replace a built-in agent.
    """
    found: dict[str, AgentDefinition] = {agent.name: agent for agent in BUILTIN_AGENTS}
    problems: list[AgentProblem] = []
    folders: list[tuple[Path, AgentScope]] = []
    if home is not None:
        folders.append((home / "agents", "user"))
    folders.append(((claude or claude_home()) / "agents", "user"))
    folders.extend((workspace / relative, "project") for relative in AGENTS_DIRS)
    seen: set[Path] = set()
    for folder, scope in folders:
        real = Path(os.path.realpath(folder))
        if real in seen:  # $TETHER_HOME may be ~/.claude, or the workspace your home
            continue
        seen.add(real)
        for agent in _read_folder(folder, scope, workspace, problems):
            replaced = found.get(agent.name)
            if replaced is not None and replaced.scope == "built-in":
                if scope == "project" and not trusted:
                    message = (
                        f"{agent.source}: {agent.name} is a built-in agent; the workspace's "
                        "file replaces it once the workspace is trusted (`tether permissions "
                        "trust`)"
                    )
                    problems.append(AgentProblem(folder, message))
                    continue
                log.info("%s replaces the built-in agent %s", agent.source, agent.name)
            found[agent.name] = agent
    for problem in problems:
        log.warning("agent skipped: %s", problem.message)
    builtin = [a.name for a in BUILTIN_AGENTS]
    order = [*builtin, *sorted(n for n in found if n not in builtin)]
    agents = {name: found[name] for name in order}
    warnings = tuple(w for agent in agents.values() for w in agent.warnings)
    for warning in warnings:
        log_once(log, f"agent: {warning}")
    return AgentCatalog(agents, tuple(problems), warnings)


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
        paths = _agent_paths(folder, follow=not project)
    except OSError as exc:
        problems.append(AgentProblem(folder, f"{folder}: cannot be listed: {exc.strerror or exc}"))
        return []
    if len(paths) > MAX_AGENT_FILES:
        message = f"{folder}: more than {MAX_AGENT_FILES} agent files; the rest are left out"
        problems.append(AgentProblem(folder, message))
        paths = paths[:MAX_AGENT_FILES]
    agents = []
    # A project's files are opened beneath the workspace, following no link on the way: a
    # sub-folder swapped for one while they are read could bring in a file from elsewhere.
    real = Path(os.path.realpath(folder))
    for path in paths:
        try:
            if project:
                opened = real / path.relative_to(folder)
                beneath = (workspace.resolve(),)
                agents.append(read_agent_file(opened, scope, beneath=beneath, shown=path))
            else:
                agents.append(read_agent_file(path, scope, follow_symlinks=True))
        except AgentFileError as exc:
            problems.append(AgentProblem(path, str(exc)))
    return agents


def _agent_paths(folder: Path, *, follow: bool) -> list[Path]:
    """The `.md` files of `folder` and its sub-folders, in path order. A project's linked
    sub-folders are not entered: a link could make a folder elsewhere the project's."""
    found: list[Path] = []
    for top, folders, files in os.walk(folder, followlinks=follow):
        depth = len(Path(top).relative_to(folder).parts)
        folders[:] = sorted(f for f in folders if not f.startswith(".") and depth < _MAX_DEPTH)
        found.extend(Path(top) / name for name in files if name.endswith(".md"))
        if len(found) > MAX_AGENT_FILES * 4:
            break  # enough to say there are too many, without walking a huge tree
    return sorted(found, key=lambda p: p.relative_to(folder).parts)
