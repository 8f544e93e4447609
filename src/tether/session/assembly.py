"""What a session is assembled from, read off its config: its tools, agents and skills, the
sandbox its hooks run in, the thinking level its log last recorded, the model that reads
fetched pages."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from tether.agents import AgentCatalog, load_agents
from tether.errors import ModelError
from tether.models.base import Model
from tether.models.messages import ThinkingLevel
from tether.models.thinking import parse_level
from tether.policy import PolicyGate
from tether.sandbox.policy import SandboxPolicy
from tether.session.config import SessionConfig
from tether.session.runner import trusted
from tether.settings import Settings
from tether.settings.effective import sandbox_policy
from tether.skills import SkillCatalog, load_skills
from tether.tools.base import Tool
from tether.tools.bash.tool import BashTool
from tether.tools.registry import ToolRegistry
from tether.tools.skill import SkillTool
from tether.tools.task import TaskTool

__all__ = [
    "delegates",
    "hook_sandbox",
    "logged_level",
    "page_model",
    "session_tools",
    "with_skills",
]

# Its warnings are part of setting a session up: they keep the logger of `Session`.
log = logging.getLogger("tether.session.session")


def session_tools(
    config: SessionConfig, cwd: Path, user_dir: Path, gate: PolicyGate
) -> tuple[AgentCatalog | None, SkillCatalog, list[Tool[Any, Any]]]:
    """The agents a session's `task` calls may start (`None`: it has no `task` tool), its
    skills, and its tools offering both."""
    catalog = None
    if delegates(config.tools):
        catalog = config.agents or load_agents(cwd, user_dir, trusted=trusted(gate))
    tools = [
        TaskTool(catalog.summaries()) if isinstance(t, TaskTool) and catalog else t
        for t in config.tools
    ]
    skills, tools = with_skills(tools, config, cwd, user_dir)
    return catalog, skills, tools


def hook_sandbox(tools: ToolRegistry, settings: Settings | None) -> SandboxPolicy:
    """The sandbox hooks run in: the one the session's commands run in now."""
    bash = tools.get("bash")
    if isinstance(bash, BashTool):
        return bash.sandbox
    try:
        return sandbox_policy(settings) if settings is not None else SandboxPolicy.from_env()
    except ValueError:
        return SandboxPolicy()  # a bad $TETHER_SANDBOX: the default, as commands would fail


def with_skills(
    tools: list[Tool[Any, Any]], config: SessionConfig, cwd: Path, user_dir: Path
) -> tuple[SkillCatalog, list[Tool[Any, Any]]]:
    """The session's skills, and its tools with a `skill` tool that loads them (offered to the
    model only when there are skills; it still shows the cards of skills loaded before)."""
    given = next((t for t in tools if isinstance(t, SkillTool)), None)
    if given is None:
        return config.skills or SkillCatalog({}), tools
    if len(given.catalog):
        return given.catalog, tools  # a child's: its parent's tool
    catalog = config.skills or load_skills(cwd, user_dir)
    return catalog, [SkillTool(catalog) if t is given else t for t in tools]


def delegates(tools: ToolRegistry) -> bool:
    """Whether the tools include `task` (so the session may start agents)."""
    return any(isinstance(tool, TaskTool) for tool in tools)


def logged_level(value: str | None) -> ThinkingLevel:
    """The thinking level a log last recorded; `off` when none (or one this code does not know)."""
    if value is None:
        return "off"
    try:
        return parse_level(value)
    except ValueError:
        log.warning("the log's thinking level %r is unknown; thinking is off", value)
        return "off"


def page_model(config: SessionConfig) -> Model | None:
    """The model `webFetch.model` names, if it names one that can be made (the session's to
    close)."""
    spec = config.web_fetch_model
    if spec is None or config.models is None:
        return None
    try:
        model = config.models(spec)
    except ModelError as exc:
        log.warning(
            "webFetch.model %s cannot be used (%s): pages are read by the session's model",
            spec,
            exc,
        )
        return None
    return model
