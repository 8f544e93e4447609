"""Child sessions: what a `task` call starts, runs and reports (the session's `Delegate`).

A child is an ordinary session with its own log, whose header names its parent and the call
that started it. It works in its parent's workspace with its parent's settings, under its
parent's policy (the same mode and rules, the same "always allow" answers), asking through
its parent's asker with questions that name the agent (`DelegatedAccess`). Its
tools are its agent's, taken from its parent's; its model is its agent's or its parent's.

At most `MAX_RUNNING` children of one session run at once; the others wait for a slot. A
child may start children of its own only when its agent names `task`, down to `MAX_DEPTH`.
Cancelling the parent cancels its children at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Protocol

from tether.agents import CHILD_PREAMBLE, AgentCatalog, AgentDefinition, child_tools
from tether.agents.preload import agent_prompt
from tether.content import ContentBlock, TextContent
from tether.errors import ModelError, PromptFailed, ToolError
from tether.models.base import Model
from tether.models.messages import ThinkingLevel
from tether.policy import (
    PermissionAsker,
    PolicyGate,
    PolicyMode,
)
from tether.session.child_asker import child_asker
from tether.session.child_steps import ChildSteps
from tether.session.config import SessionConfig
from tether.session.log.events import (
    AssistantMessageEvent,
    Event,
    ParentLink,
    TurnStop,
)
from tether.session.updates import ClientUpdate
from tether.session.usage import usage_report
from tether.skills import SkillCatalog
from tether.tools.delegate import (
    AgentSummary,
    ChildOutcome,
    ChildProgress,
    ChildRequest,
    ChildStop,
)
from tether.tools.registry import ToolRegistry

__all__ = ["ANTHROPIC_TIERS", "MAX_DEPTH", "MAX_RUNNING", "ChildSession", "Children", "StartChild"]

log = logging.getLogger(__name__)

MAX_RUNNING = 4
"""Children of one session that run at once; further `task` calls wait for a slot."""
MAX_DEPTH = 3
"""Sessions in a chain of `task` calls, the person's own included: agents that may start
agents stop there."""

ANTHROPIC_TIERS = {
    "sonnet": "anthropic:claude-sonnet-5-5",
    "opus": "anthropic:claude-opus-5-5",
    "haiku": "anthropic:claude-haiku-4-5",
}
"""Claude Code's model aliases, for a session on Anthropic (elsewhere they mean `inherit`)."""


class ChildSession(Protocol):
    """What the children need of a session (the `Session` class is one)."""

    @property
    def id(self) -> str:
        """The session id."""
        ...

    @property
    def events(self) -> Sequence[Event]:
        """Its log's events."""
        ...

    async def prompt(
        self, content: Sequence[ContentBlock], on_update: Callable[[ClientUpdate], None]
    ) -> TurnStop:
        """Run one prompt to its end."""
        ...

    def cancel(self) -> None:
        """Stop the running prompt now."""
        ...

    def set_mode(self, mode: PolicyMode) -> None:
        """Switch the policy mode."""
        ...

    def close(self) -> None:
        """Sync the log and release its lock."""
        ...

    async def close_connections(self) -> None:
        """Close the connections of the models it owns (not the one it was made with)."""
        ...


StartChild = Callable[[SessionConfig, ParentLink, str], ChildSession]
"""Creates a child session: (its config, its link to the parent, its title) -> the session."""


