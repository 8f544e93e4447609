"""A session: its event log, tools, policy, hooks and checkpoints; `loop` runs its prompts."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from pathlib import Path

from tether.agents import AgentCatalog
from tether.content import ContentBlock
from tether.errors import SessionBusy
from tether.hooks.guard import HookGuard, guard_path
from tether.models.base import Model
from tether.models.messages import ThinkingLevel
from tether.models.windows import context_window
from tether.policy import PolicyMode
from tether.session.answers import ModelAnswerer
from tether.session.asking import TurnAsking, turn_asking
from tether.session.assembly import hook_sandbox, logged_level, page_model, session_tools
from tether.session.children import Children
from tether.session.config import SessionConfig
from tether.session.context.window import Context
from tether.session.hooked import SessionHooks
from tether.session.jobcards import JobCards
from tether.session.log.eventlog import EventLog
from tether.session.log.events import (
    ParentLink,
    SessionConfigEvent,
    SessionTitle,
    TurnStop,
    UserMessageEvent,
)
from tether.session.log.shown import ShownBlock
from tether.session.log.store import SessionStore
from tether.session.loop import CANCELLED, INTERRUPTED, OnUpdate, PromptLoop, guarded, ignore
from tether.session.owned_models import OwnedModels
from tether.session.records import SessionRecords
from tether.session.replay import replay
from tether.session.rewind.checkpointing import Checkpoints
from tether.session.rewind.rewinder import Rewinder
from tether.session.runner import CallRunner, trusted
from tether.session.turn import Turn
from tether.session.updates import ClientUpdate
from tether.settings import Rule
from tether.tools.bash.jobs import Jobs
from tether.tools.registry import ToolRegistry

__all__ = ["CANCELLED", "INTERRUPTED", "Session", "SessionConfig"]

log = logging.getLogger(__name__)


class Session(SessionRecords):
    """One conversation in one workspace, backed by its log. Create or load it, then prompt."""

    def __init__(self, log_: EventLog, config: SessionConfig, user_dir: Path) -> None:
        # One guard for the session and its agents: what an agent writes counts as the session's.
        guard = config.hook_guard or HookGuard(guard_path(log_.path))
        config = dataclasses.replace(config, hook_guard=guard)
        workspace = config.workspace(log_.header.cwd)
        self.model = config.model
        paged = page_model(config)
        # The models it closes; a running child's own is its parent's `Children`'s.
        self._models = OwnedModels(config.model if config.depth == 0 else None, lasting=paged)
        self.models = config.models
        """Builds another model of the session's provider from a spec (`None`: none)."""
        self.gate = config.policy(workspace)
        catalog, self.skills, tools = session_tools(config, workspace.cwd, user_dir, self.gate)
        self.agents: AgentCatalog | None = catalog
        """The agents its `task` calls may start (`None`: it has no `task` tool)."""
        # A registry of its own: a session's MCP servers add their tools here, not to the config.
        self.tools = ToolRegistry(tools)
        child = log_.header.parent is not None
        self._hooks = SessionHooks(
            log_,
            self.gate,
            workspace,
            child=child,
            sandbox=lambda: hook_sandbox(self.tools, self.gate.settings),
            guard=guard,
            agent=config.agent,
        )
        self.workspace = workspace
        self._asks_hooks = config.gate is None
        self.max_steps = config.max_steps
        self._log = log_
        self._user_dir = user_dir
        self._children = (
            Children(
                parent_id=log_.header.id,
                config=config,
                tools=self.tools,
                gate=self.gate,
                model=lambda: self.model,
                catalog=catalog,
                start=self._start_child,
                skills=self.skills,
                thinking=lambda: self.thinking,
            )
            if catalog is not None
            else None
        )
        self.job_cards = JobCards(log_)
        """Background commands' cards as they change; a surface sets its `listener`."""
        self.jobs = Jobs(on_change=self.job_cards.changed)
        """The session's background commands: they end when the session does."""
        self._calls = CallRunner(
            self.tools,
            workspace,
            self.gate,
            log_,
            delegate=self._children,
            answerer=ModelAnswerer((lambda: paged) if paged is not None else (lambda: self.model)),
            jobs=self.jobs,
            hooks=self._hooks,
            # A child asks through its parent's turn, which runs the hooks already.
            asks_hooks=self._asks_hooks,
            user_dir=user_dir,
        )
        self._context = Context(
            log_,
            model=config.model,
            tools=self.tools,
            workspace=workspace,
            user_dir=user_dir,
            budget=config.budget(),
            role=config.role,
            mode=lambda: self.gate.mode,
            background=lambda: [f"{job.id} (`{job.command}`)" for job in self.jobs.running()],
            host=config.host,
            trusted=lambda: trusted(self.gate),
            before_compact=lambda emit: self._hooks.pre_compact("auto", None, emit),
            after_summary=self._hooks.compacted,
            catalog=config.catalog,
        )
        self._catalog = config.catalog
        self._checkpoints = Checkpoints(
            log_, workspace, self.tools, user_dir, enabled=config.checkpoints
        )
        self.rewind = Rewinder(
            log_, self._checkpoints, busy=lambda: self.running, store=SessionStore(user_dir)
        )
        """Rewind, undo and redo of what the session's tools changed in the workspace."""
        self._loop = PromptLoop(
            log_,
            model=lambda: self.model,
            max_steps=lambda: self.max_steps,
            context=self._context,
            calls=self._calls,
            checkpoints=self._checkpoints,
            hooks=self._hooks,
            thinking=lambda: self.thinking,
        )
        self.thinking: ThinkingLevel = config.thinking or logged_level(self.configured("thinking"))
        """How hard the model is asked to think (a prompt's words may raise it for that prompt)."""
        self._turn: Turn | None = None
        self._window = config.context_window

    @classmethod
    def create(
        cls,
        store: SessionStore,
        cwd: Path,
        config: SessionConfig,
        session_id: str | None = None,
        *,
        parent: ParentLink | None = None,
        title: str | None = None,
    ) -> Session:
        """A new session in `cwd`, under `session_id` (from `store.new_id()`) or a fresh id.

        A child session names its `parent`; a `title` given now is kept (the first prompt's
        words do not replace it).
        """
        event_log = store.create(config.workspace(cwd).cwd, session_id, parent)
        try:
            session = cls(event_log, config, store.root)
            if title is not None:
                session._append(SessionTitle(title=title))
            if config.thinking not in (None, "off"):
                # The log says how hard the model was asked to think from the start.
                session._append(SessionConfigEvent(config_id="thinking", value=session.thinking))
        except BaseException:
            event_log.close()
            raise
        return session

    @classmethod
    def load(cls, store: SessionStore, session_id: str, config: SessionConfig) -> Session:
        """An existing session, locked for writing, ready to continue where it stopped."""
        event_log = store.open(session_id)
        try:
            session = cls(event_log, config, store.root)
            session._loop.close_interrupted()
            session.rewind.recover()
        except BaseException:
            event_log.close()
            raise
        return session

    @classmethod
    def fork(
        cls,
        store: SessionStore,
        source_id: str,
        prompt: int | None,
        config: SessionConfig,
        session_id: str | None = None,
    ) -> Session:
        """A new session that continues `source_id` from before its prompt `prompt` (`None`:
        from now); the original is untouched. `RewindError` names the prompts there are."""
        event_log = store.fork(source_id, prompt, session_id)
        try:
            return cls(event_log, config, store.root)
        except BaseException:
            event_log.close()
            raise

    @property
    def cwd(self) -> Path:
        """The workspace root."""
        return self.workspace.cwd

    def asking(self, emit: OnUpdate = ignore) -> TurnAsking:
        """Who the session's questions go to now, and the gate that asks them: with its
        `PermissionRequest` and `Notification` hooks first (not in a child's session), their
        notices to `emit` (a turn's calls get theirs from the call runner)."""
        hooks = self._hooks if self._asks_hooks else None
        return turn_asking(self.gate, self._children, hooks, emit)

    def replaces_cleared(self) -> None:
        """This session replaces one the person cleared (`/clear`): its first `SessionStart`
        hooks are told `clear` rather than `startup`."""
        self._hooks.start_source = "clear"

    def replay(self) -> list[ClientUpdate]:
        """The updates a client saw live, derived from the log (progress is live only)."""
        cwd = str(self.workspace.cwd)
        budget = self._context.budget
        return replay(self._log.events, self.tools, cwd, budget.window, budget.compact_at)

    def set_mode(self, mode: PolicyMode) -> None:
        """Switch the policy mode (takes effect for the next permission decision).

        Running child sessions (agents of `task` calls) switch with it.
        """
        self.gate.mode = mode
        if self._children is not None:
            self._children.set_mode(mode)

    @property
    def running(self) -> bool:
        """Whether a prompt is running now."""
        return self._turn is not None

    def set_model(self, model: Model, *, record: bool = True) -> None:
        """Use `model` from the next request on, and own it (the one it leaves closes after the
        running prompt, if any); `record` logs it so a load picks it again."""
        self.model = model
        self._context.use(model, self._window or context_window(model.name, self._catalog))
        self._models.adopt(model)
        if self._turn is None:
            self._models.drop_soon(model)
        if record:
            self._append(SessionConfigEvent(config_id="model", value=model.name))

    def set_thinking(self, level: ThinkingLevel, *, record: bool = True) -> None:
        """Ask for `level` from the next prompt on; `record` logs it so a load keeps it."""
        self.thinking = level
        if record:
            self._append(SessionConfigEvent(config_id="thinking", value=level))

    def cancel(self) -> None:
        """Stop the model stream and the running tools now; the prompt returns `cancelled`."""
        if self._turn is not None:
            self._turn.cancel()

    def close(self) -> None:
        """Kill the background commands, sync the log and release the session's lock (see
        `aclose` for `SessionEnd`, for stopping the commands gently and closing its models)."""
        # Its models stay open: a model's pool belongs to the event loop that opened it, which
        # has ended when no loop runs here, and a close started while one runs would be a task
        # no one awaits (cancelled half-done as its loop ends, racing `aclose`'s own close).
        self.jobs.close_now()
        self._log.close()

    async def aclose(self, reason: str = "other", on_update: OnUpdate | None = None) -> None:
        """Run the `SessionEnd` hooks (`reason` as Claude Code names it: `clear`, `logout`,
        `prompt_input_exit`, `other`; their notices to `on_update`), then close."""
        try:
            if not self._log.closed:
                emit = guarded(on_update) if on_update is not None else ignore
                await self._hooks.end(reason, emit)
        finally:
            await self.jobs.aclose()
            self.close()
            await self._models.aclose()

    async def close_connections(self) -> None:
        """Close its models' pools before the event loop that opened them ends."""
        await self._models.close_connections()

    async def prompt(
        self,
        content: Sequence[ContentBlock],
        on_update: OnUpdate,
        *,
        shown: Sequence[ShownBlock] | None = None,
        grants: Sequence[Rule] = (),
        model: Model | None = None,
    ) -> TurnStop:
        """Run one prompt to its end; a model failure is recorded, then raised as `PromptFailed`.

        `shown` is the prompt as the client sent it, when that differs from what the model sees.
        `grants` are allow rules for this prompt alone, and `model` answers it (a slash
        command's `allowed-tools` and `model`); both end with it (the session closes `model`).
        """
        if self._turn is not None:
            raise SessionBusy(f"session {self.id} is already running a prompt")
        emit = guarded(on_update)
        said = UserMessageEvent(content=tuple(content), shown=tuple(shown) if shown else None)
        self._turn = Turn()
        granted, current = self.gate.granted, self.model
        self.gate.granted = (*granted, *grants)
        if model is not None:
            self.set_model(model, record=False)
        try:
            return await self._turn.run(lambda turn: self._loop.run(said, emit, turn))
        finally:
            self._turn = None
            self.gate.granted = granted
            if model is not None and self.model is model:  # not switched meanwhile
                self.set_model(current, record=False)
            await self._models.drop(self.model)  # what it left: a switch, a command's model

    @property
    def window(self) -> int:
        """The tokens the model's context holds."""
        return self._context.budget.window

    def _start_child(self, config: SessionConfig, link: ParentLink, title: str) -> Session:
        store = SessionStore(self._user_dir)
        return Session.create(store, self.workspace.cwd, config, parent=link, title=title)
