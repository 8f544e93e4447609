"""The model's context: builds each request from the log, keeps it in budget by compacting."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import assert_never

from tether.errors import ModelError
from tether.instructions import Instructions, load_instructions
from tether.models.base import Completed, Model, ModelRequest, TextDelta, ThinkingDelta, Usage
from tether.models.catalog import ModelInfo, cost_of, model_info
from tether.models.messages import AssistantMessage, ToolSpec
from tether.policy import PolicyMode
from tether.session.calls import close_stream, prepare
from tether.session.context.budget import Budget
from tether.session.context.compaction import (
    ModelView,
    model_view,
    prune_point,
    stub_text,
    summary_point,
    summary_request_messages,
)
from tether.session.context.environment_block import (
    Host,
    Snapshot,
    environment_block,
    take_snapshot,
)
from tether.session.context.system_prompt import system_prompt
from tether.session.log.eventlog import EventLog
from tether.session.log.events import (
    CompactionEvent,
    CompactionMethod,
    Event,
    ToolCallEvent,
    ToolResultEvent,
    UsageEvent,
)
from tether.session.replay import context_updates
from tether.session.updates import ClientUpdate
from tether.session.usage import sum_costs
from tether.tools.registry import ToolRegistry
from tether.tools.skill import SKILL_TOOL, SkillTool, skills_section
from tether.tools.workspace import Workspace

__all__ = ["Context"]

log = logging.getLogger(__name__)

OnUpdate = Callable[[ClientUpdate], None]


class Context:
    """What the model is sent: the system prompt, the tools and the compacted history."""

    def __init__(
        self,
        log_: EventLog,
        *,
        model: Model,
        tools: ToolRegistry,
        workspace: Workspace,
        user_dir: Path,
        budget: Budget,
        role: str | None = None,
        mode: Callable[[], PolicyMode] | None = None,
        background: Callable[[], Sequence[str]] | None = None,
        host: Host | None = None,
        trusted: Callable[[], bool] | None = None,
        before_compact: Callable[[OnUpdate], Awaitable[object]] | None = None,
        after_summary: Callable[[OnUpdate], Awaitable[object]] | None = None,
        catalog: Mapping[str, ModelInfo] | None = None,
    ) -> None:
        self.budget = budget
        self._catalog = catalog
        """The settings' own entries of the model catalog (prices, windows)."""
        self._before_compact = before_compact
        """Runs before each automatic compaction (the `PreCompact` hooks), their notices to
        the compacting turn's output."""
        self._after_summary = after_summary
        """Runs once a summary replaced the conversation (`SessionStart` hooks, `compact`),
        their notices to the turn's output."""
        self._role = role
        self._mode = mode
        self._background = background
        self._host = host
        self._snapshot: Snapshot | None = None
        self._log = log_
        self._model = model
        self._tools = tools
        self._workspace = workspace
        self._user_dir = user_dir
        self._stubs: dict[int, str] = {}
        self._trusted = trusted
        self._told: tuple[tuple[Path, ...], frozenset[str]] = ((), frozenset())
        self._view = ModelView(self._stub)
        """The model's view of the log, kept as the log grows."""
        self._specs_key: tuple[tuple[int, str], ...] | None = None
        self._specs: list[ToolSpec] = []

    def use(self, model: Model, window: int) -> None:
        """Send the next requests to `model`, whose context holds `window` tokens."""
        self._model = model
        self.budget.window = window
        self.budget.forget()  # another model counts tokens its own way

    def request(self, events: Sequence[Event] | None = None) -> ModelRequest:
        """The request for the model's view of `events` (the whole log by default)."""
        return ModelRequest(
            system=system_prompt(
                self._workspace,
                self._tools,
                self._user_dir,
                self._role,
                self._environment(),
                instructions=self._instructions(),
                skills=self._skills(),
                planning=self._mode is not None and self._mode() == "plan",
            ),
            messages=(
                self._view.messages(self._log.events)
                if events is None
                else model_view(events, self._stub)
            ),
            tools=self._tool_specs(),
        )

    def _tool_specs(self) -> list[ToolSpec]:
        """The offered tools as the model reads them; their schemas are made again only when
        the tools offered, or what they say of themselves, changed."""
        mode = self._mode() if self._mode is not None else None
        offered = [(t, t.describe()) for t in self._tools.offered(mode)]
        key = tuple((id(tool), described) for tool, described in offered)
        if key != self._specs_key:
            self._specs_key = key
            self._specs = [ToolSpec(t.name, said, t.parameters_schema()) for t, said in offered]
        return list(self._specs)

    def _skills(self) -> str | None:
        tool = self._tools.get(SKILL_TOOL)
        if isinstance(tool, SkillTool) and tool.unavailable() is None:
            return skills_section(tool.catalog)
        return None

    def _instructions(self) -> Instructions:
        """The instruction files now; which ones (and what was wrong) is logged when it changes."""
        trusted = self._trusted() if self._trusted is not None else False
        workspace = self._workspace
        found = load_instructions(workspace.cwd, workspace.roots, self._user_dir, trusted=trusted)
        paths = tuple(file.path for file in found.files)
        told_paths, told_problems = self._told
        if paths != told_paths:
            log.info("instructions: %s", ", ".join(map(str, paths)) or "none")
        for problem in found.problems:
            if problem not in told_problems:
                log.warning("%s", problem)
        self._told = (paths, told_problems | set(found.problems))
        return found

    async def ready(self, emit: OnUpdate, *, compact: bool = True) -> ModelRequest:
        """The next request, compacted first when its estimate passes the threshold."""
        await self._settle()
        request = self.request()
        if compact and self.budget.estimate(request) > self.budget.threshold:
            request = await self.compact(emit)
        estimate = self.budget.estimate(request)
        log.debug("request estimate: %d of %d tokens", estimate, self.budget.window)
        return request

    async def compact(self, emit: OnUpdate, *, forced: bool = False) -> ModelRequest:
        """Prune old results, then summarise if that leaves too little room (or `forced`)."""
        if self._before_compact is not None:
            await self._before_compact(emit)
        through = prune_point(self._log.events)
        if through is not None:
            self._record("prune", through, emit)
        request = self.request()
        if forced or self.budget.estimate(request) > self.budget.target:
            through = summary_point(self._log.events, everything=False)
            if through is not None and await self.summarise(through, None, emit):
                request = self.request()
        return request

    async def summarise(
        self, through: int, focus: str | None, emit: OnUpdate, *, asked: int | None = None
    ) -> bool:
        """Replace the messages up to `through` by the model's summary of those up to `asked`
        (`through` unless told: a `/compact` prompt is replaced, not summarised)."""
        events = [e for e in self._log.events if e.seq <= (through if asked is None else asked)]
        await self._settle()
        older = self.request(events)
        ask = ModelRequest(
            older.system, summary_request_messages(older.messages, focus), older.tools
        )
        reply, usage = await self._answer(ask)
        if usage is not None:
            self._log.append(self._usage_event(usage))
        summary = reply.text.strip()
        if not summary:
            log.warning("the model gave an empty summary; the context stays as it was")
            return False
        self._record("summary", through, emit, summary)
        if self._after_summary is not None:
            await self._after_summary(emit)
        return True

    def reported(
        self, request: ModelRequest, reply: AssistantMessage, usage: Usage | None, emit: OnUpdate
    ) -> None:
        """Log a response's usage and count the budget from it."""
        if usage is None:
            return
        previous = self._log.events[-1] if self._log.events else None
        event = self._log.append(self._usage_event(usage))
        self.budget.report(request, reply, usage)
        budget = self.budget
        for update in context_updates(
            event, previous, budget.window, budget.compact_at, self._spent()
        ):
            emit(update)

    async def _settle(self) -> None:
        # Once per session: git and the sandbox probe run in a thread, off the event loop.
        if self._snapshot is None and self._mode is not None:
            self._snapshot = await asyncio.to_thread(take_snapshot, self._workspace, self._host)

    def _environment(self) -> str | None:
        if self._snapshot is None or self._mode is None:
            return None
        return environment_block(
            self._workspace,
            self._snapshot,
            tools=self._tools,
            model=self._model.name,
            mode=self._mode(),
            background=self._background() if self._background is not None else (),
        )

    def _record(
        self, method: CompactionMethod, through: int, emit: OnUpdate, summary: str | None = None
    ) -> None:
        before = self.budget.estimate(self.request())
        after_events = [
            *self._log.events,
            CompactionEvent(
                method=method, before_tokens=0, after_tokens=0, summary=summary, through_seq=through
            ),
        ]
        if method == "summary":
            self.budget.forget()  # the reported usage no longer describes what is sent
        after = self.budget.estimate(self.request(after_events))
        event = self._log.append(
            CompactionEvent(
                method=method,
                before_tokens=before,
                after_tokens=after,
                summary=summary,
                through_seq=through,
            )
        )
        budget = self.budget
        for update in context_updates(event, None, budget.window, budget.compact_at, self._spent()):
            emit(update)

    async def _answer(self, request: ModelRequest) -> tuple[AssistantMessage, Usage | None]:
        # Only the final message counts: a summary streams to no one.
        stream = self._model.stream(request)
        try:
            async for event in stream:
                match event:
                    case TextDelta() | ThinkingDelta():
                        pass
                    case Completed(message=message, usage=usage):
                        return message, usage
                    case _:
                        assert_never(event)
        finally:
            await close_stream(stream)
        raise ModelError(f"the model {self._model.name} ended its stream without a message")

    def _spent(self) -> float | None:
        """What the session's responses cost so far, as the replay counts it."""
        return sum_costs([e.cost_usd for e in self._log.events if isinstance(e, UsageEvent)])

    def _usage_event(self, usage: Usage) -> UsageEvent:
        """The usage of a response of the current model, with its cost where its price is known."""
        return _usage_event(usage, cost_of(usage, model_info(self._model.name, self._catalog)))

    def _stub(self, call: ToolCallEvent, result: ToolResultEvent) -> str:
        # Every request rebuilds the view; a result's stub is made once.
        stub = self._stubs.get(result.seq)
        if stub is None:
            stub = self._stubs[result.seq] = stub_text(
                prepare(self._tools, call, str(self._workspace.cwd)), result, self._workspace.cwd
            )
        return stub


def _usage_event(usage: Usage, cost: float | None) -> UsageEvent:
    return UsageEvent(
        cost_usd=cost,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cached_read_tokens=usage.cached_read_tokens,
        cached_write_tokens=usage.cached_write_tokens,
        reasoning_tokens=usage.reasoning_tokens,
    )
