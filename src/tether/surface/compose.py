"""The one composition root: a session's configuration, built from the workspace's settings.

`tether run`, the interactive terminal, ACP and `tether batch` each call `session_config`
with the settings they loaded and their `Launch`; none builds a `SessionConfig` or a tool
registry of its own. So a new setting that shapes a session is read here once, and every
surface has it (`tests/surface/test_compose.py` pins that no other module builds one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tether.agents import AgentCatalog
from tether.models.base import Model
from tether.policy import PermissionAsker, PolicyMode
from tether.session.config import SessionConfig
from tether.session.limits import DEFAULT_MAX_STEPS
from tether.settings import Settings
from tether.settings.effective import (
    effective_mode,
    extra_roots,
    model_catalog,
    model_spec,
    sandbox_policy,
    search_setup,
    thinking_level,
    tool_env,
    web_fetch_model,
)
from tether.skills import SkillCatalog
from tether.surface.launch import Launch
from tether.tools.bash.tool import BashTool
from tether.tools.defaults import default_tools
from tether.tools.registry import ToolRegistry
from tether.tools.web import WebSearchTool

__all__ = ["first_model", "session_config", "session_tools", "settle_tools"]


def session_config(
    settings: Settings,
    launch: Launch,
    *,
    asker: PermissionAsker | None,
    model: Model | None = None,
    models: Callable[[str], Model] | None = None,
    mode: PolicyMode | None = None,
    roots: Sequence[Path] = (),
    agents: AgentCatalog | None = None,
    skills: SkillCatalog | None = None,
) -> SessionConfig:
    """The configuration of a session in the workspace `settings` were read for.

    `asker` answers what the mode does not allow (`None`: it is refused). `model` is the
    model now (`None`: the one the settings name, built by `launch`), `models` builds an
    agent's or a switch's model (`None`: `launch.model`), `mode` the mode now (`None`: the
    settings'), `roots` the directories the client adds before the settings' own, `agents`
    and `skills` catalogs read elsewhere (`None`: the session reads the workspace's).
    """
    return SessionConfig(
        model=model if model is not None else first_model(settings, launch),
        tools=session_tools(settings, launch),
        mode=mode if mode is not None else effective_mode(settings),
        asker=asker,
        extra_roots=(*roots, *extra_roots(settings)),
        max_steps=launch.max_steps if launch.max_steps is not None else DEFAULT_MAX_STEPS,
        context_window=launch.context_window,
        compact_at=launch.compact_at,
        checkpoints=launch.checkpoints,
        settings=settings,
        thinking=thinking_level(settings),
        web_fetch_model=web_fetch_model(settings),
        catalog=model_catalog(settings),
        # An agent's own model is of the same provider: the same endpoint and key.
        models=models if models is not None else launch.model,
        agents=agents,
        skills=skills,
    )


def first_model(settings: Settings, launch: Launch) -> Model:
    """The model a session starts on: `--model`, `$TETHER_MODEL`, the settings', else the
    command's default (`ModelError` when no provider takes the spec)."""
    default = launch.default_model
    return launch.model(model_spec(settings, default if isinstance(default, str) else default()))


def session_tools(settings: Settings, launch: Launch) -> ToolRegistry:
    """Every tool, shaped by the settings: the sandbox, the commands' variables, the search
    backend (`ValueError` for a bad `$TETHER_SANDBOX`)."""
    return default_tools(
        sandbox_policy(settings),
        allow_private_fetch=launch.allow_private_fetch,
        env=tool_env(settings),
        web_search=search_setup(settings),
    )


def settle_tools(tools: ToolRegistry, settings: Settings) -> None:
    """Shape a live session's tools by settings that changed (the workspace became trusted):
    what `session_tools` reads of them, before the session's first request."""
    bash = tools.get("bash")
    if isinstance(bash, BashTool):
        bash.env = tool_env(settings)
        bash.sandbox = sandbox_policy(settings)
    search = tools.get("web_search")
    if isinstance(search, WebSearchTool):
        search.setup = search_setup(settings)
