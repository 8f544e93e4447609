"""What a session runs with: one object for creating and for loading a session."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tether.agents import AgentCatalog
from tether.hooks.guard import HookGuard
from tether.models.base import Model
from tether.models.catalog import ModelInfo
from tether.models.messages import ThinkingLevel
from tether.models.windows import context_window
from tether.policy import PermissionAsker, PolicyGate, PolicyMode
from tether.session.context.budget import Budget
from tether.session.context.environment_block import Host
from tether.session.limits import DEFAULT_COMPACT_AT, DEFAULT_MAX_STEPS
from tether.settings import Settings
from tether.skills import SkillCatalog
from tether.tools.registry import ToolRegistry
from tether.tools.workspace import Workspace

__all__ = ["SessionConfig"]
"""Model requests per prompt before it stops with `max_turn_requests`."""


@dataclass(frozen=True, kw_only=True)
class SessionConfig:
    """The model, tools and policy of a session."""

    model: Model
    tools: ToolRegistry
    mode: PolicyMode = "ask"
    asker: PermissionAsker | None = None
    """Who answers what the mode does not allow; `None` refuses it (a headless run)."""
    extra_roots: Sequence[Path] = ()
    max_steps: int = DEFAULT_MAX_STEPS
    context_window: int | None = None
    """Tokens the model's context holds; `None` looks the model up (`models.windows`)."""
    compact_at: float = DEFAULT_COMPACT_AT
    """The fraction of the window past which the session compacts before a request."""
    checkpoints: bool = True
    """Save the workspace before each prompt and after each step that may change files."""
    settings: Settings | None = None
    """The workspace's settings: permission rules and trust (`None`: the mode alone)."""
    models: Callable[[str], Model] | None = None
    """Builds a model of the session's provider from a `--model` spec (an agent's `model`);
    `None`: agents run on the session's own model."""
    web_fetch_model: str | None = None
    """The model `web_fetch` answers its `prompt` with (`webFetch.model`, a spec `models`
    resolves); `None`: the session's own."""
    gate: PolicyGate | None = None
    """The gate to use instead of a new one (a child's, sharing its parent's answers)."""
    role: str | None = None
    """What the system prompt adds about who the model is (a child's agent prompt)."""
    depth: int = 0
    """How many `task` calls deep this session runs (0: started by a person)."""
    agents: AgentCatalog | None = None
    """The agents `task` calls may start; `None`: read them from the workspace and the user's
    folder (a child gets its parent's)."""
    skills: SkillCatalog | None = None
    """The skills the `skill` tool loads; `None`: read them from the workspace and the user's
    folders (a child's `skill` tool is its parent's)."""
    host: Host | None = None
    """The machine and date the environment block states; `None`: this one, today."""
    thinking: ThinkingLevel | None = None
    """How hard the model is asked to think; `None`: as the log last said, else `off`."""
    catalog: Mapping[str, ModelInfo] | None = None
    """The settings' entries of the model catalog (`models`): windows and prices."""
    agent: str | None = None
    """The agent a child session runs as (its hooks' `agent_type`); `None` for a person's."""
    hook_guard: HookGuard | None = None
    """What the unsandboxed hooks read, as the person last saw it; `None`: a new session's
    own (a child gets its parent's, so an agent's writes count as the session's)."""

    def budget(self) -> Budget:
        """The context budget of the configured model."""
        window = self.context_window or context_window(self.model.name, self.catalog)
        return Budget(window, self.compact_at)

    def workspace(self, cwd: Path | str) -> Workspace:
        """The workspace rooted at `cwd`, with the extra roots."""
        return Workspace.at(Path(cwd), *self.extra_roots)

    def policy(self, workspace: Workspace) -> PolicyGate:
        """The gate the session's tools go through: the mode, asking the asker."""
        if self.gate is not None:
            return self.gate
        return PolicyGate(workspace, mode=self.mode, asker=self.asker, settings=self.settings)
