"""A session: the event log plus the loop that prompts the model and runs its tool calls."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, assert_never

from tether.content import ContentBlock
from tether.models.base import Completed, Model, ModelError, ModelRequest, TextDelta
from tether.models.messages import StopReason as ModelStopReason
from tether.models.messages import ToolSpec
from tether.policy import Mode, PermissionAsker, PolicyGate
from tether.session.calls import PreparedCall, finished, prepare, stored_result
from tether.session.errors import PromptFailed, SessionBusy
from tether.session.events import (
    AssistantChunk,
    AssistantMessageEvent,
    Event,
    SessionTitle,
    StopReason,
    ToolCallEvent,
    ToolCallRecord,
    ToolResultEvent,
    TurnEnd,
    TurnStart,
    UserMessageEvent,
)
from tether.session.history import derive_history
from tether.session.instructions import Reminder, Reminders, system_prompt
from tether.session.log import E, EventLog
from tether.session.observed import observations_from, observed_file
from tether.session.replay import replay, user_updates
from tether.session.store import SessionStore
from tether.session.title import title_from
from tether.session.updates import (
    AgentText,
    TitleChanged,
    ToolCallProgress,
    TurnEnded,
    TurnFailed,
    Update,
)
from tether.tools.context import ToolContext
from tether.tools.gate import Gate
from tether.tools.invoke import check_plain_json, invoke
from tether.tools.observations import FileObservations, FileVersion
from tether.tools.registry import ToolRegistry
from tether.tools.result import ToolResult
from tether.tools.workspace import Workspace
from tether.views import ToolResultView

__all__ = ["CANCELLED", "DEFAULT_MAX_STEPS", "INTERRUPTED", "Mode", "Session"]

log = logging.getLogger(__name__)

OnUpdate = Callable[[Update], None]

DEFAULT_MAX_STEPS = 50
"""Model requests per prompt before it stops with `max_turn_requests`."""
CANCELLED = "Cancelled by the user"
INTERRUPTED = "Interrupted: tether stopped before this call finished"


class Session:
    """One conversation in one workspace, backed by its log. Create or load it, then prompt."""

    def __init__(
        self,
        log_: EventLog,
        *,
        model: Model,
        tools: ToolRegistry,
        gate: Gate,
        workspace: Workspace,
        user_dir: Path,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> None:
        self.model = model
        # Bound to the workspace, so cards name it the same way live and when replayed.
        self.tools = tools.bound(str(workspace.cwd))
        self.gate = gate
        self.workspace = workspace
        self.max_steps = max_steps
        self._log = log_
        self._user_dir = user_dir
        self._observations = observations_from(log_.events)
        self._reminders = Reminders(workspace, shown=_reminded(log_.events))
        self._pending: dict[str, PreparedCall] = {}
        self._turn: asyncio.Task[StopReason] | None = None
        self._cancel_requested = False
        self._turn_running = False
        self._cancelled = asyncio.Event()

    @classmethod
    def create(
        cls,
        store: SessionStore,
        cwd: Path,
        *,
        model: Model,
        tools: ToolRegistry,
        mode: Mode = "ask",
        asker: PermissionAsker | None = None,
        gate: Gate | None = None,
        extra_roots: Sequence[Path] = (),
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> Session:
        """A new session in `cwd`; `gate` overrides the policy built from `mode` and `asker`."""
        workspace = Workspace.at(cwd, *extra_roots)
        return cls(
            store.create(workspace.cwd),
            model=model,
            tools=tools,
            gate=gate or PolicyGate(workspace, mode=mode, asker=asker),
            workspace=workspace,
            user_dir=store.root,
            max_steps=max_steps,
        )

    @classmethod
    def load(
        cls,
        store: SessionStore,
        session_id: str,
        *,
        model: Model,
        tools: ToolRegistry,
        mode: Mode = "ask",
        asker: PermissionAsker | None = None,
        gate: Gate | None = None,
        extra_roots: Sequence[Path] = (),
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> Session:
        """An existing session, locked for writing, ready to continue where it stopped."""
        event_log = store.open(session_id)
        try:
            workspace = Workspace.at(event_log.header.cwd, *extra_roots)
            session = cls(
                event_log,
                model=model,
                tools=tools,
                gate=gate or PolicyGate(workspace, mode=mode, asker=asker),
                workspace=workspace,
                user_dir=store.root,
                max_steps=max_steps,
            )
            session._close_interrupted_turn()
        except BaseException:
            event_log.close()
            raise
        return session

    @property
    def id(self) -> str:
        """The session id (the log's file name)."""
        return self._log.header.id

    @property
    def cwd(self) -> Path:
        """The workspace root."""
        return self.workspace.cwd

    @property
    def title(self) -> str | None:
        """The title, once the first prompt set it."""
        titles = [e.title for e in self._log.events if isinstance(e, SessionTitle)]
        return titles[-1] if titles else None

    @property
    def events(self) -> Sequence[Event]:
        """Every event of the log so far (read-only)."""
        return tuple(self._log.events)

    def replay(self) -> list[Update]:
        """The updates a client saw live, derived from the log (progress is live only)."""
        return replay(self._log.events, self.tools)

    def set_mode(self, mode: Mode) -> None:
        """Switch the policy mode (takes effect for the next permission decision)."""
        if not isinstance(self.gate, PolicyGate):
            raise TypeError(f"this session's gate ({type(self.gate).__name__}) has no modes")
        self.gate.mode = mode

    def cancel(self) -> None:
        """Stop the model stream and the running tools now; the prompt returns `cancelled`."""
        if self._turn is not None and not self._turn.done():
            self._cancel_requested = True
            self._cancelled.set()
            if self._turn_running:
                self._turn.cancel()
            # Otherwise the task has not run yet: cancelling it now would skip the turn's own
            # handling, so it starts, records the prompt, and ends `cancelled` by itself.

    def close(self) -> None:
        """Sync the log and release the session's lock."""
        self._log.close()

    async def prompt(self, content: Sequence[ContentBlock], on_update: OnUpdate) -> StopReason:
        """Run one prompt to its end; a model failure is recorded, then raised as `PromptFailed`."""
        if self._turn is not None:
            raise SessionBusy(f"session {self.id} is already running a prompt")
        self._cancel_requested = False
        self._turn_running = False
        self._cancelled = asyncio.Event()
        self._turn = asyncio.create_task(self._run_turn(tuple(content), _safe(on_update)))
        try:
            return await self._turn
        finally:
            self._turn = None

    async def _run_turn(self, content: tuple[ContentBlock, ...], emit: OnUpdate) -> StopReason:
        self._turn_running = True
        self._append(TurnStart())
        for update in user_updates(self._append(UserMessageEvent(content=content))):
            emit(update)
        if self.title is None and (title := title_from(content)):
            emit(TitleChanged(title=self._append(SessionTitle(title=title)).title))
        try:
            if self._cancel_requested:
                raise asyncio.CancelledError
            stop = await self._steps(emit)
        except asyncio.CancelledError:
            self._end(TurnEnd(stop_reason="cancelled"), emit)
            if not self._cancel_requested:
                raise  # the caller itself was cancelled: recorded, and passed on
            return "cancelled"
        except ModelError as exc:
            self._end(TurnEnd(stop_reason="error", error=str(exc)), emit)
            raise PromptFailed(str(exc)) from exc
        except BaseException as exc:
            message = f"internal error: {type(exc).__name__}: {exc}"
            self._end(TurnEnd(stop_reason="error", error=message), emit)
            raise
        self._end(TurnEnd(stop_reason=stop), emit)
        return stop

    async def _steps(self, emit: OnUpdate) -> StopReason:
        for _ in range(self.max_steps):
            reply = await self._ask_model(emit)
            if not reply.tool_calls:
                return _stop_reason(reply.stop_reason)
            await self._run_tools(reply.tool_calls, emit)
        return "max_turn_requests"

    async def _ask_model(self, emit: OnUpdate) -> AssistantMessageEvent:
        request = ModelRequest(
            system=system_prompt(self.workspace, self.tools, self._user_dir),
            messages=derive_history(self._log.events),
            tools=[ToolSpec(t.name, t.description, t.parameters_schema()) for t in self.tools],
        )
        stream = self.model.stream(request)
        try:
            async for event in stream:
                match event:
                    case TextDelta(text=text):
                        if text:
                            emit(AgentText(text=self._append(AssistantChunk(text=text)).text))
                    case Completed(message=reply):
                        ids = self._unique_ids([c.id for c in reply.tool_calls])
                        calls = tuple(
                            ToolCallRecord(id=call_id, name=c.name, arguments=c.arguments)
                            for call_id, c in zip(ids, reply.tool_calls, strict=True)
                        )
                        return self._append(
                            AssistantMessageEvent(
                                text=reply.text, tool_calls=calls, stop_reason=reply.stop_reason
                            )
                        )
                    case _:
                        assert_never(event)
        finally:
            await _close(stream)
        raise ModelError(f"the model {self.model.name} ended its stream without a message")

    def _unique_ids(self, ids: list[str]) -> list[str]:
        # Some servers repeat call ids (`call_0` in every message, or twice in one); results
        # and client cards are matched by id, so a repeat gets a fresh one, kept in the log.
        if not ids:
            return ids
        used = {e.tool_call_id for e in self._log.events if isinstance(e, ToolCallEvent)}
        unique = []
        for call_id in ids:
            fresh, n = call_id, 2
            while not fresh or fresh in used:
                fresh, n = f"{call_id}-{n}", n + 1
            used.add(fresh)
            unique.append(fresh)
        return unique

    async def _run_tools(self, records: Sequence[ToolCallRecord], emit: OnUpdate) -> None:
        calls = [self._announce(record, emit) for record in records]
        last_on_key: dict[str, asyncio.Task[None]] = {}
        async with asyncio.TaskGroup() as group:
            for call in calls:
                key = _serial_key(call)
                after = last_on_key.get(key) if key else None
                task = group.create_task(self._run_call(call, after, emit))
                if key:
                    last_on_key[key] = task

    def _announce(self, record: ToolCallRecord, emit: OnUpdate) -> PreparedCall:
        tool = self.tools.get(record.name)
        event = ToolCallEvent(
            tool_call_id=record.id,
            name=record.name,
            arguments=record.arguments,
            binding=tool.binding() if tool is not None else None,
        )
        call = self._pending[record.id] = prepare(self.tools, self._append(event))
        emit(call.started())
        return call

    async def _run_call(
        self, call: PreparedCall, after: asyncio.Task[None] | None, emit: OnUpdate
    ) -> None:
        if after is not None:
            # Same key (same file): wait for the earlier call, whatever its outcome.
            await asyncio.wait([after])
        observed = self._observations.scoped()
        result = call.rejected or await self._execute(call, observed, emit)
        self._record(call, result, emit, observed.recorded or ())

    async def _execute(
        self, call: PreparedCall, observations: FileObservations, emit: OnUpdate
    ) -> ToolResult:
        assert call.tool is not None and call.args is not None

        def report(view: ToolResultView) -> None:
            emit(ToolCallProgress(tool_call_id=call.id, view=view))

        ctx = ToolContext(
            workspace=self.workspace,
            gate=self.gate,
            observations=observations,
            cancelled=self._cancelled,
            report=report,
            tool_call_id=call.id,
        )
        try:
            return await invoke(call.tool, call.args, ctx)
        except Exception as exc:
            log.exception("tool %s failed", call.name)
            return ToolResult.error(f"{call.name} failed: {type(exc).__name__}: {exc}")

    def _record(
        self,
        call: PreparedCall,
        result: ToolResult,
        emit: OnUpdate,
        observed: Sequence[tuple[Path, FileVersion]] = (),
    ) -> None:
        meta = result.meta
        try:
            check_plain_json(meta)
        except ValueError as exc:
            log.warning("dropping meta of %s: %s", call.name, exc)
            meta = None
        reminder = self._reminder(call, result)
        event = self._append(
            ToolResultEvent(
                tool_call_id=call.id,
                content=result.content,
                is_error=result.is_error,
                meta=meta,
                reminder=reminder[0] if reminder else None,
                reminder_sources=tuple(str(p) for p in reminder[1]) if reminder else None,
                observed=tuple(observed_file(p, v) for p, v in observed) or None,
            )
        )
        del self._pending[call.id]
        emit(finished(call, stored_result(event)))

    def _reminder(self, call: PreparedCall, result: ToolResult) -> Reminder | None:
        raw = getattr(call.args, "path", None)
        if call.name != "read" or result.is_error or not isinstance(raw, str):
            return None
        return self._reminders.after_read(self.workspace.resolve(raw))

    def _end(self, end: TurnEnd, emit: OnUpdate, unfinished: str = CANCELLED) -> None:
        # Every call gets a result, so the history stays valid for the next request.
        for call in list(self._pending.values()):
            self._record(call, ToolResult.error(unfinished), emit)
        self._append(end)
        self._log.sync()
        if end.stop_reason == "error":
            emit(TurnFailed(message=end.error or "the model failed"))
        else:
            emit(TurnEnded(stop_reason=end.stop_reason))

    def _close_interrupted_turn(self) -> None:
        events = self._log.events
        starts = [i for i, e in enumerate(events) if isinstance(e, TurnStart)]
        if not starts or any(isinstance(e, TurnEnd) for e in events[starts[-1] :]):
            return
        answered = {e.tool_call_id for e in events[starts[-1] :] if isinstance(e, ToolResultEvent)}
        for event in events[starts[-1] :]:
            if isinstance(event, ToolCallEvent) and event.tool_call_id not in answered:
                self._pending[event.tool_call_id] = prepare(self.tools, event)
        self._end(TurnEnd(stop_reason="cancelled"), lambda _update: None, unfinished=INTERRUPTED)

    def _append(self, event: E) -> E:
        return self._log.append(event)


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


def _stop_reason(reason: ModelStopReason) -> StopReason:
    match reason:
        case "max_tokens" | "refusal":
            return reason
        case "end_turn" | "tool_use":
            return "end_turn"


def _safe(on_update: OnUpdate) -> OnUpdate:
    # A client that fails to render must not leave the log half-written.
    def emit(update: Update) -> None:
        try:
            on_update(update)
        except Exception:
            log.exception("an update handler failed on %s", update.kind)

    return emit


async def _close(stream: AsyncIterator[Any]) -> None:
    aclose = getattr(stream, "aclose", None)
    if aclose is not None:
        await aclose()
