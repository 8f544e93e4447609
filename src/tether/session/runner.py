"""The call runner: runs one message's tool calls, concurrently, and records their results."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tether.policy import PolicyGate
from tether.session.asking import TurnAsking, turn_asking
from tether.session.calls import PreparedCall, finished, prepare
from tether.session.children import Children
from tether.session.context.system_prompt import Reminder, Reminders
from tether.session.hooked import SessionHooks
from tether.session.log.eventlog import EventLog
from tether.session.log.events import Event, ToolCallEvent, ToolCallRecord, ToolResultEvent
from tether.session.observed import observations_from
from tether.session.updates import ClientUpdate, ToolCallPartial
from tether.tools.access import HookVerdict, PermissionOutcome
from tether.tools.answer import Answerer
from tether.tools.arguments import canonical_text
from tether.tools.bash.jobs import Jobs
from tether.tools.claude_names import tether_tool_name
from tether.tools.context import ToolContext
from tether.tools.invocation import check_plain_json, invoke
from tether.tools.observations import FileVersion
from tether.tools.registry import ToolRegistry
from tether.tools.result import ToolResult
from tether.tools.workspace import Workspace

if TYPE_CHECKING:
    from tether.views import ToolResultView

__all__ = ["CallRunner", "trusted"]

log = logging.getLogger(__name__)

OnUpdate = Callable[[ClientUpdate], None]


class CallRunner:
    """Runs tool calls in the workspace; calls on the same key (a file) run one after another.

    Every call it announces gets exactly one result: its own, or the one `finish_pending`
    gives it when the turn stops first.
    """

    def __init__(
        self,
        tools: ToolRegistry,
        workspace: Workspace,
        gate: PolicyGate,
        log_: EventLog,
        *,
        delegate: Children | None = None,
        answerer: Answerer | None = None,
        jobs: Jobs | None = None,
        hooks: SessionHooks | None = None,
        asks_hooks: bool = False,
        user_dir: Path | None = None,
    ) -> None:
        self.tools = tools
        self.delegate = delegate
        self.answerer = answerer
        self.jobs = jobs
        """The session's background commands; `None` where none may run."""
        """Asks the model `web_fetch`'s questions; `None` where none may be asked."""
        """Runs the child sessions of `task` calls; `None` where none may start."""
        self.hooks = hooks
        """Runs `PreToolUse` before each call and `PostToolUse` after it."""
        self._asks_hooks = asks_hooks
        """Whether a call's question runs the `PermissionRequest` and `Notification` hooks
        (not in a child: it asks through its parent's turn, which runs them)."""
        self.workspace = workspace
        self.gate = gate
        self._log = log_
        self._observations = observations_from(log_.events)
        self._reminders = Reminders(
            workspace,
            shown=_reminded(log_.events),
            trusted=lambda: trusted(gate),
            user_dir=user_dir,
        )
        self._pending: dict[str, PreparedCall] = {}

    async def run(
        self, records: Sequence[ToolCallRecord], emit: OnUpdate, cancelled: asyncio.Event
    ) -> None:
        """Announce every call in the model's order, then run them; results as they finish."""
        calls = [self._announce(record, emit) for record in records]
        hooks = self.hooks if self._asks_hooks else None
        asking = turn_asking(self.gate, self.delegate, hooks, emit)
        last_on_key: dict[str, asyncio.Task[None]] = {}
        async with asyncio.TaskGroup() as group:
            for call in calls:
                key = _serial_key(call)
                after = last_on_key.get(key) if key else None
                task = group.create_task(self._run_call(call, after, asking, emit, cancelled))
                if key:
                    last_on_key[key] = task

    def adopt(self, event: ToolCallEvent) -> None:
        """Take a logged call that has no result yet (from a turn that was interrupted)."""
        self._pending[event.tool_call_id] = prepare(self.tools, event, str(self.workspace.cwd))

    def finish_pending(self, message: str, emit: OnUpdate) -> None:
        """Give every unfinished call an error result, so the history stays valid."""
        for call in list(self._pending.values()):
            self._record(call, ToolResult.error(message), emit)

    def _announce(self, record: ToolCallRecord, emit: OnUpdate) -> PreparedCall:
        from tether.mcp.presenter import McpPresenter  # with the first call, not the session

        name = self._tool_name(record.name)
        tool = self.tools.get(name)
        event = ToolCallEvent(
            tool_call_id=record.id,
            # One name in the log too: Claude Code's `Read` is logged as `read`.
            name=name,
            # One spelling in the log: `file_path` becomes `path` (the message keeps the raw text).
            arguments=canonical_text(record.arguments, tool.aliases) if tool else record.arguments,
            binding=tool.binding(planning=self.gate.planning) if tool is not None else None,
            # What the cards of an MCP tool show, for replays without its server.
            mcp=tool.card.record() if isinstance(tool, McpPresenter) else None,
        )
        call = self._pending[record.id] = prepare(
            self.tools, self._log.append(event), str(self.workspace.cwd)
        )
        emit(call.started())
        return call

    def _tool_name(self, name: str) -> str:
        # A tool of the session's own by that name wins (an MCP or custom tool called `LS`).
        if self.tools.get(name) is not None:
            return name
        ours = tether_tool_name(name)
        return ours if self.tools.get(ours) is not None else name

    async def _run_call(
        self,
        call: PreparedCall,
        after: asyncio.Task[None] | None,
        asking: TurnAsking,
        emit: OnUpdate,
        cancelled: asyncio.Event,
    ) -> None:
        if after is not None:
            # Same key (same file): wait for the earlier call, whatever its outcome.
            await asyncio.wait([after])
        if call.rejected:
            self._record(call, call.rejected, emit)
            return
        assert call.tool is not None and call.args is not None
        hooks = self.hooks
        hook: HookVerdict | None = None
        if hooks is not None:
            said = await hooks.before_call(call.id, call.name, call.arguments, emit)
            if isinstance(said, ToolResult):
                self._record(call, said, emit)
                return
            hook = said

        def report(view: ToolResultView) -> None:
            emit(ToolCallPartial(tool_call_id=call.id, view=view))

        ctx = ToolContext(
            workspace=self.workspace,
            gate=asking.gate,
            observations=self._observations.scoped(),
            cancelled=cancelled,
            report=report,
            tool_call_id=call.id,
            delegate=asking.delegate,
            answerer=self.answerer,
            jobs=self.jobs,
            hook=hook,
        )
        try:
            result = await invoke(call.tool, call.args, ctx)
        except Exception as exc:
            log.exception("tool %s failed", call.name)
            result = ToolResult.error(f"{call.name} failed: {type(exc).__name__}: {exc}")
        finally:
            if hooks is not None:
                hooks.forget(call.id)
        if hooks is not None:
            await hooks.after_call(call.id, call.name, call.arguments, result, emit)
        reminder = None if result.is_error else self._reminders.after(ctx.shown)
        self._record(
            call,
            result,
            emit,
            observed=ctx.observations.recorded or (),
            reminder=reminder,
            permission=ctx.permission,
        )

    def _record(
        self,
        call: PreparedCall,
        result: ToolResult,
        emit: OnUpdate,
        *,
        observed: Sequence[FileVersion] = (),
        reminder: Reminder | None = None,
        permission: PermissionOutcome | None = None,
    ) -> None:
        meta = result.meta
        try:
            check_plain_json(meta)
        except ValueError as exc:
            log.warning("dropping meta of %s: %s", call.name, exc)
            meta = None
        event = self._log.append(
            ToolResultEvent(
                tool_call_id=call.id,
                content=result.content,
                is_error=result.is_error,
                meta=meta,
                reminder=reminder[0] if reminder else None,
                reminder_sources=tuple(str(p) for p in reminder[1]) if reminder else None,
                observed=tuple(observed) or None,
                permission=permission,
            )
        )
        del self._pending[call.id]
        emit(finished(call, event))


def _reminded(events: Sequence[Event]) -> set[Path]:
    return {
        Path(source)
        for event in events
        if isinstance(event, ToolResultEvent)
        for source in event.reminder_sources or ()
    }


def _serial_key(call: PreparedCall) -> str | None:
    if call.tool is None or call.args is None:
        return None
    return call.tool.serial_key(call.args)


def trusted(gate: PolicyGate) -> bool:
    """Whether the session's workspace is trusted now (its settings say so)."""
    return gate.settings is not None and gate.settings.trust.trusted