class Children:
    """The child sessions of one session: its `task` calls' `Delegate`."""

    def __init__(
        self,
        *,
        parent_id: str,
        config: SessionConfig,
        tools: ToolRegistry,
        gate: PolicyGate,
        model: Callable[[], Model],
        catalog: AgentCatalog,
        start: StartChild,
        skills: SkillCatalog | None = None,
        thinking: Callable[[], ThinkingLevel] | None = None,
    ) -> None:
        self._parent_id = parent_id
        self._thinking = thinking
        """The parent's thinking level now: what its children are asked to think at."""
        self._config = config
        self._tools = tools
        """The parent's own registry, MCP tools included: what a child's tools come from."""
        self._gate = gate
        self._model = model
        self.catalog = catalog
        self._skills = skills or SkillCatalog({})
        """What an agent's `skills:` preloads from."""
        self._start = start
        self._slots = asyncio.Semaphore(MAX_RUNNING)
        self._running: dict[str, ChildSession] = {}

    @property
    def may_delegate(self) -> bool:
        """Whether this session's children may start children of their own (depth allowing)."""
        return self._config.depth + 2 < MAX_DEPTH

    def agents(self) -> tuple[AgentSummary, ...]:
        """Every agent a task may name, `general` first."""
        return self.catalog.summaries()

    def set_mode(self, mode: PolicyMode) -> None:
        """The parent's mode changed: its running children follow."""
        for child in list(self._running.values()):
            child.set_mode(mode)

    async def run(
        self,
        request: ChildRequest,
        progress: Callable[[ChildProgress], None],
        cancelled: asyncio.Event,
        *,
        via: PermissionAsker | None = None,
    ) -> ChildOutcome:
        """Start a child for `request`, run its prompt, and say how it ended. Its questions
        go through `via` (the parent's turn's asker) or else the parent's gate's asker."""
        agent = self._agent(request.agent)
        model, inherited = self._child_model(agent, request.tool_call_id)
        steps = ChildSteps(agent.name, progress)
        request_cwd = self._gate.workspace.cwd
        config = dataclasses.replace(
            self._config,
            model=model,
            tools=child_tools(agent, self._tools, may_delegate=self.may_delegate),
            gate=self._gate.child(
                child_asker(via or self._gate.asker, agent.name, request, steps.views)
            ),
            role=f"{CHILD_PREAMBLE}\n\n{agent_prompt(agent, self._skills, request_cwd)}",
            depth=self._config.depth + 1,
            agent=agent.name,
            agents=self.catalog,
            context_window=self._config.context_window if inherited else None,
            # The parent's checkpoint after its `task` step covers what the child changed.
            checkpoints=False,
            thinking=self._thinking() if self._thinking is not None else None,
        )
        link = ParentLink(id=self._parent_id, call_id=request.tool_call_id)
        child = self._start(config, link, f"{agent.name}: {request.description}")
        steps.session_id = child.id
        self._running[child.id] = child
        try:
            steps.show("waiting for a free slot" if self._slots.locked() else "starting")
            async with self._slots:
                stop, error = await _prompt(child, request.prompt, steps, cancelled)
        except asyncio.CancelledError:
            # Cancelled while it waited for a slot: it never started, and says so.
            if not cancelled.is_set():
                raise
            _uncancel()
            stop, error = "cancelled", None
        finally:
            del self._running[child.id]
            child.close()
            await child.close_connections()
            if not inherited:  # built for this child here; an inherited one is the parent's
                await model.aclose()
        return ChildOutcome(
            agent=agent.name,
            session_id=child.id,
            summary=final_message(child.events),
            stop_reason=stop,
            tool_calls=steps.calls,
            usage=usage_report(child.events).total,
            error=error,
            refused=steps.refused,
        )

    def _agent(self, name: str) -> AgentDefinition:
        agent = self.catalog.get(name)
        if agent is not None:
            return agent
        skipped = self.catalog.unavailable(name)
        if skipped is not None:
            raise ToolError(f"The agent {name!r} is not available: {skipped}")
        known = ", ".join(self.catalog.names())
        raise ToolError(f"Unknown agent: {name!r}. Available agents: {known}")

    def _child_model(self, agent: AgentDefinition, call_id: str) -> tuple[Model, bool]:
        """The agent's model, of the parent's provider, else the parent's own (then `True`)."""
        parent = self._model()
        spec = agent.model
        kind = parent.name.partition(":")[0]
        if spec in ANTHROPIC_TIERS:
            if kind != "anthropic":
                log.info("agent %s asks for %s; it runs on %s", agent.name, spec, parent.name)
                return _inherited(parent, call_id), True
            spec = ANTHROPIC_TIERS[spec]
        if spec is None or spec == parent.name:
            return _inherited(parent, call_id), True
        where = f" ({agent.source})" if agent.source else ""
        if spec.partition(":")[0] != kind:
            raise ToolError(
                f"The agent {agent.name}{where} asks for the model {spec}, but this session's "
                f"provider is {kind}: agents run on the session's provider (give the agent "
                f"`model: inherit` or a {kind}:MODEL)"
            )
        if self._config.models is None:
            log.info("agent %s asks for %s; this session has only its own model", agent.name, spec)
            return _inherited(parent, call_id), True
        try:
            return self._config.models(spec), False
        except ModelError as exc:
            raise ToolError(f"The agent {agent.name}{where} cannot use {spec}: {exc}") from exc


def final_message(events: Sequence[Event]) -> str:
    """A child's report: the text of its last reply that said anything."""
    for event in reversed(events):
        if isinstance(event, AssistantMessageEvent) and event.text.strip():
            return event.text.strip()
    return ""


def _inherited(parent: Model, call_id: str) -> Model:
    # A script plays one conversation: a child plays the script its parent's gives its call.
    from tether.models.script import ScriptModel  # with the first child, not the session

    if isinstance(parent, ScriptModel):
        return parent.for_task(call_id)
    return parent


async def _prompt(
    child: ChildSession, prompt: str, steps: ChildSteps, cancelled: asyncio.Event
) -> tuple[ChildStop, str | None]:
    """Run the child's prompt; the person's cancel stops it at once and ends `cancelled`."""
    running = asyncio.ensure_future(child.prompt([TextContent(text=prompt)], steps))
    watcher = asyncio.ensure_future(cancelled.wait())
    watcher.add_done_callback(lambda done: None if done.cancelled() else child.cancel())
    try:
        try:
            stop: TurnStop = await asyncio.shield(running)
        except asyncio.CancelledError:
            # Stopped from outside: the child records its end and stops its tools first.
            child.cancel()
            await _settled(running)
            if not cancelled.is_set():
                raise
            _uncancel()
            return "cancelled", None
    except PromptFailed as exc:
        return "error", str(exc)
    except Exception as exc:  # the child logged it as an internal error; the parent goes on
        log.exception("child session %s failed", child.id)
        return "error", f"{type(exc).__name__}: {exc}"
    finally:
        watcher.cancel()
    return stop, None


async def _settled(task: asyncio.Future[TurnStop]) -> None:
    """Wait until the child's prompt has ended, through any further cancel; then pass those on."""
    again = False
    while not task.done():
        try:
            await asyncio.wait([task])
        except asyncio.CancelledError:
            again = True
    if not task.cancelled() and task.exception() is not None:
        task.exception()  # retrieved: the child logged its own failure
    if again:
        raise asyncio.CancelledError


def _uncancel() -> None:
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()
